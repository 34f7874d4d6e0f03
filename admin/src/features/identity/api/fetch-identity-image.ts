import { operatorToken } from '../../../lib/api';

/** Document images need the operator's token, so they are fetched and shown from a blob URL. */
export async function fetchIdentityImage(uploadId: string): Promise<string> {
  const response = await fetch(`../api/admin/identity/image/${encodeURIComponent(uploadId)}`, {
    headers: { authorization: `Bearer ${operatorToken.get() ?? ''}` },
  });
  if (!response.ok) throw new Error(`Image not available (HTTP ${response.status})`);
  return URL.createObjectURL(await response.blob());
}
