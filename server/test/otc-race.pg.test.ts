import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { money, type OtcListingDetail, type OtcOrderDetail } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { hashToken, newToken } from '../src/lib/tokens.js';
import { trackBalances } from './support/balances.js';
import { listingBody, seedTraders, type Trader } from './support/otc.js';
import { createTestApp, type TestApp } from './support/test-app.js';

// Races on real PostgreSQL connections: many takers at once on one listing.
let t: TestApp;
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let seller: Trader;
let takers: Trader[];

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}
async function call<T>(url: string, token: string, payload: object): Promise<Envelope<T>> {
  const response = await t.app.inject({ method: 'POST', url, headers: { authorization: token, lang: 'EN' }, payload });
  return response.json<Envelope<T>>();
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  const db = t.testDatabase.database.db;
  seller = (await seedTraders(db, t.services.ledger, 'race-seller', 1, '100000'))[0]!;
  takers = await seedTraders(db, t.services.ledger, 'race-taker', 100, '1000');
}, 120_000);
afterEach(async () => {
  expect(await t.services.otc.console.escrowProblems()).toEqual([]);
  expect((await t.services.ledger.verify()).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
});

describe('100 takers racing for one listing', () => {
  it(
    'take exactly its quantity: each order is escrowed once and the listing never goes below zero',
    { timeout: 120_000 },
    async () => {
      const listing = (
        await call<OtcListingDetail>(
          '/api/otc/post',
          seller.token,
          listingBody(seller, { quantity: '500', minPerOrder: '10', maxPerOrder: '10' }),
        )
      ).data;
      const results = await Promise.all(
        takers.map((taker) =>
          call<OtcOrderDetail>('/api/otc/buy', taker.token, {
            listingId: listing.id,
            amount: '10',
            idempotencyKey: randomUUID(),
          }),
        ),
      );
      const won = results.filter((result) => result.code === 200);
      const lost = results.filter((result) => result.code !== 200);
      expect(won).toHaveLength(50);
      for (const result of lost) expect([409]).toContain(result.code);
      const [row] = await queryRows<{ available: string; fee_remaining: string; open: number; taken: string }>(
        t.testDatabase.database.db,
        sql`select l.available::text as available, l.fee_remaining::text as fee_remaining,
            (select count(*)::int from otc_orders o where o.listing_id = l.id) as open,
            (select coalesce(sum(amount), 0)::text from otc_orders o where o.listing_id = l.id) as taken
          from otc_listings l where l.id = ${listing.id}::uuid`,
      );
      expect(row).toEqual({ available: '0.0000', fee_remaining: '0.0000', open: 50, taken: '500.0000' });
    },
  );

  it('a listing that cannot be split goes to exactly one of 100 takers', { timeout: 120_000 }, async () => {
    const listing = (
      await call<OtcListingDetail>('/api/otc/post', seller.token, listingBody(seller, { quantity: '30', splittable: false }))
    ).data;
    // Another 100 takers (those who won above still hold an open order: the open-order limit allows three).
    const results = await Promise.all(
      takers.map((taker) =>
        call<OtcOrderDetail>('/api/otc/buy', taker.token, { listingId: listing.id, amount: '30', idempotencyKey: randomUUID() }),
      ),
    );
    expect(results.filter((result) => result.code === 200)).toHaveLength(1);
  });

  it('the same request sent 20 times at once makes one order', { timeout: 60_000 }, async () => {
    const listing = (await call<OtcListingDetail>('/api/otc/post', seller.token, listingBody(seller, { quantity: '100' }))).data;
    const taker = takers[99]!;
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call<OtcOrderDetail>('/api/otc/buy', taker.token, { listingId: listing.id, amount: '15', idempotencyKey: key }),
      ),
    );
    expect(results.every((result) => result.code === 200)).toBe(true);
    expect(new Set(results.map((result) => result.data.id)).size).toBe(1);
  });

  it('timers run on several instances at once cancel each due order exactly once', { timeout: 120_000 }, async () => {
    const listing = (
      await call<OtcListingDetail>(
        '/api/otc/post',
        seller.token,
        listingBody(seller, { quantity: '300', minPerOrder: '10', maxPerOrder: '10', paymentWindowMinutes: 10 }),
      )
    ).data;
    const orders = await Promise.all(
      takers.slice(50, 70).map((taker) =>
        call<OtcOrderDetail>('/api/otc/buy', taker.token, {
          listingId: listing.id,
          amount: '10',
          idempotencyKey: randomUUID(),
        }),
      ),
    );
    expect(orders.every((order) => order.code === 200)).toBe(true);
    nowMs += 11 * 60_000;
    // Five instances' timers at once, each also racing the buyers' late "I have paid".
    const runs = await Promise.all([
      ...Array.from({ length: 5 }, () => t.services.otc.timers.runTimers()),
      ...orders
        .slice(0, 5)
        .map((order, index) => call('/api/otc/confirm_pay', takers[50 + index]!.token, { orderId: order.data.id })),
    ]);
    const expired = runs.slice(0, 5).reduce((sum, run) => sum + (run as { expired: number }).expired, 0);
    expect(expired).toBe(20);
    for (const late of runs.slice(5)) expect(late).toMatchObject({ code: 409 });
    const [row] = await queryRows<{ available: string; cancelled: number; steps: number }>(
      t.testDatabase.database.db,
      sql`select l.available::text as available,
            (select count(*)::int from otc_orders o where o.listing_id = l.id and o.cancel_reason = 'payment_timeout') as cancelled,
            (select count(*)::int from otc_steps s where s.listing_id = l.id and s.step = 'cancelled') as steps
          from otc_listings l where l.id = ${listing.id}::uuid`,
    );
    expect(row).toEqual({ available: '300.0000', cancelled: 20, steps: 20 });
  });
});

