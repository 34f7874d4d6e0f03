// What the OTC tests left unchecked, found by mutation testing (decision 056, docs/mutation/otc.md):
// the record types and keys of the escrow's ledger entries, the listing's and the order's trail
// (step, actor, note), the listing's completed quantity and the listing events its lister receives.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OtcListingDetail, OtcOrderDetail } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import type { OperatorActor } from '../src/modules/otc/otc.service.js';
import { operatorToken } from './support/members.js';
import { listingBody, seedTraders, TRADE_PASSWORD, type Trader } from './support/otc.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let seq = 0;

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function call<T = unknown>(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  const response = await t.app.inject({
    method,
    url,
    headers: { authorization: token, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
  return response.json<Envelope<T>>();
}

async function pair(): Promise<[Trader, Trader]> {
  seq += 1;
  const [maker, taker] = await seedTraders(t.testDatabase.database.db, t.services.ledger, `otc-mutants${seq}`, 2);
  return [maker!, taker!];
}

interface EntryLine {
  key: string;
  kind: string;
  reference: string;
  account: string;
  amount: string;
  recordType: string;
}

/**
 * The ledger's postings of the entries that name one of `references` (a hold's `type:id`), in order,
 * with the test's names for the accounts: what a balance delta cannot show (the record type a
 * member's statement prints, the entry's key that makes a retry harmless).
 */
async function entryLines(names: Record<string, string>, references: string[], keys: string[] = []): Promise<EntryLine[]> {
  const rows = await queryRows<{
    key: string;
    kind: string;
    reference: string;
    owner: string | null;
    platform: string | null;
    purpose: string;
    amount: string;
    record_type: string;
  }>(
    t.testDatabase.database.db,
    sql`select e.idempotency_key as key, e.kind, e.reference_type || ':' || e.reference_id as reference,
          a.owner_account_id::text as owner, a.platform_code as platform, a.purpose, p.amount::text as amount, p.record_type
        from postings p join journal_entries e on e.id = p.entry_id join ledger_accounts a on a.id = p.ledger_account_id
        where e.reference_type || ':' || e.reference_id = any(${`{${references.join(',')}}`}::text[])
           or e.idempotency_key = any(${`{${keys.join(',')}}`}::text[])
        order by p.id`,
  );
  const label = new Map(Object.entries(names).map(([name, id]) => [id, name]));
  return rows.map((row) => ({
    key: row.key.startsWith('hold-settle:') ? 'hold-settle' : row.key.startsWith('hold:') ? 'hold' : row.key,
    kind: row.kind,
    reference: row.reference,
    account: row.platform !== null ? `platform:${row.platform}` : `${label.get(row.owner!) ?? row.owner}:${row.purpose}`,
    amount: row.amount,
    recordType: row.record_type,
  }));
}

/** The `otc.listing` events the lister received for one listing, oldest first. */
async function listingEvents(member: Trader, listingId: string) {
  const rows = await queryRows<{ payload: Record<string, unknown> }>(
    t.testDatabase.database.db,
    sql`select payload from member_events where member_id = ${member.memberId}::uuid and kind = 'otc.listing'
          and payload->>'listingId' = ${listingId} order by id`,
  );
  return rows.map((row) => ({ state: row.payload.state, available: row.payload.available }));
}

async function mine(owner: Trader, listingId: string): Promise<OtcListingDetail> {
  return (await call<{ mine: OtcListingDetail }>('GET', `/api/otc/listing_info?id=${listingId}`, owner.token)).data.mine;
}

const trailOf = (trail: { step: string; actor: string; note: string | null }[]) =>
  trail.map(({ step, actor, note }) => ({ step, actor, note }));

beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterEach(async () => {
  expect(await t.services.otc.console.escrowProblems()).toEqual([]);
  expect((await t.services.ledger.verify()).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
});

describe('escrow, as mutation testing found it unchecked', () => {
  it('a sell listing taken whole and released: records, trail, completed quantity and the lister’s events', async () => {
    const [maker, taker] = await pair();
    const names = { maker: maker.accountId, taker: taker.accountId };
    const balances = await trackBalances(t, names);
    const listing = (await call<OtcListingDetail>('POST', '/api/otc/post', maker.token, listingBody(maker))).data;
    const order = (
      await call<OtcOrderDetail>('POST', '/api/otc/buy', taker.token, {
        listingId: listing.id,
        amount: '100',
        idempotencyKey: randomUUID(),
      })
    ).data;
    expect(order.state).toBe('pending_payment');
    await balances.expectChanges({ 'maker:USDT:available': '-150.1000', 'maker:USDT:held': '150.1000' });
    expect((await call('POST', '/api/otc/confirm_pay', taker.token, { orderId: order.id })).code).toBe(200);
    const released = await call<OtcOrderDetail>('POST', '/api/otc/release', maker.token, {
      orderId: order.id,
      tradePassword: TRADE_PASSWORD,
    });
    expect(released.data.state).toBe('completed');
    // The buyer receives the 100, the fee 0.1 goes to the platform, and the listing (nothing left,
    // no open order) ends and gives its 50 deposit back.
    await balances.expectChanges({
      'maker:USDT:held': '-150.1000',
      'maker:USDT:available': '50.0000',
      'taker:USDT:available': '100.0000',
      'platform:fees:USDT': '0.1000',
    });

    expect(await entryLines(names, [`otc_order:${order.id}`, `otc_deposit:${listing.id}`])).toEqual([
      {
        key: 'hold',
        kind: 'hold',
        reference: `otc_deposit:${listing.id}`,
        account: 'maker:available',
        amount: '-50.0000',
        recordType: 'otc_escrow',
      },
      {
        key: 'hold',
        kind: 'hold',
        reference: `otc_deposit:${listing.id}`,
        account: 'maker:held',
        amount: '50.0000',
        recordType: 'otc_escrow',
      },
      {
        key: `otc:take:${order.id}`,
        kind: 'hold_move',
        reference: `otc_order:${order.id}`,
        account: 'maker:held',
        amount: '-100.1000',
        recordType: 'otc_escrow',
      },
      {
        key: `otc:take:${order.id}`,
        kind: 'hold_move',
        reference: `otc_order:${order.id}`,
        account: 'maker:held',
        amount: '100.1000',
        recordType: 'otc_escrow',
      },
      {
        key: 'hold-settle',
        kind: 'hold_capture',
        reference: `otc_order:${order.id}`,
        account: 'maker:held',
        amount: '-100.1000',
        recordType: 'otc_release',
      },
      {
        key: 'hold-settle',
        kind: 'hold_capture',
        reference: `otc_order:${order.id}`,
        account: 'taker:available',
        amount: '100.0000',
        recordType: 'otc_received',
      },
      {
        key: 'hold-settle',
        kind: 'hold_capture',
        reference: `otc_order:${order.id}`,
        account: 'platform:fees',
        amount: '0.1000',
        recordType: 'otc_release',
      },
      {
        key: 'hold-settle',
        kind: 'hold_release',
        reference: `otc_deposit:${listing.id}`,
        account: 'maker:held',
        amount: '-50.0000',
        recordType: 'otc_refund',
      },
      {
        key: 'hold-settle',
        kind: 'hold_release',
        reference: `otc_deposit:${listing.id}`,
        account: 'maker:available',
        amount: '50.0000',
        recordType: 'otc_refund',
      },
    ]);

    const after = await mine(maker, listing.id);
    expect(after).toMatchObject({ state: 'ended', available: '0.0000', completed: '100.0000', depositStatus: 'released' });
    expect(trailOf(after.trail)).toEqual([
      { step: 'posted', actor: 'lister', note: null },
      { step: 'order_opened', actor: 'buyer', note: null },
      { step: 'order_completed', actor: 'seller', note: null },
      { step: 'ended', actor: 'system', note: null },
      { step: 'deposit_released', actor: 'system', note: null },
    ]);
    expect(trailOf(released.data.trail)).toEqual([
      { step: 'created', actor: 'buyer', note: null },
      { step: 'paid', actor: 'buyer', note: null },
      { step: 'released', actor: 'seller', note: null },
    ]);
    expect(await listingEvents(maker, listing.id)).toEqual([
      { state: 'matching', available: '100.0000' },
      { state: 'matching', available: '0.0000' },
      { state: 'ended', available: '0.0000' },
    ]);
  });

  it('a sell listing’s order cancelled, then the listing revoked: the escrow returns under the order’s key', async () => {
    const [maker, taker] = await pair();
    const names = { maker: maker.accountId, taker: taker.accountId };
    const balances = await trackBalances(t, names);
    const listing = (await call<OtcListingDetail>('POST', '/api/otc/post', maker.token, listingBody(maker))).data;
    const order = (
      await call<OtcOrderDetail>('POST', '/api/otc/buy', taker.token, {
        listingId: listing.id,
        amount: '40',
        idempotencyKey: randomUUID(),
      })
    ).data;
    await balances.expectChanges({ 'maker:USDT:available': '-150.1000', 'maker:USDT:held': '150.1000' });
    const cancelled = await call<OtcOrderDetail>('POST', '/api/otc/buyer_cancel', taker.token, { orderId: order.id });
    expect(cancelled.data.state).toBe('cancelled');
    await balances.expectChanges({});
    expect(trailOf(cancelled.data.trail).at(-1)).toEqual({ step: 'cancelled', actor: 'buyer', note: 'buyer_cancelled' });
    expect(await entryLines(names, [], [`otc:return:${order.id}`])).toEqual([
      {
        key: `otc:return:${order.id}`,
        kind: 'hold_move',
        reference: `otc_listing:${listing.id}:0`,
        account: 'maker:held',
        amount: '-40.0400',
        recordType: 'otc_escrow',
      },
      {
        key: `otc:return:${order.id}`,
        kind: 'hold_move',
        reference: `otc_listing:${listing.id}:0`,
        account: 'maker:held',
        amount: '40.0400',
        recordType: 'otc_escrow',
      },
    ]);
    expect(await mine(maker, listing.id)).toMatchObject({ available: '100.0000', escrowHeld: '100.1000', completed: '0.0000' });

    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
    await balances.expectChanges({ 'maker:USDT:available': '150.1000', 'maker:USDT:held': '-150.1000' });
    expect(
      (await entryLines(names, [`otc_listing:${listing.id}:0`, `otc_deposit:${listing.id}`])).filter(
        (line) => line.kind === 'hold_release',
      ),
    ).toEqual([
      {
        key: 'hold-settle',
        kind: 'hold_release',
        reference: `otc_listing:${listing.id}:0`,
        account: 'maker:held',
        amount: '-100.1000',
        recordType: 'otc_refund',
      },
      {
        key: 'hold-settle',
        kind: 'hold_release',
        reference: `otc_listing:${listing.id}:0`,
        account: 'maker:available',
        amount: '100.1000',
        recordType: 'otc_refund',
      },
      {
        key: 'hold-settle',
        kind: 'hold_release',
        reference: `otc_deposit:${listing.id}`,
        account: 'maker:held',
        amount: '-50.0000',
        recordType: 'otc_refund',
      },
      {
        key: 'hold-settle',
        kind: 'hold_release',
        reference: `otc_deposit:${listing.id}`,
        account: 'maker:available',
        amount: '50.0000',
        recordType: 'otc_refund',
      },
    ]);
    const after = await mine(maker, listing.id);
    expect(trailOf(after.trail)).toEqual([
      { step: 'posted', actor: 'lister', note: null },
      { step: 'order_opened', actor: 'buyer', note: null },
      { step: 'order_cancelled', actor: 'buyer', note: null },
      { step: 'revoked', actor: 'lister', note: null },
      { step: 'deposit_released', actor: 'system', note: null },
    ]);
    expect(await listingEvents(maker, listing.id)).toEqual([
      { state: 'matching', available: '100.0000' },
      { state: 'matching', available: '60.0000' },
      { state: 'matching', available: '100.0000' },
      { state: 'cancelled', available: '0.0000' },
    ]);
  });

  it('a buy listing’s order expired by the timer: the seller-taker’s USDT is refunded, the trail names the timeout', async () => {
    const [maker, taker] = await pair();
    const names = { maker: maker.accountId, taker: taker.accountId };
    const balances = await trackBalances(t, names);
    const listing = (
      await call<OtcListingDetail>(
        'POST',
        '/api/otc/post',
        maker.token,
        listingBody(maker, { side: 'buy', quantity: '200', paymentMethodIds: [maker.alipayId], paymentWindowMinutes: 10 }),
      )
    ).data;
    const order = (
      await call<OtcOrderDetail>('POST', '/api/otc/sell', taker.token, {
        listingId: listing.id,
        amount: '100',
        paymentMethodIds: [taker.alipayId],
        tradePassword: TRADE_PASSWORD,
        idempotencyKey: randomUUID(),
      })
    ).data;
    await balances.expectChanges({
      'maker:USDT:available': '-50.0000',
      'maker:USDT:held': '50.0000',
      'taker:USDT:available': '-100.0000',
      'taker:USDT:held': '100.0000',
    });
    nowMs += 10 * 60_000 + 1000;
    expect(await t.services.otc.timers.expire(order.id)).toBe(true);
    await balances.expectChanges({ 'taker:USDT:available': '100.0000', 'taker:USDT:held': '-100.0000' });
    expect((await entryLines(names, [`otc_order:${order.id}`])).filter((line) => line.kind === 'hold_release')).toEqual([
      {
        key: 'hold-settle',
        kind: 'hold_release',
        reference: `otc_order:${order.id}`,
        account: 'taker:held',
        amount: '-100.0000',
        recordType: 'otc_refund',
      },
      {
        key: 'hold-settle',
        kind: 'hold_release',
        reference: `otc_order:${order.id}`,
        account: 'taker:available',
        amount: '100.0000',
        recordType: 'otc_refund',
      },
    ]);
    const detail = (await call<OtcOrderDetail>('GET', `/api/otc/order_info?id=${order.id}`, maker.token)).data;
    expect(trailOf(detail.trail)).toEqual([
      { step: 'created', actor: 'seller', note: null },
      { step: 'cancelled', actor: 'system', note: 'payment_timeout' },
    ]);
    const after = await mine(maker, listing.id);
    expect(after).toMatchObject({ state: 'matching', available: '200.0000', depositStatus: 'held' });
    expect(trailOf(after.trail).slice(1)).toEqual([
      { step: 'order_opened', actor: 'seller', note: null },
      { step: 'order_cancelled', actor: 'system', note: null },
    ]);
    expect((await listingEvents(maker, listing.id)).at(-1)).toEqual({ state: 'matching', available: '200.0000' });
    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
    await balances.expectChanges({ 'maker:USDT:available': '50.0000', 'maker:USDT:held': '-50.0000' });
  });

  it('a sell listing taken by two orders: the first release leaves it on the market, the last one ends it', async () => {
    const [maker, taker] = await pair();
    const names = { maker: maker.accountId, taker: taker.accountId };
    const balances = await trackBalances(t, names);
    const listing = (await call<OtcListingDetail>('POST', '/api/otc/post', maker.token, listingBody(maker))).data;
    const orders: OtcOrderDetail[] = [];
    for (const amount of ['60', '40']) {
      orders.push(
        (
          await call<OtcOrderDetail>('POST', '/api/otc/buy', taker.token, {
            listingId: listing.id,
            amount,
            idempotencyKey: randomUUID(),
          })
        ).data,
      );
    }
    await balances.expectChanges({ 'maker:USDT:available': '-150.1000', 'maker:USDT:held': '150.1000' });
    const release = (orderId: string) =>
      call<OtcOrderDetail>('POST', '/api/otc/release', maker.token, { orderId, tradePassword: TRADE_PASSWORD });
    expect((await release(orders[0]!.id)).data.state).toBe('completed');
    await balances.expectChanges({
      'maker:USDT:held': '-60.0600',
      'taker:USDT:available': '60.0000',
      'platform:fees:USDT': '0.0600',
    });
    // Nothing left to take, but an order is still open: the listing has not ended and keeps its deposit.
    expect(await mine(maker, listing.id)).toMatchObject({
      state: 'matching',
      available: '0.0000',
      completed: '60.0000',
      openOrders: 1,
      depositStatus: 'held',
    });
    expect((await listingEvents(maker, listing.id)).at(-1)).toEqual({ state: 'matching', available: '0.0000' });
    expect((await release(orders[1]!.id)).data.state).toBe('completed');
    await balances.expectChanges({
      'maker:USDT:held': '-90.0400',
      'maker:USDT:available': '50.0000',
      'taker:USDT:available': '40.0000',
      'platform:fees:USDT': '0.0400',
    });
    expect(await mine(maker, listing.id)).toMatchObject({ state: 'ended', completed: '100.0000', depositStatus: 'released' });
  });

  it('a sell listing taken whole and revoked with the order open: nothing to return, the order still settles', async () => {
    const [maker, taker] = await pair();
    const names = { maker: maker.accountId, taker: taker.accountId };
    const balances = await trackBalances(t, names);
    const listing = (await call<OtcListingDetail>('POST', '/api/otc/post', maker.token, listingBody(maker))).data;
    const order = (
      await call<OtcOrderDetail>('POST', '/api/otc/buy', taker.token, {
        listingId: listing.id,
        amount: '100',
        idempotencyKey: randomUUID(),
      })
    ).data;
    await balances.expectChanges({ 'maker:USDT:available': '-150.1000', 'maker:USDT:held': '150.1000' });
    const revoked = await call<OtcListingDetail>('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
    expect(revoked.data).toMatchObject({ state: 'cancelled', available: '0.0000', depositStatus: 'held' });
    await balances.expectChanges({});
    const cancelled = await call<OtcOrderDetail>('POST', '/api/otc/buyer_cancel', taker.token, { orderId: order.id });
    expect(cancelled.data.state).toBe('cancelled');
    // The listing is off the market: the order's escrow and then the deposit go back to the maker.
    await balances.expectChanges({ 'maker:USDT:available': '150.1000', 'maker:USDT:held': '-150.1000' });
    expect(await mine(maker, listing.id)).toMatchObject({ state: 'cancelled', available: '0.0000', depositStatus: 'released' });
  });

  it('a buy listing revoked with an order open, then the order cancelled: the listing takes nothing back', async () => {
    const [maker, taker] = await pair();
    const names = { maker: maker.accountId, taker: taker.accountId };
    const balances = await trackBalances(t, names);
    const listing = (
      await call<OtcListingDetail>(
        'POST',
        '/api/otc/post',
        maker.token,
        listingBody(maker, { side: 'buy', quantity: '200', paymentMethodIds: [maker.alipayId] }),
      )
    ).data;
    const order = (
      await call<OtcOrderDetail>('POST', '/api/otc/sell', taker.token, {
        listingId: listing.id,
        amount: '100',
        paymentMethodIds: [taker.alipayId],
        tradePassword: TRADE_PASSWORD,
        idempotencyKey: randomUUID(),
      })
    ).data;
    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
    await balances.expectChanges({
      'maker:USDT:available': '-50.0000',
      'maker:USDT:held': '50.0000',
      'taker:USDT:available': '-100.0000',
      'taker:USDT:held': '100.0000',
    });
    const cancelled = await call<OtcOrderDetail>('POST', '/api/otc/cancel', taker.token, { orderId: order.id });
    expect(cancelled.data).toMatchObject({ state: 'cancelled', cancelReason: 'seller_cancelled' });
    await balances.expectChanges({
      'taker:USDT:available': '100.0000',
      'taker:USDT:held': '-100.0000',
      'maker:USDT:available': '50.0000',
      'maker:USDT:held': '-50.0000',
    });
    expect(await mine(maker, listing.id)).toMatchObject({ state: 'cancelled', available: '0.0000', depositStatus: 'released' });
  });
});

describe('the timers, as mutation testing found them unchecked', () => {
  async function orderSteps(memberId: string, orderId: string): Promise<string[]> {
    const rows = await queryRows<{ step: string }>(
      t.testDatabase.database.db,
      sql`select payload->>'step' as step from member_events
          where member_id = ${memberId}::uuid and kind = 'otc.order' and payload->>'orderId' = ${orderId} order by id`,
    );
    return rows.map((row) => row.step);
  }
  const cancelsToday = async (trader: Trader) =>
    (await call<{ me: { cancelsToday: number } }>('GET', '/api/otc/info', trader.token)).data.me.cancelsToday;

  it('a run expires what is due and marks what is overdue, once; a payment timeout counts only against a buyer-taker', async () => {
    const [maker, buyer, seller] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'otc-mutants-timers', 3);
    const names = { maker: maker!.accountId, buyer: buyer!.accountId, seller: seller!.accountId };
    const sellListing = (
      await call<OtcListingDetail>('POST', '/api/otc/post', maker!.token, listingBody(maker!, { paymentWindowMinutes: 10 }))
    ).data;
    const buyListing = (
      await call<OtcListingDetail>(
        'POST',
        '/api/otc/post',
        maker!.token,
        listingBody(maker!, { side: 'buy', quantity: '200', paymentMethodIds: [maker!.alipayId], paymentWindowMinutes: 10 }),
      )
    ).data;
    const balances = await trackBalances(t, names);
    const take = (listingId: string, amount: string) =>
      call<OtcOrderDetail>('POST', '/api/otc/buy', buyer!.token, { listingId, amount, idempotencyKey: randomUUID() });
    const unpaid = (await take(sellListing.id, '20')).data;
    const paid = (await take(sellListing.id, '30')).data;
    const sold = (
      await call<OtcOrderDetail>('POST', '/api/otc/sell', seller!.token, {
        listingId: buyListing.id,
        amount: '50',
        paymentMethodIds: [seller!.alipayId],
        tradePassword: TRADE_PASSWORD,
        idempotencyKey: randomUUID(),
      })
    ).data;
    expect((await call('POST', '/api/otc/confirm_pay', buyer!.token, { orderId: paid.id })).code).toBe(200);
    await balances.expectChanges({ 'seller:USDT:available': '-50.0000', 'seller:USDT:held': '50.0000' });
    expect(await t.services.otc.timers.runTimers()).toEqual({ expired: 0, overdue: 0 });

    nowMs += 16 * 60_000;
    expect(await t.services.otc.timers.runTimers()).toEqual({ expired: 2, overdue: 1 });
    // The sell listing's 20.02 goes back to its listing (no balance moves); the seller-taker's 50 is released.
    await balances.expectChanges({ 'seller:USDT:available': '50.0000', 'seller:USDT:held': '-50.0000' });
    expect(await t.services.otc.timers.runTimers()).toEqual({ expired: 0, overdue: 0 });
    expect(await t.services.otc.timers.expire(randomUUID())).toBe(false);
    expect(await t.services.otc.timers.markOverdue(randomUUID())).toBe(false);
    expect(await t.services.otc.timers.markOverdue(paid.id)).toBe(false);
    await balances.expectChanges({});

    expect(await cancelsToday(buyer!)).toBe(1);
    expect(await cancelsToday(seller!)).toBe(0);
    const overdue = (await call<OtcOrderDetail>('GET', `/api/otc/order_info?id=${paid.id}`, buyer!.token)).data;
    expect(overdue.state).toBe('paid');
    expect(trailOf(overdue.trail)).toEqual([
      { step: 'created', actor: 'buyer', note: null },
      { step: 'paid', actor: 'buyer', note: null },
      { step: 'release_overdue', actor: 'system', note: null },
    ]);
    for (const member of [buyer!, maker!]) {
      expect(await orderSteps(member.memberId, paid.id)).toEqual(['created', 'paid', 'release_overdue']);
      expect(await orderSteps(member.memberId, unpaid.id)).toEqual(['created', 'cancelled']);
    }
    expect((await call<OtcOrderDetail>('GET', `/api/otc/order_info?id=${sold.id}`, seller!.token)).data).toMatchObject({
      state: 'cancelled',
      cancelReason: 'payment_timeout',
    });

    expect(
      (await call<OtcOrderDetail>('POST', '/api/otc/release', maker!.token, { orderId: paid.id, tradePassword: TRADE_PASSWORD }))
        .data.state,
    ).toBe('completed');
    await balances.expectChanges({
      'maker:USDT:held': '-30.0300',
      'buyer:USDT:available': '30.0000',
      'platform:fees:USDT': '0.0300',
    });
    for (const listing of [sellListing, buyListing])
      await call('POST', '/api/otc/revoke', maker!.token, { listingId: listing.id });
    await balances.expectChanges({ 'maker:USDT:available': '170.0700', 'maker:USDT:held': '-170.0700' });
  });
});

describe('who may trade, as mutation testing found it unchecked', () => {
  it('nothing is posted or taken while OTC trading is closed, and a suspension names its end', async () => {
    const [maker, taker] = await pair();
    const balances = await trackBalances(t, { maker: maker.accountId, taker: taker.accountId });
    const listing = (await call<OtcListingDetail>('POST', '/api/otc/post', maker.token, listingBody(maker))).data;
    await balances.reset();
    await operatorToken(t, `otc-mutants-op${seq}`, 'support');
    const [operator] = await queryRows<{ id: string }>(
      t.testDatabase.database.db,
      sql`select id::text as id from operators limit 1`,
    );
    const actor = { operatorId: operator!.id, origin: { ip: '127.0.0.1', requestId: 'otc-mutants' } } as OperatorActor;
    const settings = await t.services.otc.console.getSettings();
    await t.services.otc.console.updateSettings(actor, { ...settings, enabled: false });
    try {
      const closed = { code: 409, message: 'OTC trading is closed at the moment' };
      expect(await call('POST', '/api/otc/post', maker.token, listingBody(maker))).toMatchObject(closed);
      expect(
        await call('POST', '/api/otc/buy', taker.token, { listingId: listing.id, amount: '10', idempotencyKey: randomUUID() }),
      ).toMatchObject(closed);
    } finally {
      await t.services.otc.console.updateSettings(actor, settings);
    }
    await balances.expectChanges({});

    const until = new Date(nowMs + 3 * 86_400_000);
    await t.testDatabase.database.db.execute(
      sql`insert into otc_suspensions (member_id, until, reason, created_by) values (${taker.memberId}::uuid, ${until}, 'test', ${operator!.id}::uuid)`,
    );
    const refused = await call('POST', '/api/otc/buy', taker.token, {
      listingId: listing.id,
      amount: '10',
      idempotencyKey: randomUUID(),
    });
    expect(refused.code).toBe(403);
    expect(refused.message).toBe(`Your OTC trading is suspended until ${until.toISOString()}`);
    await balances.expectChanges({});
    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
    await balances.expectChanges({ 'maker:USDT:available': '150.1000', 'maker:USDT:held': '-150.1000' });
  });
});
