// `npm run demo:code`: the demo operator's current console authenticator code (decision 019), so a
// person can sign in to the console of `npm start -- --demo` without an authenticator app. The
// secret is public on purpose: the demo operator logs in only while the server runs with --demo.
import { createHmac } from 'node:crypto';
import { pathToFileURL } from 'node:url';

/** The same secret as DEMO_OPERATOR.totpSecret in server/src/demo/seed.ts (demo-seed.test checks it). */
export const DEMO_OPERATOR_TOTP_SECRET = 'CUSTOSDEMOCONSOLEAUTHCODE234567A';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const STEP_S = 30;

function base32Decode(text) {
  let bits = 0;
  let value = 0;
  const bytes = [];
  for (const character of text) {
    value = (value << 5) | BASE32.indexOf(character);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 6238 (HMAC-SHA1, 30 s, 6 digits), as authenticator apps compute it. */
export function codeAt(secret, nowMs) {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(Math.floor(nowMs / 1000 / STEP_S)));
  const digest = createHmac('sha1', base32Decode(secret)).update(message).digest();
  const offset = digest[digest.length - 1] & 15;
  const binary = ((digest[offset] & 127) << 24) | (digest[offset + 1] << 16) | (digest[offset + 2] << 8) | digest[offset + 3];
  return String(binary % 1_000_000).padStart(6, '0');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const now = Date.now();
  const leftS = STEP_S - (Math.floor(now / 1000) % STEP_S);
  console.log(`${codeAt(DEMO_OPERATOR_TOTP_SECRET, now)}   (user "demo", valid ${leftS} s more; each code logs in once)`);
}
