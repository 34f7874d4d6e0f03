import { expect, type APIRequestContext } from '@playwright/test';

/** Seeded by the global setup: two finance operators, so a manual credit has a proposer and an approver. */
export const FINANCE_OPERATORS = [
  { username: 'e2e-finance-proposer', password: 'e2e finance proposer password' },
  { username: 'e2e-finance-approver', password: 'e2e finance approver password' },
] as const;

async function operatorToken(request: APIRequestContext, operator: (typeof FINANCE_OPERATORS)[number]): Promise<string> {
  const response = await request.post('/api/admin/auth/login', {
    data: { username: operator.username, password: operator.password },
  });
  const envelope = (await response.json()) as { code: number; message: string; data: { token: string } };
  expect(envelope.code, envelope.message).toBe(200);
  return envelope.data.token;
}

/**
 * Credits a member account the way the platform does it for real: one finance operator proposes a
 * manual adjustment through the console API and the other approves it.
 */
export async function fundAccount(
  request: APIRequestContext,
  accountId: string,
  asset: 'USDT' | 'RAB' | 'FUEL' | 'TICKET',
  amount: string,
) {
  const proposer = await operatorToken(request, FINANCE_OPERATORS[0]);
  const approver = await operatorToken(request, FINANCE_OPERATORS[1]);
  const proposed = await request.post('/api/admin/ledger/adjustments', {
    headers: { authorization: proposer },
    data: { accountId, asset, direction: 'credit', amount, reason: 'e2e funding' },
  });
  const proposal = (await proposed.json()) as { code: number; message: string; data: { id: string } };
  expect(proposal.code, proposal.message).toBe(200);
  const approved = await request.post(`/api/admin/ledger/adjustments/${proposal.data.id}/approve`, {
    headers: { authorization: approver },
    data: {},
  });
  const approval = (await approved.json()) as { code: number; message: string };
  expect(approval.code, approval.message).toBe(200);
}

/** The account the member's session acts for. */
export async function currentAccountId(request: APIRequestContext, token: string): Promise<string> {
  const response = await request.get('/api/account/list', { headers: { authorization: token } });
  const envelope = (await response.json()) as { data: { id: string; current: boolean }[] };
  return envelope.data.find((account) => account.current)!.id;
}
