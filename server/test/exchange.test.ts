import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
let token: string;
let accountId: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await registerMember(t, 'exchange@example.com');
  accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  // Price 0.5 USDT per RAB, fee 0.5 %, minimums 10 RAB / 5 USDT (the seeded defaults).
});
afterAll(async () => {
  await t.close();
});

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST', url: string, payload?: object, as = token, lang = 'EN') {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

function exchange(fields: Record<string, unknown>, as = token) {
  return call<Record<string, string>>(
    'POST',
    '/api/exchange/exchange',
    {
      direction: 'usdt_to_rab',
      amount: '10',
      quotedPrice: '0.5',
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
      ...fields,
    },
    as,
  );
}

async function entryCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.testDatabase.database.db, sql`select count(*)::int as n from journal_entries`);
  return row!.n;
}

describe('token exchange', () => {
  it('shows the live quote and what the member can spend', async () => {
    await fund(t, accountId, 'USDT', '1000');
    const index = await call<Record<string, unknown>>('GET', '/api/exchange/index');
    expect(index.body.data).toMatchObject({
      enabled: true,
      rabPriceUsdt: '0.5',
      feeRate: '0.005',
      minRab: '10.0000',
      minUsdt: '5.0000',
      available: { USDT: '1000.0000', RAB: '0.0000', FUEL: '0.0000' },
    });
  });

  it('exchanges USDT for RAB with the fee taken in USDT, as one balanced entry', async () => {
    const balances = await trackBalances(t, { member: accountId });
    const result = await exchange({ amount: '100' });
    expect(result.body).toMatchObject({ code: 200 });
    // fee = 100 × 0.005 = 0.5 USDT; (100 − 0.5) / 0.5 = 199 RAB.
    expect(result.body.data).toMatchObject({
      direction: 'usdt_to_rab',
      fromAsset: 'USDT',
      toAsset: 'RAB',
      fromAmount: '100.0000',
      toAmount: '199.0000',
      price: '0.5',
      fee: '0.5000',
      feeFuel: '0.0000',
      feeUsdt: '0.5000',
    });
    expect(await availableOf(t, accountId, 'USDT')).toBe('900.0000');
    expect(await availableOf(t, accountId, 'RAB')).toBe('199.0000');
    const platform = await queryRows<{ platform_code: string; asset: string; balance: string }>(
      t.testDatabase.database.db,
      sql`select platform_code, asset, balance::text as balance from ledger_accounts
          where platform_code in ('fees', 'treasury') and asset in ('USDT', 'RAB') order by platform_code, asset`,
    );
    expect(platform).toEqual([
      { platform_code: 'fees', asset: 'RAB', balance: '0.0000' },
      { platform_code: 'fees', asset: 'USDT', balance: '0.5000' },
      { platform_code: 'treasury', asset: 'RAB', balance: '-199.0000' },
      { platform_code: 'treasury', asset: 'USDT', balance: '99.5000' },
    ]);
    // The treasury sells 199 RAB for the 99.5 left after the fee; the fee goes to the fees account.
    await balances.expectChanges({
      'member:USDT:available': '-100.0000',
      'member:RAB:available': '199.0000',
      'platform:fees:USDT': '0.5000',
      'platform:treasury:RAB': '-199.0000',
      'platform:treasury:USDT': '99.5000',
    });
  });

  it('pays the fee with FUEL first and the rest in USDT, rounding the fee up and the proceeds down', async () => {
    await fund(t, accountId, 'FUEL', '0.1');
    const balances = await trackBalances(t, { member: accountId });
    // 33.3333 RAB × 0.5 = 16.66665 → 16.6666 USDT; fee 16.6666 × 0.005 = 0.083333 → 0.0834, all FUEL-paid.
    const result = await exchange({ direction: 'rab_to_usdt', amount: '33.3333' });
    expect(result.body.data).toMatchObject({ toAmount: '16.6666', fee: '0.0834', feeFuel: '0.0834', feeUsdt: '0.0000' });
    expect(await availableOf(t, accountId, 'FUEL')).toBe('0.0166');
    await balances.expectChanges({
      'member:RAB:available': '-33.3333',
      'member:USDT:available': '16.6666',
      'member:FUEL:available': '-0.0834',
      'platform:treasury:RAB': '33.3333',
      'platform:treasury:USDT': '-16.6666',
      'platform:fees:FUEL': '0.0834',
    });
    // Next fee 0.1 USDT on 20 USDT: FUEL covers 0.0166, USDT the other 0.0834.
    const split = await exchange({ direction: 'rab_to_usdt', amount: '40' });
    expect(split.body.data).toMatchObject({ toAmount: '19.9166', fee: '0.1000', feeFuel: '0.0166', feeUsdt: '0.0834' });
    expect(await availableOf(t, accountId, 'FUEL')).toBe('0.0000');
    // The treasury buys the 40 RAB for 20 USDT; 0.0834 of it is the fee's USDT part.
    await balances.expectChanges({
      'member:RAB:available': '-40.0000',
      'member:USDT:available': '19.9166',
      'member:FUEL:available': '-0.0166',
      'platform:treasury:RAB': '40.0000',
      'platform:treasury:USDT': '-20.0000',
      'platform:fees:USDT': '0.0834',
      'platform:fees:FUEL': '0.0166',
    });
  });

  it('replays a retried request with the same key and refuses the key for a different request', async () => {
    const key = randomUUID();
    const balances = await trackBalances(t, { member: accountId });
    const first = await exchange({ amount: '20', idempotencyKey: key });
    const usdt = await availableOf(t, accountId, 'USDT');
    const again = await exchange({ amount: '20', idempotencyKey: key });
    expect(again.body.data).toEqual(first.body.data);
    expect(await availableOf(t, accountId, 'USDT')).toBe(usdt);
    const different = await exchange({ amount: '21', idempotencyKey: key });
    expect(different).toMatchObject({ status: 409, body: { code: 409 } });
    expect(different.body.message).toMatch(/different details/);
    // Once: fee 0.1 USDT (no FUEL left), 19.9 / 0.5 = 39.8 RAB.
    await balances.expectChanges({
      'member:USDT:available': '-20.0000',
      'member:RAB:available': '39.8000',
      'platform:fees:USDT': '0.1000',
      'platform:treasury:RAB': '-39.8000',
      'platform:treasury:USDT': '19.9000',
    });
  });

  it('refuses bad amounts with 400 naming the field, and moves nothing', async () => {
    const balances = await trackBalances(t, { member: accountId });
    const before = await entryCount();
    const cases: [unknown, RegExp][] = [
      ['1.23456', /amount: please enter an amount with at most 4 decimal places/],
      ['0', /amount: the amount must be greater than 0/],
      ['-5', /amount: please enter an amount with at most 4 decimal places/],
      ['abc', /amount: please enter an amount with at most 4 decimal places/],
      [12, /amount: wrong type/],
      [undefined, /please enter amount/],
    ];
    for (const [amount, message] of cases) {
      const result = await exchange({ amount });
      expect(result.status, String(amount)).toBe(400);
      expect(result.body.message).toMatch(message);
    }
    expect((await exchange({ direction: 'sideways' })).status).toBe(400);
    expect((await exchange({ idempotencyKey: 'short' })).body.message).toMatch(/request key/);
    expect(await entryCount()).toBe(before);
    await balances.expectChanges({});
  });

  it('refuses below the minimum, above the balance and at a stale price, with the reason', async () => {
    const balances = await trackBalances(t, { member: accountId });
    const before = await entryCount();
    const small = await exchange({ amount: '4.9999' });
    expect(small).toMatchObject({ status: 400, body: { message: 'The minimum is 5.0000 USDT' } });
    const rabSmall = await exchange({ direction: 'rab_to_usdt', amount: '9.9999' });
    expect(rabSmall.body.message).toBe('The minimum is 10.0000 RAB');
    const tooMuch = await exchange({ amount: '100000' });
    expect(tooMuch).toMatchObject({ status: 409, body: { message: 'Insufficient USDT balance' } });
    const stale = await exchange({ quotedPrice: '0.4' });
    expect(stale).toMatchObject({ status: 409, body: { message: 'The price has changed to 0.5; please check the new quote' } });
    // Trailing zeros do not make a price different.
    expect((await exchange({ quotedPrice: '0.50000000', amount: '5' })).body.code).toBe(200);
    expect(await entryCount()).toBe(before + 1);
    // Only the last: fee 0.025 → 0.025 USDT, 4.975 / 0.5 = 9.95 RAB.
    await balances.expectChanges({
      'member:USDT:available': '-5.0000',
      'member:RAB:available': '9.9500',
      'platform:fees:USDT': '0.0250',
      'platform:treasury:RAB': '-9.9500',
      'platform:treasury:USDT': '4.9750',
    });
  });

  it('answers in the member’s language', async () => {
    const result = await call(
      'POST',
      '/api/exchange/exchange',
      {
        direction: 'usdt_to_rab',
        amount: '100000',
        quotedPrice: '0.5',
        tradePassword: 'trade-pass-1',
        idempotencyKey: randomUUID(),
      },
      token,
      'CN',
    );
    expect(result.body.message).toBe('USDT 余额不足');
  });

  it('needs the trading password: 4900 until set, wrong ones counted until a pause', async () => {
    const other = await registerMember(t, 'exchange-no-trade@example.com');
    const balances = await trackBalances(t, { member: accountId, other: await accountIdOf(t, other) });
    const unset = await exchange({}, other);
    expect(unset.body.code).toBe(4900);
    await setTradePassword(t, other);
    const before = await entryCount();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await exchange({ tradePassword: 'not-it' }, other);
      expect(wrong.body).toMatchObject({ code: 400, message: 'The trading password is wrong' });
    }
    expect((await exchange({}, other)).body.code).toBe(429);
    expect(await entryCount()).toBe(before);
    await balances.expectChanges({});
  });

  it('is refused while the operator has closed it, and follows a new price', async () => {
    const balances = await trackBalances(t, { member: accountId });
    await t.services.settings.set('exchange', { ...(await t.services.settings.get('exchange')), enabled: false }, null);
    expect((await exchange({})).body).toMatchObject({ code: 409, message: 'The exchange is closed at the moment' });
    await t.services.settings.set(
      'exchange',
      { ...(await t.services.settings.get('exchange')), enabled: true, rabPriceUsdt: '0.25' },
      null,
    );
    const result = await exchange({ quotedPrice: '0.25', amount: '10' });
    // fee 0.05; 9.95 / 0.25 = 39.8 RAB.
    expect(result.body.data).toMatchObject({ toAmount: '39.8000', price: '0.25' });
    await balances.expectChanges({
      'member:USDT:available': '-10.0000',
      'member:RAB:available': '39.8000',
      'platform:fees:USDT': '0.0500',
      'platform:treasury:RAB': '-39.8000',
      'platform:treasury:USDT': '9.9500',
    });
  });

  it('lists the member’s own exchanges newest first, and the log shows both legs and the fee', async () => {
    const list = await call<{ items: { fromAmount: string }[]; total: number }>('GET', '/api/exchange/list?page=1&pageSize=2');
    expect(list.body.data.total).toBe(6);
    expect(list.body.data.items.map((item) => item.fromAmount)).toEqual(['10.0000', '5.0000']);
    const other = await registerMember(t, 'exchange-other@example.com');
    expect((await call<{ total: number }>('GET', '/api/exchange/list', undefined, other)).body.data.total).toBe(0);

    const log = await call<{ items: { type: string; asset: string; amount: string; referenceType: string }[] }>(
      'GET',
      '/api/user/balance_log?pageSize=3',
    );
    expect(log.body.data.items.map((item) => [item.asset, item.type, item.amount])).toEqual([
      ['RAB', 'exchange_in', '39.8000'],
      ['USDT', 'exchange_out', '-10.0000'],
      ['RAB', 'exchange_in', '9.9500'],
    ]);
    const fuel = await call<{ items: { type: string; amount: string }[] }>(
      'GET',
      '/api/user/balance_log?asset=FUEL&type=exchange_fee',
    );
    expect(fuel.body.data.items.map((item) => item.amount)).toEqual(['-0.0166', '-0.0834']);
    expect((await call('GET', '/api/user/balance_log?type=nonsense')).status).toBe(400);
  });

  it('values the assets in USDT with RAB at the operator’s price', async () => {
    const assets = await call<Record<string, unknown>>('GET', '/api/user/assets');
    const usdt = await availableOf(t, accountId, 'USDT');
    const rab = await availableOf(t, accountId, 'RAB');
    expect(assets.body.data).toMatchObject({
      USDT: { available: usdt, held: '0.0000' },
      RAB: { available: rab },
      rabPriceUsdt: '0.25',
    });
    const expected = (BigInt(usdt.replace('.', '')) + (BigInt(rab.replace('.', '')) * 25n) / 100n).toString();
    expect((assets.body.data.cashUsdt as string).replace('.', '')).toBe(expected);
    expect(assets.body.data.totalUsdt).toBe(assets.body.data.cashUsdt);
  });
  it('answers a retry from its first result even after the price changed or the exchange closed; a refusal keeps the key free', async () => {
    const original = await t.services.settings.get('exchange');
    const price = original.rabPriceUsdt;
    const changed = price === '0.4' ? '0.3' : '0.4';
    const key = randomUUID();
    const balances = await trackBalances(t, { member: accountId });
    const first = await exchange({ amount: '20', quotedPrice: price, idempotencyKey: key });
    expect(first.body.code).toBe(200);
    try {
      await t.services.settings.set('exchange', { ...original, rabPriceUsdt: changed }, null);
      expect((await exchange({ amount: '20', quotedPrice: price, idempotencyKey: key })).body.data).toEqual(first.body.data);
      await t.services.settings.set('exchange', { ...original, enabled: false }, null);
      expect((await exchange({ amount: '20', quotedPrice: price, idempotencyKey: key })).body.data).toEqual(first.body.data);

      // Refused (closed, then a stale price): nothing kept, so the same key goes through once the price is right.
      const refusedKey = randomUUID();
      expect((await exchange({ amount: '10', quotedPrice: price, idempotencyKey: refusedKey })).body.code).toBe(409);
      await t.services.settings.set('exchange', { ...original, rabPriceUsdt: changed }, null);
      expect((await exchange({ amount: '10', quotedPrice: price, idempotencyKey: refusedKey })).body.code).toBe(409);
      const usdt = money.parseMoney(await availableOf(t, accountId, 'USDT'));
      const rab = money.parseMoney(await availableOf(t, accountId, 'RAB'));
      expect(await availableOf(t, accountId, 'FUEL')).toBe('0.0000');
      const accepted = await exchange({ amount: '10', quotedPrice: changed, idempotencyKey: refusedKey });
      // Fee 10 × 0.005 = 0.05 USDT (no FUEL left), taken from the 10; (10 − 0.05) / 0.4 = 24.875 RAB.
      expect(changed).toBe('0.4');
      expect(accepted.body).toMatchObject({
        code: 200,
        data: { price: '0.4', fromAmount: '10.0000', toAmount: '24.8750', fee: '0.0500', feeUsdt: '0.0500' },
      });
      expect(await availableOf(t, accountId, 'USDT')).toBe(money.formatMoney(money.subtract(usdt, money.parseMoney('10'))));
      expect(await availableOf(t, accountId, 'RAB')).toBe(money.formatMoney(money.add(rab, money.parseMoney('24.875'))));
      // The first at 0.25 (the price the test before left): fee 0.1, 19.9 / 0.25 = 79.6 RAB; the replays
      // and refusals nothing; then the 10 at 0.4 (24.875 RAB).
      expect(price).toBe('0.25');
      await balances.expectChanges({
        'member:USDT:available': '-30.0000',
        'member:RAB:available': '104.4750',
        'platform:fees:USDT': '0.1500',
        'platform:treasury:RAB': '-104.4750',
        'platform:treasury:USDT': '29.8500',
      });
    } finally {
      await t.services.settings.set('exchange', original, null);
    }
  });
});
