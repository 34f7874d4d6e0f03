// What the exchange tests left unchecked, found by mutation testing (decision 056): the ledger
// entry's kind and reference, every account of a RAB → USDT exchange, the list's total and second
// page, and the audit row of a settings change.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

async function member(email: string) {
  const token = await registerMember(t, email);
  const accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  return { token, accountId };
}

function exchange(token: string, fields: Record<string, unknown>) {
  return call<Record<string, string>>(token, 'POST', '/api/exchange/exchange', {
    direction: 'usdt_to_rab',
    amount: '10',
    quotedPrice: '0.5',
    tradePassword: 'trade-pass-1',
    idempotencyKey: randomUUID(),
    ...fields,
  });
}

beforeAll(async () => {
  // Price 0.5 USDT per RAB, fee 0.5 %, minimums 10 RAB / 5 USDT (the seeded defaults).
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the exchange, as mutation testing found it unchecked', () => {
  it('posts RAB → USDT as one entry of kind exchange naming its order, moving exactly these accounts', async () => {
    const { token, accountId } = await member('exchange-mutants-rab@example.com');
    await fund(t, accountId, 'RAB', '100');
    const balances = await trackBalances(t, { member: accountId });
    // 40 RAB × 0.5 = 20 USDT; fee 20 × 0.005 = 0.1 USDT (no FUEL), so 19.9 USDT received.
    const made = await exchange(token, { direction: 'rab_to_usdt', amount: '40' });
    expect(made.body.data).toMatchObject({ fromAmount: '40.0000', toAmount: '19.9000', feeUsdt: '0.1000', feeFuel: '0.0000' });
    await balances.expectChanges({
      'member:RAB:available': '-40.0000',
      'member:USDT:available': '19.9000',
      'platform:treasury:RAB': '40.0000',
      'platform:treasury:USDT': '-20.0000',
      'platform:fees:USDT': '0.1000',
    });
    const entries = await queryRows<{ kind: string; reference_type: string; reference_id: string }>(
      t.testDatabase.database.db,
      sql`select kind, reference_type, reference_id from journal_entries where idempotency_key like ${`exchange:${accountId}:%`}`,
    );
    expect(entries).toEqual([{ kind: 'exchange', reference_type: 'exchange_order', reference_id: made.body.data.id }]);
  });

  it('counts every order in the total and pages by the page size', async () => {
    const { token, accountId } = await member('exchange-mutants-pages@example.com');
    await fund(t, accountId, 'USDT', '100');
    const balances = await trackBalances(t, { member: accountId });
    for (const amount of ['10', '20', '30']) expect((await exchange(token, { amount })).body.code).toBe(200);
    // Fees 0.05 + 0.1 + 0.15 USDT; RAB (60 − 0.3) / 0.5 = 119.4.
    await balances.expectChanges({
      'member:USDT:available': '-60.0000',
      'member:RAB:available': '119.4000',
      'platform:treasury:USDT': '59.7000',
      'platform:treasury:RAB': '-119.4000',
      'platform:fees:USDT': '0.3000',
    });
    const page = (number: number) =>
      call<{ items: { fromAmount: string }[]; total: number }>(token, 'GET', `/api/exchange/list?page=${number}&pageSize=2`);
    const first = await page(1);
    expect(first.body.data.total).toBe(3);
    expect(first.body.data.items.map((item) => item.fromAmount)).toEqual(['30.0000', '20.0000']);
    const second = await page(2);
    expect(second.body.data.total).toBe(3);
    expect(second.body.data.items.map((item) => item.fromAmount)).toEqual(['10.0000']);
  });

  it('shows what the member can spend of every asset', async () => {
    const { token, accountId } = await member('exchange-mutants-index@example.com');
    await fund(t, accountId, 'USDT', '1');
    await fund(t, accountId, 'RAB', '7');
    await fund(t, accountId, 'FUEL', '3');
    const index = await call<{ available: Record<string, string> }>(token, 'GET', '/api/exchange/index');
    expect(index.body.data.available).toEqual({ USDT: '1.0000', RAB: '7.0000', FUEL: '3.0000' });
  });

  it('refuses an amount that leaves nothing to receive, with the reason, and moves nothing', async () => {
    const { token, accountId } = await member('exchange-mutants-nothing@example.com');
    await fund(t, accountId, 'RAB', '1');
    const original = await t.services.settings.get('exchange');
    await t.services.settings.set('exchange', { ...original, minRab: '0.0001' }, null);
    try {
      const balances = await trackBalances(t, { member: accountId });
      // 0.0001 RAB × 0.5 = 0.00005, rounded down to 0 USDT.
      const refused = await exchange(token, { direction: 'rab_to_usdt', amount: '0.0001' });
      expect(refused.body).toMatchObject({ code: 400, message: 'The amount is too small to exchange after the fee' });
      await balances.expectChanges({});
    } finally {
      await t.services.settings.set('exchange', original, null);
    }
  });

  it('audits a settings change with the operator, the target, the before and after, and the request', async () => {
    const finance = await operatorToken(t, 'exchange-mutants-finance', 'finance');
    const before = (await call<Record<string, unknown>>(finance, 'GET', '/api/admin/exchange/settings')).body.data;
    const next = { enabled: true, rabPriceUsdt: '0.6', feeRate: '0.002', minRab: '2.0000', minUsdt: '3.0000' };
    const saved = await call(finance, 'PUT', '/api/admin/exchange/settings', next);
    expect(saved.body).toMatchObject({ code: 200, data: next });

    const [operator] = await queryRows<{ id: string }>(
      t.testDatabase.database.db,
      sql`select id from operators where username = 'exchange-mutants-finance'`,
    );
    const audits = await queryRows<Record<string, unknown>>(
      t.testDatabase.database.db,
      sql`select operator_id, target_type, target_id, before, after, ip, request_id from audit_log
          where action = 'exchange.settings_updated'`,
    );
    expect(audits).toEqual([
      {
        operator_id: operator!.id,
        target_type: 'setting',
        target_id: 'exchange',
        before,
        after: next,
        ip: '127.0.0.1',
        request_id: expect.stringMatching(/.+/) as unknown,
      },
    ]);
  });
});
