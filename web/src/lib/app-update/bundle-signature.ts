import { hotBundleSignedMessage, RELEASE_TEST_PUBLIC_KEY } from '@custos/contract';

/*
 * The hot bundle's signature (decision 053): the release key's Ed25519 signature of the bundle's
 * version code and SHA-256. Checked with the WebView's own WebCrypto; a WebView without Ed25519
 * cannot check it, and an unchecked bundle is never applied (the update is refused, the member keeps
 * the bundle they have, a full package still updates them).
 */

function bytesOfBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return bytes;
  } catch {
    return null;
  }
}

/**
 * The key hot bundles are checked against (decision 057): the one built in (VITE_RELEASE_PUBLIC_KEY)
 * on every update layer. A build without one trusts no key on the real (Android) layer, so it
 * applies no hot bundle at all; only the browser test double, which never runs a bundle's code,
 * trusts the committed test key there, so the e2e run checks real signatures.
 */
export function trustedReleaseKey(builtIn: string, layer: { testDouble?: boolean }): string {
  if (builtIn !== '') return builtIn;
  return layer.testDouble === true ? RELEASE_TEST_PUBLIC_KEY : '';
}

/** Whether `signatureBase64` is the release key's (`publicKeyBase64`: its raw 32 bytes) for this bundle. */
export async function hotBundleSignatureValid(
  publicKeyBase64: string,
  versionCode: number,
  sha256: string,
  signatureBase64: string | undefined,
): Promise<boolean> {
  const publicKey = bytesOfBase64(publicKeyBase64);
  const signature = signatureBase64 ? bytesOfBase64(signatureBase64) : null;
  if (!publicKey || publicKey.length !== 32 || !signature || signature.length !== 64) return false;
  try {
    const key = await crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
    const message = new TextEncoder().encode(hotBundleSignedMessage(versionCode, sha256));
    return await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, message);
  } catch {
    return false;
  }
}
