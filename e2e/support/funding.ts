import type { APIRequestContext } from '@playwright/test';

/** The account the member's session acts for. */
export async function currentAccountId(request: APIRequestContext, token: string): Promise<string> {
  const response = await request.get('/api/account/list', { headers: { authorization: token } });
  const envelope = (await response.json()) as { data: { id: string; current: boolean }[] };
  return envelope.data.find((account) => account.current)!.id;
}
