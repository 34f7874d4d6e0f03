import type { APIRequestContext } from '@playwright/test';

/** The account the member's session acts for. */
export async function currentAccountId(request: APIRequestContext, token: string): Promise<string> {
  return (await currentAccount(request, token)).id;
}

/** The account a session is on, with its nickname (a new member's is random, never from the e-mail). */
export async function currentAccount(request: APIRequestContext, token: string): Promise<{ id: string; nickname: string }> {
  const response = await request.get('/api/account/list', { headers: { authorization: token } });
  const envelope = (await response.json()) as { data: { id: string; nickname: string; current: boolean }[] };
  const { id, nickname } = envelope.data.find((account) => account.current)!;
  return { id, nickname };
}