describe('per-member limits under parallel requests (issue 31, finding 2)', () => {
  it('one taker on 8 listings at once opens exactly maxOpenTakerOrders orders', { timeout: 120_000 }, async () => {
    const db = t.testDatabase.database.db;
    const listers = await seedTraders(db, t.services.ledger, 'race-limit-lister', 8, '1000');
    const [taker] = await seedTraders(db, t.services.ledger, 'race-limit-taker', 1, '1000');
    const listings: OtcListingDetail[] = [];
    for (const lister of listers)
      listings.push((await call<OtcListingDetail>('/api/otc/post', lister.token, listingBody(lister))).data);
    const { maxOpenTakerOrders } = await t.services.otc.console.getSettings();
    expect(maxOpenTakerOrders).toBe(3);
    const balances = await trackBalances(
      t,
      Object.fromEntries(listers.map((lister, index) => [`lister${index}`, lister.accountId])),
    );
    const results = await Promise.all(
      listings.map((listing) =>
        call<OtcOrderDetail>('/api/otc/buy', taker!.token, { listingId: listing.id, amount: '10', idempotencyKey: randomUUID() }),
      ),
    );
    expect(results.filter((result) => result.code === 200)).toHaveLength(3);
    const refused = results.filter((result) => result.code !== 200);
    expect(refused).toHaveLength(5);
    for (const result of refused)
      expect(result).toMatchObject({ code: 409, message: 'You have 3 open orders: finish them before taking another' });
    const [open] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from otc_orders where taker_member_id = ${taker!.memberId}::uuid and state = 'pending_payment'`,
    );
    expect(open!.n).toBe(3);
    // A take moves escrow between the lister's holds: no balance changes anywhere.
    await balances.expectChanges({});
    for (const [index, lister] of listers.entries())
      await call('/api/otc/revoke', lister.token, { listingId: listings[index]!.id });
    for (const result of results.filter((item) => item.code === 200))
      await call('/api/otc/buyer_cancel', taker!.token, { orderId: result.data.id });
  });

  it('main and sub-account posting 8 listings at once post exactly maxOpenListings', { timeout: 120_000 }, async () => {
    const db = t.testDatabase.database.db;
    const [member] = await seedTraders(db, t.services.ledger, 'race-limit-poster', 1, '1000');
    // The member's sub-account with a session of its own and its own USDT.
    const [sub] = await queryRows<{ id: string }>(
      db,
      sql`insert into accounts (member_id, kind, main_account_id, invite_code, nickname)
          values (${member!.memberId}::uuid, 'sub', ${member!.accountId}::uuid, ${`S${randomUUID().replace(/-/g, '').slice(0, 11).toUpperCase()}`}, 'race-sub')
          returning id::text as id`,
    );
    const subToken = newToken();
    await db.execute(
      sql`insert into member_sessions (member_id, account_id, token_hash, idle_expires_at, absolute_expires_at)
          values (${member!.memberId}::uuid, ${sub!.id}::uuid, ${hashToken(subToken)}, now() + interval '1 day', now() + interval '7 days')`,
    );
    await t.services.ledger.transaction((tx) =>
      t.services.ledger.post(tx, {
        idempotencyKey: `otc-race-sub-fund:${sub!.id}`,
        kind: 'adjustment',
        postings: [
          {
            account: { ownerAccountId: sub!.id, asset: 'USDT', purpose: 'available' },
            amount: money.parseMoney('1000'),
            recordType: 'adjustment_credit',
          },
          {
            account: { platformCode: 'adjustments', asset: 'USDT' },
            amount: money.parseMoney('-1000'),
            recordType: 'adjustment_credit',
          },
        ],
      }),
    );
    const { maxOpenListings } = await t.services.otc.console.getSettings();
    expect(maxOpenListings).toBe(5);
    const balances = await trackBalances(t, { main: member!.accountId, sub: sub!.id });
    // Buy listings: each holds only the 50 USDT deposit from the account that posts it.
    const body = () => listingBody(member!, { side: 'buy', paymentMethodIds: [member!.alipayId] });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        call<OtcListingDetail>('/api/otc/post', index % 2 === 0 ? member!.token : subToken, body()),
      ),
    );
    const posted = results.filter((result) => result.code === 200);
    expect(posted).toHaveLength(5);
    for (const result of results.filter((item) => item.code !== 200))
      expect(result).toMatchObject({ code: 409, message: 'You can have at most 5 listings on the market' });
    const changes = await balances.changes();
    const byMain = results.filter((result, index) => result.code === 200 && index % 2 === 0).length;
    const bySub = posted.length - byMain;
    const expected: Record<string, string> = {};
    if (byMain > 0)
      Object.assign(expected, {
        'main:USDT:available': money.formatMoney(money.parseMoney(String(-50 * byMain))),
        'main:USDT:held': money.formatMoney(money.parseMoney(String(50 * byMain))),
      });
    if (bySub > 0)
      Object.assign(expected, {
        'sub:USDT:available': money.formatMoney(money.parseMoney(String(-50 * bySub))),
        'sub:USDT:held': money.formatMoney(money.parseMoney(String(50 * bySub))),
      });
    expect(changes).toEqual(expected);
    for (const [index, result] of results.entries())
      if (result.code === 200)
        await call('/api/otc/revoke', index % 2 === 0 ? member!.token : subToken, { listingId: result.data.id });
  });
});
