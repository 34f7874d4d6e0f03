import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

// Real PostgreSQL only: PGlite runs one transaction at a time, so it cannot show races.
let t: TestApp;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function post<T = Record<string, string>>(url: string, token: string, payload: object) {
  return t.app
    .inject({ method: 'POST', url, headers: { authorization: token, lang: 'EN' }, payload })
    .then((response) => response.json<Envelope<T>>());
}

async function member(email: string): Promise<{ token: string; mainId: string; subId: string }> {
  const token = await registerMember(t, email);
  await setTradePassword(t, token);
  const mainId = await accountIdOf(t, token);
  const subId = (await post<{ id: string }>('/api/account/create_sub', token, { nickname: 'Sub' })).data.id;
  return { token, mainId, subId };
}

async function entries(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.testDatabase.database.db, sql`select count(*)::int as n from journal_entries`);
  return row!.n;
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('concurrency on PostgreSQL', () => {
  it(
    '200 concurrent transfers that together exceed the balance: exactly the ones that fit succeed',
    { timeout: 120_000 },
    async () => {
      const { token, mainId, subId } = await member('race-transfer@example.com');
      await fund(t, mainId, 'USDT', '150');
      const balances = await trackBalances(t, { main: mainId, sub: subId });
      const results = await Promise.all(
        Array.from({ length: 200 }, () =>
          post('/api/account/transfer', token, {
            toAccountId: subId,
            asset: 'USDT',
            amount: '1',
            tradePassword: 'trade-pass-1',
            idempotencyKey: randomUUID(),
          }),
        ),
      );
      const codes = results.map((result) => result.code);
      expect(codes.filter((code) => code === 200)).toHaveLength(150);
      expect(codes.filter((code) => code === 409)).toHaveLength(50);
      expect(await availableOf(t, mainId, 'USDT')).toBe('0.0000');
      expect(await availableOf(t, subId, 'USDT')).toBe('150.0000');
      await balances.expectChanges({ 'main:USDT:available': '-150.0000', 'sub:USDT:available': '150.0000' });
      expect((await t.services.ledger.verify()).clean).toBe(true);
    },
  );

  it(
    '200 concurrent exchanges that together exceed the balance: exactly the ones that fit succeed',
    { timeout: 120_000 },
    async () => {
      const { token, mainId, subId } = await member('race-exchange@example.com');
      await fund(t, mainId, 'USDT', '500');
      const balances = await trackBalances(t, { main: mainId, sub: subId });
      const results = await Promise.all(
        Array.from({ length: 200 }, () =>
          post('/api/exchange/exchange', token, {
            direction: 'usdt_to_rab',
            amount: '5',
            quotedPrice: '0.5',
            tradePassword: 'trade-pass-1',
            idempotencyKey: randomUUID(),
          }),
        ),
      );
      const codes = results.map((result) => result.code);
      expect(results.filter((result) => result.code !== 200 && result.code !== 409)).toEqual([]);
      expect(codes.filter((code) => code === 200)).toHaveLength(100);
      expect(codes.filter((code) => code === 409)).toHaveLength(100);
      expect(await availableOf(t, mainId, 'USDT')).toBe('0.0000');
      // Each 5 USDT pays a 0.025 fee and buys 9.95 RAB.
      expect(await availableOf(t, mainId, 'RAB')).toBe('995.0000');
      // 100 × (4.975 to the treasury, 0.025 to fees, 9.95 RAB out of the treasury).
      await balances.expectChanges({
        'main:USDT:available': '-500.0000',
        'main:RAB:available': '995.0000',
        'platform:fees:USDT': '2.5000',
        'platform:treasury:USDT': '497.5000',
        'platform:treasury:RAB': '-995.0000',
      });
      expect((await t.services.ledger.verify()).clean).toBe(true);
    },
  );

  it('the same request retried 50 times at once with one key posts once and answers the same', { timeout: 120_000 }, async () => {
    const { token, mainId, subId } = await member('race-retry@example.com');
    await fund(t, mainId, 'USDT', '100');
    const balances = await trackBalances(t, { main: mainId, sub: subId });
    const before = await entries();
    const idempotencyKey = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        post<{ id: string }>('/api/account/transfer', token, {
          toAccountId: subId,
          asset: 'USDT',
          amount: '7.5',
          tradePassword: 'trade-pass-1',
          idempotencyKey,
        }),
      ),
    );
    expect(results.every((result) => result.code === 200)).toBe(true);
    expect(new Set(results.map((result) => result.data.id)).size).toBe(1);
    expect(await entries()).toBe(before + 1);
    expect(await availableOf(t, mainId, 'USDT')).toBe('92.5000');
    await balances.expectChanges({ 'main:USDT:available': '-7.5000', 'sub:USDT:available': '7.5000' });

    const exchangeKey = randomUUID();
    const exchanges = await Promise.all(
      Array.from({ length: 50 }, () =>
        post<{ id: string }>('/api/exchange/exchange', token, {
          direction: 'usdt_to_rab',
          amount: '10',
          quotedPrice: '0.5',
          tradePassword: 'trade-pass-1',
          idempotencyKey: exchangeKey,
        }),
      ),
    );
    expect(exchanges.every((result) => result.code === 200)).toBe(true);
    expect(new Set(exchanges.map((result) => result.data.id)).size).toBe(1);
    expect(await entries()).toBe(before + 2);
    expect(await availableOf(t, mainId, 'USDT')).toBe('82.5000');
    // Once: 0.05 fee, 9.95 / 0.5 = 19.9 RAB.
    await balances.expectChanges({
      'main:USDT:available': '-10.0000',
      'main:RAB:available': '19.9000',
      'platform:fees:USDT': '0.0500',
      'platform:treasury:USDT': '9.9500',
      'platform:treasury:RAB': '-19.9000',
    });
  });

  it('transfers in both directions at once neither deadlock nor lose money', { timeout: 120_000 }, async () => {
    const { token, mainId, subId } = await member('race-both-ways@example.com');
    await fund(t, mainId, 'USDT', '100');
    await fund(t, subId, 'USDT', '100');
    const balances = await trackBalances(t, { main: mainId, sub: subId });
    const subToken = (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'race-both-ways@example.com', password: 'member-password' },
      })
    ).json<Envelope<{ token: string }>>().data.token;
    await post('/api/account/switch', subToken, { accountId: subId });
    const send = (from: string, to: string) =>
      post('/api/account/transfer', from, {
        toAccountId: to,
        asset: 'USDT',
        amount: '1.25',
        tradePassword: 'trade-pass-1',
        idempotencyKey: randomUUID(),
      });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, index) => (index % 2 === 0 ? send(token, subId) : send(subToken, mainId))),
    );
    expect(results.every((result) => result.code === 200)).toBe(true);
    expect(await availableOf(t, mainId, 'USDT')).toBe('100.0000');
    expect(await availableOf(t, subId, 'USDT')).toBe('100.0000');
    // 50 each way of the same amount: every account back where it was.
    await balances.expectChanges({});
    expect((await t.services.ledger.verify()).clean).toBe(true);
  });
});
