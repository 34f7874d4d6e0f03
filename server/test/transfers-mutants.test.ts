// What the transfers tests left unchecked, found by mutation testing (decision 056): the ledger
// entry's kind and reference, the list's total, and the second page's offset.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

/** A member with a funded main account and one sub-account. */
async function memberWithSub(email: string) {
  const token = await registerMember(t, email);
  const mainId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  const subId = (await call<{ id: string }>(token, 'POST', '/api/account/create_sub', { nickname: 'Savings' })).body.data.id;
  await fund(t, mainId, 'USDT', '100');
  return { token, mainId, subId };
}

function transfer(token: string, toAccountId: string, amount: string) {
  return call<{ id: string; amount: string }>(token, 'POST', '/api/account/transfer', {
    toAccountId,
    asset: 'USDT',
    amount,
    tradePassword: 'trade-pass-1',
    idempotencyKey: randomUUID(),
  });
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('transfers, as mutation testing found them unchecked', () => {
  it('posts one entry of kind transfer that names the transfer it made', async () => {
    const { token, mainId, subId } = await memberWithSub('transfer-mutants-entry@example.com');
    const balances = await trackBalances(t, { main: mainId, sub: subId });
    const made = await transfer(token, subId, '12.5');
    expect(made.body.code).toBe(200);
    await balances.expectChanges({ 'main:USDT:available': '-12.5000', 'sub:USDT:available': '12.5000' });

    const entries = await queryRows<{ kind: string; reference_type: string; reference_id: string }>(
      t.testDatabase.database.db,
      sql`select kind, reference_type, reference_id from journal_entries where idempotency_key like ${`transfer:${mainId}:%`}`,
    );
    expect(entries).toEqual([{ kind: 'transfer', reference_type: 'account_transfer', reference_id: made.body.data.id }]);
  });

  it('counts every transfer in the total and pages by the page size', async () => {
    const { token, mainId, subId } = await memberWithSub('transfer-mutants-pages@example.com');
    const balances = await trackBalances(t, { main: mainId, sub: subId });
    for (const amount of ['1', '2', '3']) expect((await transfer(token, subId, amount)).body.code).toBe(200);
    await balances.expectChanges({ 'main:USDT:available': '-6.0000', 'sub:USDT:available': '6.0000' });

    const page = (number: number) =>
      call<{ items: { amount: string }[]; total: number; page: number; pageSize: number }>(
        token,
        'GET',
        `/api/account/transfer_list?page=${number}&pageSize=2`,
      );
    const first = await page(1);
    expect(first.body.data).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(first.body.data.items.map((item) => item.amount)).toEqual(['3.0000', '2.0000']);
    const second = await page(2);
    expect(second.body.data).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.body.data.items.map((item) => item.amount)).toEqual(['1.0000']);
    await balances.expectChanges({});
  });
});
