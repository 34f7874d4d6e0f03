import { credential } from '../auth/credential';

/**
 * An image only its owner may see (an uploaded avatar): fetched with the session's credential and
 * handed out as an object URL. Each image is fetched once per app run; a failure is not kept.
 */
const cache = new Map<string, Promise<string>>();

export function fetchPrivateImage(path: string): Promise<string> {
  const cached = cache.get(path);
  if (cached) return cached;
  const request = fetch(`api${path.replace(/^\/api/, '')}`, { headers: { Authorization: credential.get() ?? '' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`image not available (HTTP ${response.status})`);
      return URL.createObjectURL(await response.blob());
    })
    .catch((error: unknown) => {
      cache.delete(path);
      throw error;
    });
  cache.set(path, request);
  return request;
}
