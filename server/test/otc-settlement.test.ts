import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOtcOrderDetail, OtcListingDetail, OtcOrderDetail } from '@custos/contract';
import { trackBalances, type BalanceTracker } from './support/balances.js';
import { operatorToken } from './support/members.js';
import { listingBody, seedTraders, TRADE_PASSWORD, type Trader } from './support/otc.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Every way an order ends other than a release, on both sides of the market, with the exact change
 * of every account (issue 31, the audit's blind spot: a buy listing's order was only ever completed,
 * so a cancellation that forgot to give the seller-taker's USDT back passed every test).
 *
 * Amounts: a sell listing of 100 holds 100.1 (maker fee 0.1 %) and a 50 deposit; an order of 40 from
 * it escrows 40.04. A buy listing holds only the 50 deposit; selling 100 into it holds the taker's 100,
 * and the buyer-maker receives 99.9 on release (fee 0.1 to the platform).
 */

let t: TestApp;
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let arbiter: string;
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
async function rule(orderId: string, body: object) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/otc/orders/${orderId}/rule`,
    headers: { authorization: `Bearer ${arbiter}`, lang: 'EN' },
    payload: body,
  });
  return response.json<Envelope<AdminOtcOrderDetail>>();
}

interface Scene {
  maker: Trader;
  taker: Trader;
  listing: OtcListingDetail;
  order: OtcOrderDetail;
  balances: BalanceTracker;
}

async function pair(): Promise<[Trader, Trader]> {
  seq += 1;
  const [maker, taker] = await seedTraders(t.testDatabase.database.db, t.services.ledger, `otc-settle${seq}`, 2);
  return [maker!, taker!];
}

/** A sell listing of 100 and a buyer-taker's order of 40 on it, balances tracked from before the post. */
async function sellListingOrder(): Promise<Scene> {
  const [maker, taker] = await pair();
  const balances = await trackBalances(t, { maker: maker.accountId, taker: taker.accountId });
  const listing = (
    await call<OtcListingDetail>('POST', '/api/otc/post', maker.token, listingBody(maker, { paymentWindowMinutes: 10 }))
  ).data;
  const order = (
    await call<OtcOrderDetail>('POST', '/api/otc/buy', taker.token, {
      listingId: listing.id,
      amount: '40',
      idempotencyKey: randomUUID(),
    })
  ).data;
  expect(order.state).toBe('pending_payment');
  await balances.expectChanges({ 'maker:USDT:available': '-150.1000', 'maker:USDT:held': '150.1000' });
  return { maker, taker, listing, order, balances };
}

/** A buy listing of 200 and a seller-taker's order of 100 on it, balances tracked from before the post. */
async function buyListingOrder(): Promise<Scene> {
  const [maker, taker] = await pair();
  const balances = await trackBalances(t, { maker: maker.accountId, taker: taker.accountId });
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
  expect(order.state).toBe('pending_payment');
  await balances.expectChanges({
    'maker:USDT:available': '-50.0000',
    'maker:USDT:held': '50.0000',
    'taker:USDT:available': '-100.0000',
    'taker:USDT:held': '100.0000',
  });
  return { maker, taker, listing, order, balances };
}

/** The buyer marks paid, the release window passes, the buyer appeals. */
async function appealed(buyer: Trader, orderId: string): Promise<void> {
  expect((await call('POST', '/api/otc/confirm_pay', buyer.token, { orderId })).code).toBe(200);
  nowMs += 16 * 60_000;
  const appeal = await call('POST', '/api/otc/appeal', buyer.token, {
    orderId,
    reason: 'paid_not_released',
    description: 'I paid',
    imageIds: [],
  });
  expect(appeal.code).toBe(200);
}

async function available(owner: Trader, listingId: string): Promise<string> {
  return (await call<{ mine: OtcListingDetail }>('GET', `/api/otc/listing_info?id=${listingId}`, owner.token)).data.mine
    .available;
}

/** The listing was taken off the market (its deposit was forfeited): cancelled, nothing left, not takeable. */
async function expectOffMarket(maker: Trader, taker: Trader, listingId: string): Promise<void> {
  const mine = (await call<{ mine: OtcListingDetail }>('GET', `/api/otc/listing_info?id=${listingId}`, maker.token)).data.mine;
  expect(mine).toMatchObject({ state: 'cancelled', available: '0.0000', escrowHeld: '0.0000', depositStatus: 'forfeited' });
  expect(mine.trail.at(-1)).toMatchObject({ step: 'revoked', actor: 'operator' });
  expect((await call('GET', `/api/otc/listing_info?id=${listingId}`, taker.token)).code).toBe(404);
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  arbiter = await operatorToken(t, 'otc-settle-arbiter', 'support');
});
afterEach(async () => {
  expect(await t.services.otc.console.escrowProblems()).toEqual([]);
  expect((await t.services.ledger.verify()).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
});

describe('an order on a buy listing (the taker sells and holds the USDT)', () => {
  it('cancelled by the seller-taker: the taker’s 100 USDT is released, the listing takes 100 again', async () => {
    const { maker, taker, listing, order, balances } = await buyListingOrder();
    const cancelled = await call<OtcOrderDetail>('POST', '/api/otc/cancel', taker.token, { orderId: order.id });
    expect(cancelled.data).toMatchObject({ state: 'cancelled', cancelReason: 'seller_cancelled' });
    await balances.expectChanges({ 'taker:USDT:available': '100.0000', 'taker:USDT:held': '-100.0000' });
    expect(await available(maker, listing.id)).toBe('200.0000');
    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
    await balances.expectChanges({ 'maker:USDT:available': '50.0000', 'maker:USDT:held': '-50.0000' });
  });

  it('cancelled by the buyer-maker: the same release to the taker', async () => {
    const { maker, listing, order, balances } = await buyListingOrder();
    const cancelled = await call<OtcOrderDetail>('POST', '/api/otc/buyer_cancel', maker.token, { orderId: order.id });
    expect(cancelled.data).toMatchObject({ state: 'cancelled', cancelReason: 'buyer_cancelled' });
    await balances.expectChanges({ 'taker:USDT:available': '100.0000', 'taker:USDT:held': '-100.0000' });
    expect(await available(maker, listing.id)).toBe('200.0000');
    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
  });

  it('expired by the payment timer: the taker’s USDT is released', async () => {
    const { maker, listing, order, balances } = await buyListingOrder();
    nowMs += 10 * 60_000 + 1000;
    expect(await t.services.otc.timers.expire(order.id)).toBe(true);
    expect((await call<OtcOrderDetail>('GET', `/api/otc/order_info?id=${order.id}`, maker.token)).data).toMatchObject({
      state: 'cancelled',
      cancelReason: 'payment_timeout',
    });
    await balances.expectChanges({ 'taker:USDT:available': '100.0000', 'taker:USDT:held': '-100.0000' });
    // A second run finds nothing due and moves nothing.
    expect(await t.services.otc.timers.expire(order.id)).toBe(false);
    await balances.expectChanges({});
    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
  });

  it('ruled against the buyer-maker, deposit forfeited: the taker gets the USDT back, the deposit goes to fees', async () => {
    const { maker, taker, listing, order, balances } = await buyListingOrder();
    await appealed(maker, order.id);
    await balances.expectChanges({});
    const ruled = await rule(order.id, { ruling: 'return_to_seller', note: 'No payment shown', forfeitDeposit: true });
    expect(ruled.data).toMatchObject({ state: 'cancelled', cancelReason: 'ruling', listingDepositStatus: 'forfeited' });
    await balances.expectChanges({
      'taker:USDT:available': '100.0000',
      'taker:USDT:held': '-100.0000',
      'maker:USDT:held': '-50.0000',
      'platform:fees:USDT': '50.0000',
    });
    await expectOffMarket(maker, taker, listing.id);
  });

  it('ruled against the seller-taker: the buyer-maker receives 99.9, the fee 0.1 goes to the platform', async () => {
    const { maker, listing, order, balances } = await buyListingOrder();
    await appealed(maker, order.id);
    const ruled = await rule(order.id, { ruling: 'release_to_buyer', note: 'Payment shown' });
    expect(ruled.data.state).toBe('completed');
    await balances.expectChanges({
      'taker:USDT:held': '-100.0000',
      'maker:USDT:available': '99.9000',
      'platform:fees:USDT': '0.1000',
    });
    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
    await balances.expectChanges({ 'maker:USDT:available': '50.0000', 'maker:USDT:held': '-50.0000' });
  });
});

describe('an order on a sell listing (the maker’s escrow moves between holds)', () => {
  it('cancelled by the buyer-taker: the escrow returns to the listing, no balance moves', async () => {
    const { maker, taker, listing, order, balances } = await sellListingOrder();
    const cancelled = await call<OtcOrderDetail>('POST', '/api/otc/buyer_cancel', taker.token, { orderId: order.id });
    expect(cancelled.data.state).toBe('cancelled');
    await balances.expectChanges({});
    expect(await available(maker, listing.id)).toBe('100.0000');
    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
    await balances.expectChanges({ 'maker:USDT:available': '150.1000', 'maker:USDT:held': '-150.1000' });
  });

  it('expired after the listing was revoked: the order’s 40.04 and the deposit return to the maker', async () => {
    const { maker, listing, order, balances } = await sellListingOrder();
    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
    await balances.expectChanges({ 'maker:USDT:available': '60.0600', 'maker:USDT:held': '-60.0600' });
    nowMs += 10 * 60_000 + 1000;
    expect(await t.services.otc.timers.expire(order.id)).toBe(true);
    await balances.expectChanges({ 'maker:USDT:available': '90.0400', 'maker:USDT:held': '-90.0400' });
  });

  it('ruled against the seller-maker, deposit forfeited: the buyer receives 40, fees get 0.04 and the deposit', async () => {
    const { maker, taker, listing, order, balances } = await sellListingOrder();
    await appealed(taker, order.id);
    const ruled = await rule(order.id, { ruling: 'release_to_buyer', note: 'Payment shown', forfeitDeposit: true });
    expect(ruled.data).toMatchObject({ state: 'completed', listingDepositStatus: 'forfeited' });
    // A lister whose deposit was forfeited is off the market with that listing: the rest of its escrow
    // (60 + the unused fee 0.06) returns to the maker in the same ruling.
    await balances.expectChanges({
      'maker:USDT:held': '-150.1000',
      'maker:USDT:available': '60.0600',
      'taker:USDT:available': '40.0000',
      'platform:fees:USDT': '50.0400',
    });
    await expectOffMarket(maker, taker, listing.id);
  });

  it('ruled against the buyer-taker: the escrow returns to the listing on the market', async () => {
    const { maker, taker, listing, order, balances } = await sellListingOrder();
    await appealed(taker, order.id);
    const ruled = await rule(order.id, { ruling: 'return_to_seller', note: 'No payment shown' });
    expect(ruled.data).toMatchObject({ state: 'cancelled', cancelReason: 'ruling' });
    await balances.expectChanges({});
    expect(await available(maker, listing.id)).toBe('100.0000');
    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
    await balances.expectChanges({ 'maker:USDT:available': '150.1000', 'maker:USDT:held': '-150.1000' });
  });
});
