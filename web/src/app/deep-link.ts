import { startupRedirect, pathOfHash } from './startup';

/**
 * Where a link that opened the Android app leads (invitation links:
 * https://<host>/#/pages/register/register?code=…, or custos://open/#/…): the hash route with its
 * query, under the start-up rule like any launch; null for a link without an in-app route.
 */
export function deepLinkTarget(url: string, hasCredential: boolean): string | null {
  let hash: string;
  try {
    hash = new URL(url).hash;
  } catch {
    return null;
  }
  const route = hash.replace(/^#/, '');
  if (!route.startsWith('/pages/')) return null;
  return startupRedirect(pathOfHash(hash), hasCredential) ?? route;
}
