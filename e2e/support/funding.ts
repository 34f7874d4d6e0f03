import { expect, type APIRequestContext } from '@playwright/test';
import { freshCode } from './totp';

/**
 * Seeded by the global setup: two finance operators with bound authenticators (fixed test secrets),
 * so a manual credit has a proposer and an approver.
 */
export const FINANCE_OPERATORS = [
  { username: 'e2e-finance-proposer', password: 'e2e finance proposer password', totpSecret: '6EBZOXX4M3CQLH7I6JGVJ4UMEHN5LISE' },
  { username: 'e2e-finance-approver', password: 'e2e finance approver password', totpSecret: '7LPMPBQCFZ7TM2E2URLLQJWNGT4Y6E77' },
] as const;

/**
 * Two more, for the console's own ledger tests: they log in through the screens in another worker,
 * and a code the funding operators used there would be refused as already used.
 */
export const CONSOLE_FINANCE_OPERATORS = [
  { username: 'e2e-console-proposer', password: 'e2e console proposer password', totpSecret: 'KVQX3DQ5ZJ6YHPSV2MCXWNDTR7O4BF2L' },
  { username: 'e2e-console-approver', password: 'e2e console approver password', totpSecret: 'M4TBNX2QGZRL7WJH5DKVYC3SE6PAF7UO' },
] as const;

/** One more, for the USDT (deposit and withdrawal) tests, which approve payouts in the console. */
export const CHAIN_FINANCE_OPERATOR = {
  username: 'e2e-chain-finance',
  password: 'e2e chain finance password',
  totpSecret: 'Q3VN7XKZ2M5PLRWD4HJTYB6CSEGAF2UO',
} as const;

const tokens = new Map<string, string>();

/**
 * A console session for a finance operator, made once per test worker. Each authenticator code works
 * once, so a code another worker used first is answered as wrong: then the next step's code is tried.
 */
export async function financeToken(
  request: APIRequestContext,
  operator: { username: string; password: string; totpSecret: string },
): Promise<string> {
  const known = tokens.get(operator.username);
  if (known) return known;
  for (let attempt = 0; ; attempt += 1) {
    const response = await request.post('/api/admin/auth/login', {
      data: { username: operator.username, password: operator.password, googleCode: await freshCode(operator.totpSecret) },
    });
    const envelope = (await response.json()) as { code: number; message: string; data: { token: string } };
    if (envelope.code === 200) {
      tokens.set(operator.username, envelope.data.token);
      return envelope.data.token;
    }
    expect(attempt, envelope.message).toBeLessThan(3);
  }
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
  const proposer = await financeToken(request, FINANCE_OPERATORS[0]);
  const approver = await financeToken(request, FINANCE_OPERATORS[1]);
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
