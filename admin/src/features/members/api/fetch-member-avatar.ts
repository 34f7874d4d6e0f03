import { operatorToken } from '../../../lib/api';

/** Avatars members uploaded need the operator's token, so they are fetched and shown from a blob URL. */
export async function fetchMemberAvatar(uploadId: string): Promise<string> {
  const response = await fetch(`../api/admin/members/avatar/${encodeURIComponent(uploadId)}`, {
    headers: { authorization: `Bearer ${operatorToken.get() ?? ''}` },
  });
  if (!response.ok) throw new Error(`Avatar not available (HTTP ${response.status})`);
  return URL.createObjectURL(await response.blob());
}
