import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The withdrawal steps a member hears of live: approved, paid, refunded (decision 022). */

// Friday 2026-11-20, 10:00 in Shanghai: inside the withdrawal window.
const clock = { now: () => new Date('2026-11-20T02:00:00Z') };

let t: TestApp;
let token: string;
let finance: string;
let bankMethodId: string;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  token = await registerMember(t, 'events-withdrawer@example.com');
  await registerMember(t, 'events-bystander@example.com');
  finance = await operatorToken(t, 'events-finance', 'finance');
  await fund(t, await accountIdOf(t, token), 'USDT', '1000');
  await setTradePassword(t, token);
  const bank = await t.app.inject({
    method: 'POST',
    url: '/api/withdraw/add_bank',
    headers: { authorization: token, lang: 'EN' },
    payload: { bankName: 'ICBC', cardNumber: '6222 0212 3456 7890', holderName: 'Li Lei', branch: 'Pudong' },
  });
  bankMethodId = bank.json<{ data: { id: string } }>().data.id;
});
afterAll(async () => {
  await t.close();
});

async function withdraw(amount: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/withdraw/withdraw',
    headers: { authorization: token, lang: 'EN' },
    payload: { methodId: bankMethodId, amount, tradePassword: 'trade-pass-1', idempotencyKey: randomUUID() },
  });
  expect(response.json()).toMatchObject({ code: 200 });
  return response.json<{ data: { id: string } }>().data.id;
}

async function decide(id: string, action: 'approve' | 'reject' | 'mark_paid', payload?: object) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/${action}`,
    headers: { authorization: finance, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
  expect(response.json()).toMatchObject({ code: 200 });
}

async function events() {
  return queryRows<{ email: string; kind: string; payload: unknown }>(
    t.testDatabase.database.db,
    sql`select m.email, e.kind, e.payload from member_events e join members m on m.id = e.member_id order by e.id`,
  );
}

describe('withdrawal events', () => {
  it('are stored with each decision, for the withdrawing member only', async () => {
    const paid = await withdraw('200');
    expect(await events()).toEqual([]);
    await decide(paid, 'approve');
    await decide(paid, 'mark_paid', { reference: 'ICBC-20261120-0001' });
    const refused = await withdraw('50');
    await decide(refused, 'reject', { reason: 'Address under review' });
    const email = 'events-withdrawer@example.com';
    expect(await events()).toEqual([
      { email, kind: 'withdrawal.approved', payload: { withdrawalId: paid, amount: '200.0000' } },
      { email, kind: 'withdrawal.paid', payload: { withdrawalId: paid, amount: '200.0000' } },
      { email, kind: 'withdrawal.refunded', payload: { withdrawalId: refused, amount: '50.0000' } },
    ]);
  });

  it('are not stored when the decision is refused', async () => {
    const before = await events();
    const id = await withdraw('10');
    await decide(id, 'reject', { reason: 'No' });
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/approve`,
      headers: { authorization: finance, lang: 'EN' },
    });
    expect(again.json()).toMatchObject({ code: 409 });
    expect((await events()).length).toBe(before.length + 1);
  });
});
