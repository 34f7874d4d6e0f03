import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOtcOrderDetail, OtcChatHistory, OtcInfo, OtcListingDetail, OtcOrderDetail } from '@custos/contract';
import { DEFAULT_PLATFORM_TIME_ZONE } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { platformDay } from '../src/modules/otc/otc.service.js';
import { trackBalances } from './support/balances.js';
import { availableOf } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { listingBody, seedTraders, TINY_PNG, TRADE_PASSWORD, type Trader } from './support/otc.js';
import { openStream, type SseStream } from './support/sse.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let traders: Trader[];
let arbiter: string;
let finance: string;
let baseUrl: string;
const opened: SseStream[] = [];

type Method = 'GET' | 'POST' | 'PUT';
interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function call<T = unknown>(
  method: Method,
  url: string,
  token: string,
  payload?: object,
  lang = 'EN',
): Promise<Envelope<T>> {
  const response = await t.app.inject({ method, url, headers: { authorization: token, lang }, ...(payload ? { payload } : {}) });
  return response.json<Envelope<T>>();
}
async function consoleCall<T = unknown>(method: Method, url: string, token: string, payload?: object): Promise<Envelope<T>> {
  const response = await t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
  return response.json<Envelope<T>>();
}

function balances(trader: Trader) {
  return t.services.ledger.balancesOf([trader.accountId]).then((map) => ({
    available: map.get(`${trader.accountId}:USDT:available`)?.toString() ?? '0',
    held: map.get(`${trader.accountId}:USDT:held`)?.toString() ?? '0',
  }));
}
async function held(trader: Trader): Promise<string> {
  const map = await t.services.ledger.balancesOf([trader.accountId]);
  const units = map.get(`${trader.accountId}:USDT:held`) ?? 0n;
  return (Number(units) / 10_000).toFixed(4);
}
async function feesBalance(): Promise<string> {
  const [row] = await queryRows<{ balance: string }>(
    t.testDatabase.database.db,
    sql`select balance::text as balance from ledger_accounts where platform_code = 'fees' and asset = 'USDT'`,
  );
  return row!.balance;
}

async function post(trader: Trader, overrides: Record<string, unknown> = {}) {
  return call<OtcListingDetail>('POST', '/api/otc/post', trader.token, listingBody(trader, overrides));
}
async function buy(trader: Trader, listingId: string, amount: string, key = randomUUID()) {
  return call<OtcOrderDetail>('POST', '/api/otc/buy', trader.token, { listingId, amount, idempotencyKey: key });
}
async function orderInfo(trader: Trader, orderId: string) {
  return call<OtcOrderDetail>('GET', `/api/otc/order_info?id=${orderId}`, trader.token);
}
async function otcUpload(trader: Trader, purpose = 'otc'): Promise<string> {
  const response = await call<{ id: string }>('POST', '/api/upload/image', trader.token, {
    purpose,
    contentBase64: TINY_PNG.toString('base64'),
  });
  expect(response.code).toBe(200);
  return response.data.id;
}
async function memberEventKinds(memberId: string): Promise<string[]> {
  const rows = await queryRows<{ kind: string; step: string | null }>(
    t.testDatabase.database.db,
    sql`select kind, payload->>'step' as step from member_events where member_id = ${memberId}::uuid order by id`,
  );
  return rows.map((row) => (row.step ? `${row.kind}:${row.step}` : row.kind));
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  traders = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'otc', 20);
  arbiter = await operatorToken(t, 'otc-arbiter', 'support');
  finance = await operatorToken(t, 'otc-finance', 'finance');
});
afterEach(async () => {
  // Escrow equals what listings and open orders hold, and the ledger's invariants hold, after every test.
  expect(await t.services.otc.console.escrowProblems()).toEqual([]);
  expect((await t.services.ledger.verify()).problems).toEqual([]);
});
afterAll(async () => {
  for (const stream of opened) stream.close();
  await t.close();
});

describe('who may trade', () => {
  it('refuses a member without an approved real-name check, holding nothing', async () => {
    const token = await registerMember(t, 'otc-unverified@example.com');
    const info = await call<OtcInfo>('GET', '/api/otc/info', token);
    expect(info.data.me.realNameApproved).toBe(false);
    expect(info.data.guidePrice).toBe('7.2000');
    expect(info.data).toMatchObject({ priceMin: '6.8400', priceMax: '7.5600' });
    const refused = await call('POST', '/api/otc/post', token, {
      ...listingBody(traders[0]!),
      paymentMethodIds: [randomUUID()],
    });
    expect(refused).toMatchObject({ code: 403, message: 'Please complete real-name verification before trading OTC' });
  });

  it('answers the market to anyone logged in, and nothing without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/otc/all_sell_list' });
    expect(response.json()).toMatchObject({ code: 401 });
  });
});

describe('posting a listing', () => {
  it('holds quantity + maker fee and the deposit at once, and shows it on the market', async () => {
    const [seller, viewer] = [traders[0]!, traders[1]!];
    const before = await balances(seller);
    const posted = await post(seller, { quantity: '100', price: '7.2' });
    expect(posted.code).toBe(200);
    expect(posted.data).toMatchObject({
      state: 'matching',
      available: '100.0000',
      escrowHeld: '100.1000',
      deposit: '50.0000',
      depositStatus: 'held',
      paymentTypes: ['bank'],
    });
    expect(posted.data.trail.map((step) => step.step)).toEqual(['posted']);
    const after = await balances(seller);
    expect(BigInt(before.available) - BigInt(after.available)).toBe(1_501_000n); // 100.1 + 50
    expect(await held(seller)).toBe('150.1000');

    const market = await call<{ items: { id: string; mine: boolean; maxPerOrder: string }[] }>(
      'GET',
      '/api/otc/all_sell_list?side=sell&amount=50&paymentType=bank',
      viewer.token,
    );
    expect(market.data.items.find((item) => item.id === posted.data.id)).toMatchObject({ mine: false, maxPerOrder: '100.0000' });
    const alipayOnly = await call<{ items: { id: string }[] }>(
      'GET',
      '/api/otc/all_sell_list?side=sell&paymentType=alipay',
      viewer.token,
    );
    expect(alipayOnly.data.items.some((item) => item.id === posted.data.id)).toBe(false);
    const tooMuch = await call<{ items: { id: string }[] }>('GET', '/api/otc/all_sell_list?side=sell&amount=150', viewer.token);
    expect(tooMuch.data.items.some((item) => item.id === posted.data.id)).toBe(false);

    // A retry with the same key answers the same listing and holds nothing more.
    const body = listingBody(seller, { quantity: '20' });
    const first = await call<OtcListingDetail>('POST', '/api/otc/post', seller.token, body);
    const again = await call<OtcListingDetail>('POST', '/api/otc/post', seller.token, body);
    expect(again.data.id).toBe(first.data.id);
    const changed = await call('POST', '/api/otc/post', seller.token, { ...body, quantity: '21' });
    expect(changed.code).toBe(409);
    await call('POST', '/api/otc/revoke', seller.token, { listingId: first.data.id });
    await call('POST', '/api/otc/revoke', seller.token, { listingId: posted.data.id });
  });

  it('refuses bad input with a clear, localised message and holds nothing', async () => {
    const seller = traders[2]!;
    const before = await balances(seller);
    expect(await post(seller, { price: '9' })).toMatchObject({
      code: 400,
      message: 'The price must be between 6.8400 and 7.5600',
    });
    const chinese = await call('POST', '/api/otc/post', seller.token, listingBody(seller, { price: '9' }), 'CN');
    expect(chinese.message).toBe('价格须在 6.8400 至 7.5600 之间');
    expect((await post(seller, { quantity: '1.00001' })).code).toBe(400);
    expect((await post(seller, { minPerOrder: '50', maxPerOrder: '20' })).code).toBe(400);
    expect(await post(seller, { minPerOrder: '5' })).toMatchObject({
      code: 400,
      message: 'Per-order limits must be between 10.0000 and 50000.0000 USDT',
    });
    expect(await post(seller, { quantity: '20', minPerOrder: '30', maxPerOrder: '40' })).toMatchObject({
      message: 'The minimum per order cannot exceed the quantity',
    });
    expect(await post(seller, { paymentWindowMinutes: 3 })).toMatchObject({
      code: 400,
      message: 'The payment time limit must be between 10 and 60 minutes',
    });
    // Another member's payment method.
    expect(await post(seller, { paymentMethodIds: [traders[3]!.bankId] })).toMatchObject({
      code: 400,
      message: 'Choose your own bank card, WeChat or Alipay payment method',
    });
    expect(await post(seller, { quantity: '1000000' })).toMatchObject({ code: 400 });
    expect(await post(seller, { quantity: '100000', price: '7.2' })).toMatchObject({
      code: 409,
      message: 'Insufficient USDT balance',
    });
    expect(await balances(seller)).toEqual(before);
  });
});

describe('an order from take to release', () => {
  it('moves escrow to the order, shows payment details only to the buyer, and releases less nothing to the buyer', async () => {
    const [seller, buyer, stranger] = [traders[3]!, traders[4]!, traders[5]!];
    const listing = (await post(seller, { quantity: '100' })).data;
    const feesBefore = await feesBalance();
    const buyerBefore = await availableOf(t, buyer.accountId, 'USDT');

    // Refusals first: own listing, outside the limits, more than 4 places.
    expect(await buy(seller, listing.id, '20')).toMatchObject({ code: 409, message: 'You cannot take your own listing' });
    expect(await buy(buyer, listing.id, '5')).toMatchObject({ code: 400, message: 'The amount must be at least 10.0000 USDT' });
    expect(await buy(buyer, listing.id, '150')).toMatchObject({
      code: 409,
      message: 'Only 100.0000 USDT of this listing is left',
    });
    expect((await buy(buyer, listing.id, '20.00001')).code).toBe(400);

    const taken = await buy(buyer, listing.id, '40');
    expect(taken.code).toBe(200);
    const order = taken.data;
    expect(order).toMatchObject({
      state: 'pending_payment',
      myRole: 'buyer',
      iAmMaker: false,
      amount: '40.0000',
      fee: '0.0400',
      fiatAmount: '288.00',
      buyerReceives: '40.0000',
      actions: { confirmPay: true, buyerCancel: true, release: false },
    });
    expect(order.paymentMethods[0]).toMatchObject({ type: 'bank', cardNumber: '6222000000000003' });
    const sellerView = await orderInfo(seller, order.id);
    expect(sellerView.data).toMatchObject({ myRole: 'seller', iAmMaker: true, paymentMethods: [] });
    expect(sellerView.data.actions).toMatchObject({ release: true, sellerCancel: true, confirmPay: false });

    // Member C can neither read nor act on the order, its chat or the listing's detail.
    expect((await orderInfo(stranger, order.id)).code).toBe(404);
    expect((await call('POST', '/api/otc/confirm_pay', stranger.token, { orderId: order.id })).code).toBe(404);
    expect((await call('POST', '/api/otc/cancel', stranger.token, { orderId: order.id })).code).toBe(404);
    expect((await call('GET', `/api/otc/chat_messages?id=${order.id}`, stranger.token)).code).toBe(404);
    expect((await call('POST', '/api/otc/chat_send', stranger.token, { orderId: order.id, text: 'hi' })).code).toBe(404);
    expect((await call('POST', '/api/otc/revoke', stranger.token, { listingId: listing.id })).code).toBe(404);
    const strangerListing = await call<{ mine: unknown }>('GET', `/api/otc/listing_info?id=${listing.id}`, stranger.token);
    expect(strangerListing.data.mine).toBeNull();
    // A buyer cannot release, a seller cannot confirm payment.
    expect((await call('POST', '/api/otc/release', buyer.token, { orderId: order.id, tradePassword: TRADE_PASSWORD })).code).toBe(
      403,
    );
    expect((await call('POST', '/api/otc/confirm_pay', seller.token, { orderId: order.id })).code).toBe(403);

    const afterTake = (await call<{ mine: OtcListingDetail }>('GET', `/api/otc/listing_info?id=${listing.id}`, seller.token))
      .data;
    expect(afterTake.mine).toMatchObject({ available: '60.0000', inOrders: '40.0000', escrowHeld: '60.0600', openOrders: 1 });

    // Chat between the two, kept for a ruling.
    const sent = await call<{ id: string; sender: string; mine: boolean }>('POST', '/api/otc/chat_send', buyer.token, {
      orderId: order.id,
      text: 'Paying now',
    });
    expect(sent.data).toMatchObject({ sender: 'buyer', mine: true });
    const image = await otcUpload(seller, 'chat');
    expect((await call('POST', '/api/otc/chat_send', seller.token, { orderId: order.id, imageId: image })).code).toBe(200);
    const history = await call<OtcChatHistory>('GET', `/api/otc/chat_messages?id=${order.id}`, seller.token);
    expect(history.data.items.map((item) => [item.sender, item.mine, item.text])).toEqual([
      ['buyer', false, 'Paying now'],
      ['seller', true, null],
    ]);
    await call('POST', '/api/otc/chat_read', seller.token, { orderId: order.id, upTo: sent.data.id });
    // The seller's ticks move live when the buyer reads the image, once: reading it again is no news.
    const imageId = history.data.items[1]!.id;
    await call('POST', '/api/otc/chat_read', buyer.token, { orderId: order.id, upTo: imageId });
    await call('POST', '/api/otc/chat_read', buyer.token, { orderId: order.id, upTo: imageId });
    const readEvents = await queryRows<{ payload: { orderId: string; readUpTo: string } }>(
      t.testDatabase.database.db,
      sql`select payload from member_events where member_id = ${seller.memberId}::uuid and kind = 'otc.chat_read'`,
    );
    expect(readEvents.map((row) => row.payload)).toEqual([{ orderId: order.id, readUpTo: imageId }]);
    expect(await memberEventKinds(buyer.memberId)).not.toContain('otc.chat_read');
    const buyerHistory = await call<OtcChatHistory>('GET', `/api/otc/chat_messages?id=${order.id}`, buyer.token);
    expect(buyerHistory.data.counterpartyReadUpTo).toBe(sent.data.id);
    const imageResponse = await t.app.inject({
      method: 'GET',
      url: `/api/otc/chat_image?id=${order.id}&messageId=${history.data.items[1]!.id}`,
      headers: { authorization: buyer.token },
    });
    expect(imageResponse.statusCode).toBe(200);

    const paid = await call<OtcOrderDetail>('POST', '/api/otc/confirm_pay', buyer.token, { orderId: order.id });
    expect(paid.data).toMatchObject({ state: 'paid', actions: { confirmPay: false, buyerCancel: false } });
    // Confirming again is a retry; the seller can no longer cancel.
    expect((await call('POST', '/api/otc/confirm_pay', buyer.token, { orderId: order.id })).code).toBe(200);
    expect(await call('POST', '/api/otc/cancel', seller.token, { orderId: order.id })).toMatchObject({
      code: 409,
      message: 'The buyer has marked the order paid: the seller can no longer cancel',
    });
    expect((await call('POST', '/api/otc/buyer_cancel', buyer.token, { orderId: order.id })).code).toBe(409);

    // Releasing needs the trading password: without it or with a wrong one nothing moves.
    expect((await call('POST', '/api/otc/release', seller.token, { orderId: order.id })).code).toBe(400);
    expect(
      await call('POST', '/api/otc/release', seller.token, { orderId: order.id, tradePassword: 'wrong-pass' }),
    ).toMatchObject({
      code: 400,
      message: 'The trading password is wrong',
    });
    expect(await availableOf(t, buyer.accountId, 'USDT')).toBe(buyerBefore);
    const released = await call<OtcOrderDetail>('POST', '/api/otc/release', seller.token, {
      orderId: order.id,
      tradePassword: TRADE_PASSWORD,
    });
    expect(released.data).toMatchObject({ state: 'completed', paymentMethods: [] });
    expect(released.data.trail.map((step) => step.step)).toEqual(['created', 'paid', 'released']);
    expect(Number(await availableOf(t, buyer.accountId, 'USDT')) - Number(buyerBefore)).toBeCloseTo(40, 4);
    expect(Number(await feesBalance()) - Number(feesBefore)).toBeCloseTo(0.04, 4);
    // A release retried answers the completed order; the chat is closed but kept.
    expect(
      (await call('POST', '/api/otc/release', seller.token, { orderId: order.id, tradePassword: TRADE_PASSWORD })).code,
    ).toBe(200);
    expect(await call('POST', '/api/otc/chat_send', buyer.token, { orderId: order.id, text: 'thanks' })).toMatchObject({
      code: 409,
    });

    // Both were told live at every step.
    for (const member of [buyer, seller]) {
      const kinds = await memberEventKinds(member.memberId);
      for (const step of ['created', 'paid', 'released']) expect(kinds).toContain(`otc.order:${step}`);
    }
    expect(await memberEventKinds(seller.memberId)).toContain('otc.chat');

    // The lists: my buy list and my sell list, pending orders.
    const buyList = await call<{ items: { id: string }[] }>('GET', '/api/otc/my_buy_list?state=completed', buyer.token);
    expect(buyList.data.items.map((item) => item.id)).toContain(order.id);
    const sellList = await call<{ items: { id: string }[] }>('GET', '/api/otc/my_sell_list', buyer.token);
    expect(sellList.data.items.map((item) => item.id)).not.toContain(order.id);

    // The rest of the listing goes to a second buyer in full, and the listing ends, its deposit returned.
    const rest = await buy(traders[6]!, listing.id, '60');
    expect(rest.data.fee).toBe('0.0600');
    expect(
      await call('POST', '/api/otc/release', seller.token, { orderId: rest.data.id, tradePassword: TRADE_PASSWORD }),
    ).toMatchObject({ code: 200 });
    const ended = (await call<{ mine: OtcListingDetail }>('GET', `/api/otc/listing_info?id=${listing.id}`, seller.token)).data
      .mine;
    expect(ended).toMatchObject({ state: 'ended', available: '0.0000', completed: '100.0000', depositStatus: 'released' });
    expect(ended.trail.map((step) => step.step)).toEqual([
      'posted',
      'order_opened',
      'order_completed',
      'order_opened',
      'order_completed',
      'ended',
      'deposit_released',
    ]);
    const reputation = await call<OtcInfo>('GET', '/api/otc/info', buyer.token);
    expect(reputation.data.me.reputation.completedOrders30d).toBeGreaterThanOrEqual(1);
  });

  it('takes a non-splittable listing only whole', async () => {
    const [seller, buyer] = [traders[7]!, traders[8]!];
    const listing = (await post(seller, { quantity: '50', splittable: false, minPerOrder: '10', maxPerOrder: '20' })).data;
    expect(listing).toMatchObject({ minPerOrder: '50.0000', maxPerOrder: '50.0000' });
    expect(await buy(buyer, listing.id, '20')).toMatchObject({
      code: 400,
      message: 'This listing cannot be split: take all 50.0000 USDT',
    });
    const whole = await buy(buyer, listing.id, '50');
    expect(whole.data).toMatchObject({ amount: '50.0000', fee: '0.0500' });
    await call('POST', '/api/otc/buyer_cancel', buyer.token, { orderId: whole.data.id });
    await call('POST', '/api/otc/revoke', seller.token, { listingId: listing.id });
  });
});

describe('a buy listing', () => {
  it('holds the taker-seller’s USDT, pays the buyer-maker less the fee', async () => {
    const [maker, taker] = [traders[9]!, traders[10]!];
    const listing = (await post(maker, { side: 'buy', quantity: '200', paymentMethodIds: [maker.alipayId] })).data;
    expect(listing).toMatchObject({ escrowHeld: '0.0000', paymentTypes: ['alipay'] });
    expect(await held(maker)).toBe('50.0000'); // the deposit only
    // The taker names their own methods of a type the listing accepts.
    const wrongType = await call('POST', '/api/otc/sell', taker.token, {
      listingId: listing.id,
      amount: '100',
      paymentMethodIds: [taker.bankId],
      tradePassword: TRADE_PASSWORD,
      idempotencyKey: randomUUID(),
    });
    expect(wrongType).toMatchObject({ code: 400, message: 'This listing does not accept that payment method' });
    const notMine = await call('POST', '/api/otc/sell', taker.token, {
      listingId: listing.id,
      amount: '100',
      paymentMethodIds: [maker.alipayId],
      tradePassword: TRADE_PASSWORD,
      idempotencyKey: randomUUID(),
    });
    expect(notMine.code).toBe(400);
    const takerBefore = await balances(taker);
    const sold = await call<OtcOrderDetail>('POST', '/api/otc/sell', taker.token, {
      listingId: listing.id,
      amount: '100',
      paymentMethodIds: [taker.alipayId],
      tradePassword: TRADE_PASSWORD,
      idempotencyKey: randomUUID(),
    });
    expect(sold.data).toMatchObject({
      myRole: 'seller',
      iAmMaker: false,
      fee: '0.1000',
      buyerReceives: '99.9000',
      paymentMethods: [],
    });
    expect(BigInt(takerBefore.available) - BigInt((await balances(taker)).available)).toBe(1_000_000n);
    const makerView = await orderInfo(maker, sold.data.id);
    expect(makerView.data.paymentMethods[0]).toMatchObject({ type: 'alipay', account: 'otc10@alipay.example' });
    const makerBefore = await availableOf(t, maker.accountId, 'USDT');
    await call('POST', '/api/otc/confirm_pay', maker.token, { orderId: sold.data.id });
    const released = await call<OtcOrderDetail>('POST', '/api/otc/release', taker.token, {
      orderId: sold.data.id,
      tradePassword: TRADE_PASSWORD,
    });
    expect(released.data.state).toBe('completed');
    expect(Number(await availableOf(t, maker.accountId, 'USDT')) - Number(makerBefore)).toBeCloseTo(99.9, 4);
    await call('POST', '/api/otc/revoke', maker.token, { listingId: listing.id });
    expect(await held(maker)).toBe('0.0000');
  });
});

describe('cancellations and timers', () => {
  it('returns escrow to the listing on a buyer cancel and bars a taker who cancels too often', async () => {
    const [seller, buyer] = [traders[11]!, traders[12]!];
    const listing = (await post(seller, { quantity: '100' })).data;
    const limit = (await t.services.settings.get('otc')).takerDailyCancelLimit;
    for (let index = 0; index < limit; index += 1) {
      const order = (await buy(buyer, listing.id, '10')).data;
      const cancelled = await call<OtcOrderDetail>('POST', '/api/otc/buyer_cancel', buyer.token, { orderId: order.id });
      expect(cancelled.data).toMatchObject({ state: 'cancelled', cancelReason: 'buyer_cancelled' });
      // Cancelling again is a retry.
      expect((await call('POST', '/api/otc/buyer_cancel', buyer.token, { orderId: order.id })).code).toBe(200);
    }
    const mine = (await call<{ mine: OtcListingDetail }>('GET', `/api/otc/listing_info?id=${listing.id}`, seller.token)).data
      .mine;
    expect(mine).toMatchObject({ available: '100.0000', escrowHeld: '100.1000', openOrders: 0 });
    expect(await buy(buyer, listing.id, '10')).toMatchObject({
      code: 403,
      message: `You cancelled ${limit} orders today; you can take orders again tomorrow`,
    });
    const info = await call<OtcInfo>('GET', '/api/otc/info', buyer.token);
    expect(info.data.me.takingBarredUntil).not.toBeNull();
    // The next platform day the member may take again.
    nowMs += 86_400_000;
    const next = await buy(buyer, listing.id, '10');
    expect(next.code).toBe(200);
    // A seller cancels before payment (the listing's lister here): escrow returns to the listing.
    const sellerCancel = await call<OtcOrderDetail>('POST', '/api/otc/cancel', seller.token, { orderId: next.data.id });
    expect(sellerCancel.data).toMatchObject({ state: 'cancelled', cancelReason: 'seller_cancelled' });
    await call('POST', '/api/otc/revoke', seller.token, { listingId: listing.id });
  });

  it('auto-cancels when the payment window passes; marking paid after it is refused', async () => {
    const [seller, buyer] = [traders[13]!, traders[14]!];
    const listing = (await post(seller, { quantity: '100', paymentWindowMinutes: 10 })).data;
    const order = (await buy(buyer, listing.id, '30')).data;
    nowMs += 11 * 60_000;
    expect(await call('POST', '/api/otc/confirm_pay', buyer.token, { orderId: order.id })).toMatchObject({
      code: 409,
      message: 'The payment time limit has passed; the order is cancelled',
    });
    const run = await t.services.otc.timers.runTimers();
    expect(run.expired).toBeGreaterThanOrEqual(1);
    // Running again (or on another instance) changes nothing more.
    expect(await t.services.otc.timers.expire(order.id)).toBe(false);
    const after = await orderInfo(buyer, order.id);
    expect(after.data).toMatchObject({ state: 'cancelled', cancelReason: 'payment_timeout' });
    expect(after.data.trail.at(-1)).toMatchObject({ step: 'cancelled', actor: 'system' });
    const mine = (await call<{ mine: OtcListingDetail }>('GET', `/api/otc/listing_info?id=${listing.id}`, seller.token)).data
      .mine;
    expect(mine.available).toBe('100.0000');
    expect(await memberEventKinds(buyer.memberId)).toContain('otc.order:cancelled');
    await call('POST', '/api/otc/revoke', seller.token, { listingId: listing.id });
  });

  it('a release and an auto-cancel racing on one order: exactly one wins', async () => {
    const [seller, buyer] = [traders[15]!, traders[1]!];
    const listing = (await post(seller, { quantity: '100', paymentWindowMinutes: 10 })).data;
    const order = (await buy(buyer, listing.id, '20')).data;
    nowMs += 10 * 60_000 + 1000;
    const tracked = await trackBalances(t, { seller: seller.accountId, buyer: buyer.accountId });
    const [release, expired] = await Promise.all([
      call<OtcOrderDetail>('POST', '/api/otc/release', seller.token, { orderId: order.id, tradePassword: TRADE_PASSWORD }),
      t.services.otc.timers.expire(order.id),
    ]);
    const final = (await orderInfo(seller, order.id)).data;
    const mine = (await call<{ mine: OtcListingDetail }>('GET', `/api/otc/listing_info?id=${listing.id}`, seller.token)).data
      .mine;
    if (expired) {
      // The timer won: the order's 20.02 went back into the listing's escrow (holds moved, no balance).
      expect(release).toMatchObject({ code: 409, message: 'This order can no longer do that' });
      expect(final).toMatchObject({ state: 'cancelled', cancelReason: 'payment_timeout' });
      expect(mine).toMatchObject({ available: '100.0000', escrowHeld: '100.1000' });
      await tracked.expectChanges({});
    } else {
      // The release won: the buyer has the 20, the maker's fee share 0.02 went to the platform.
      expect(release).toMatchObject({ code: 200, data: { state: 'completed' } });
      expect(final.state).toBe('completed');
      expect(mine).toMatchObject({ available: '80.0000', escrowHeld: '80.0800', completed: '20.0000' });
      await tracked.expectChanges({
        'seller:USDT:held': '-20.0200',
        'buyer:USDT:available': '20.0000',
        'platform:fees:USDT': '0.0200',
      });
    }
    await call('POST', '/api/otc/revoke', seller.token, { listingId: listing.id });
  });

  it('revoking returns what is not in an order; the deposit waits for the open order', async () => {
    const [seller, buyer] = [traders[2]!, traders[5]!];
    const before = await balances(seller);
    const listing = (await post(seller, { quantity: '100' })).data;
    const order = (await buy(buyer, listing.id, '25')).data;
    const revoked = await call<OtcListingDetail>('POST', '/api/otc/revoke', seller.token, { listingId: listing.id });
    expect(revoked.data).toMatchObject({ state: 'cancelled', available: '0.0000', escrowHeld: '0.0000', depositStatus: 'held' });
    expect(await held(seller)).toBe('75.0250'); // the order's 25.025 and the deposit
    expect(await buy(buyer, listing.id, '10')).toMatchObject({ code: 409, message: 'This listing is no longer available' });
    // The open order still finishes: a cancel now refunds the seller, and the deposit comes back.
    await call('POST', '/api/otc/buyer_cancel', buyer.token, { orderId: order.id });
    expect(await held(seller)).toBe('0.0000');
    expect(await balances(seller)).toEqual(before);
  });
});

describe('appeals and rulings', () => {
  async function paidOrder(seller: Trader, buyer: Trader, amount = '50') {
    const listing = (await post(seller, { quantity: '100' })).data;
    const order = (await buy(buyer, listing.id, amount)).data;
    await call('POST', '/api/otc/confirm_pay', buyer.token, { orderId: order.id });
    return { listing, order };
  }

  it('opens after the release window, freezes the order, takes both sides’ evidence and is ruled by an arbiter', async () => {
    const [seller, buyer] = [traders[16]!, traders[17]!];
    const { listing, order } = await paidOrder(seller, buyer);
    const evidence = await otcUpload(buyer);
    const appealBody = { orderId: order.id, reason: 'paid_not_released', description: 'I paid 360 CNY', imageIds: [evidence] };
    const early = await call('POST', '/api/otc/appeal', buyer.token, appealBody);
    expect(early.code).toBe(409);
    expect(early.message).toMatch(/^You can appeal from /);
    nowMs += 16 * 60_000;
    // Another member's image is not evidence.
    const foreign = await otcUpload(seller);
    expect(await call('POST', '/api/otc/appeal', buyer.token, { ...appealBody, imageIds: [foreign] })).toMatchObject({
      code: 400,
      message: 'An evidence image is missing or is not yours; please upload it again',
    });
    expect((await t.services.otc.timers.runTimers()).overdue).toBeGreaterThanOrEqual(1);
    const appealed = await call<OtcOrderDetail>('POST', '/api/otc/appeal', buyer.token, appealBody);
    expect(appealed.data).toMatchObject({ state: 'appeal', appeals: [{ by: 'buyer', status: 'open' }] });
    expect(await call('POST', '/api/otc/appeal', buyer.token, { ...appealBody, imageIds: [] })).toMatchObject({
      code: 409,
      message: 'This order is already under appeal',
    });
    // The order is frozen: no release, no cancel, no timer.
    expect(
      await call('POST', '/api/otc/release', seller.token, { orderId: order.id, tradePassword: TRADE_PASSWORD }),
    ).toMatchObject({
      code: 409,
      message: 'This order is under appeal and frozen until the platform rules',
    });
    expect((await call('POST', '/api/otc/cancel', seller.token, { orderId: order.id })).code).toBe(409);
    nowMs += 3600_000;
    await t.services.otc.timers.runTimers();
    expect((await orderInfo(buyer, order.id)).data.state).toBe('appeal');
    // The seller adds their side.
    const sellerEvidence = await otcUpload(seller);
    const counter = await call<OtcOrderDetail>('POST', '/api/otc/appeal', seller.token, {
      orderId: order.id,
      reason: 'payment_not_received',
      description: 'Nothing arrived',
      imageIds: [sellerEvidence],
    });
    expect(counter.data.appeals.map((appeal) => appeal.by)).toEqual(['buyer', 'seller']);
    const evidenceImage = await t.app.inject({
      method: 'GET',
      url: `/api/otc/evidence_image?id=${order.id}&uploadId=${evidence}`,
      headers: { authorization: seller.token },
    });
    expect(evidenceImage.statusCode).toBe(200);

    // The queue shows it once, with both sides' evidence and the chat in the detail.
    const queue = await consoleCall<{ items: { order: { id: string } }[]; openTotal: number }>(
      'GET',
      '/api/admin/otc/appeals',
      arbiter,
    );
    expect(queue.data.items.map((item) => item.order.id)).toContain(order.id);
    const detail = await consoleCall<AdminOtcOrderDetail>('GET', `/api/admin/otc/orders/${order.id}`, arbiter);
    expect(detail.data.appeals).toHaveLength(2);
    expect(detail.data).toMatchObject({ lister: 'seller', listingDepositStatus: 'held' });
    await consoleCall('POST', `/api/admin/otc/orders/${order.id}/chat`, arbiter, {
      text: 'Please both upload your bank statements',
    });
    const chat = await consoleCall<{ items: { sender: string; agentName: string | null }[] }>(
      'GET',
      `/api/admin/otc/orders/${order.id}/chat`,
      arbiter,
    );
    expect(chat.data.items.at(-1)).toMatchObject({ sender: 'agent', agentName: 'otc-arbiter' });
    const adminEvidence = await t.app.inject({
      method: 'GET',
      url: `/api/admin/otc/orders/${order.id}/evidence/${sellerEvidence}`,
      headers: { authorization: `Bearer ${arbiter}` },
    });
    expect(adminEvidence.statusCode).toBe(200);

    // Permissions: finance reads but cannot rule; a ruling against the buyer cannot forfeit the lister's deposit.
    const ruleBody = {
      ruling: 'release_to_buyer',
      note: 'Bank statement shows the payment',
      forfeitDeposit: true,
      suspend: { role: 'seller', days: 7 },
    };
    expect((await consoleCall('POST', `/api/admin/otc/orders/${order.id}/rule`, finance, ruleBody)).code).toBe(403);
    expect(
      await consoleCall('POST', `/api/admin/otc/orders/${order.id}/rule`, arbiter, { ...ruleBody, ruling: 'return_to_seller' }),
    ).toMatchObject({ code: 409 });
    const feesBefore = await feesBalance();
    const buyerBefore = await availableOf(t, buyer.accountId, 'USDT');
    const ruled = await consoleCall<AdminOtcOrderDetail>('POST', `/api/admin/otc/orders/${order.id}/rule`, arbiter, ruleBody);
    expect(ruled.data).toMatchObject({ state: 'completed', listingDepositStatus: 'forfeited' });
    expect(ruled.data.appeals.every((appeal) => appeal.status === 'ruled' && appeal.ruling === 'release_to_buyer')).toBe(true);
    expect(Number(await availableOf(t, buyer.accountId, 'USDT')) - Number(buyerBefore)).toBeCloseTo(50, 4);
    expect(Number(await feesBalance()) - Number(feesBefore)).toBeCloseTo(50.05, 4); // the fee and the deposit
    // A second ruling finds nothing under appeal.
    expect((await consoleCall('POST', `/api/admin/otc/orders/${order.id}/rule`, arbiter, ruleBody)).code).toBe(409);
    // The seller is suspended from OTC: cannot post, and their listing is off the market and cannot be taken.
    expect(await post(seller)).toMatchObject({ code: 403 });
    const market = await call<{ items: { id: string }[] }>('GET', '/api/otc/all_sell_list?side=sell&pageSize=100', buyer.token);
    expect(market.data.items.map((item) => item.id)).not.toContain(listing.id);
    expect(await buy(buyer, listing.id, '10')).toMatchObject({ code: 409, message: 'This listing is no longer available' });
    const suspensions = await consoleCall<{ items: { memberId: string }[] }>('GET', '/api/admin/otc/suspensions', arbiter);
    expect(suspensions.data.items.map((item) => item.memberId)).toContain(seller.memberId);
    const audit = await queryRows<{ action: string }>(
      t.testDatabase.database.db,
      sql`select action from audit_log where target_id = ${order.id} order by id`,
    );
    expect(audit.map((row) => row.action).sort()).toEqual(['otc.appeal_ruled', 'otc.chat_message']);
    expect(await memberEventKinds(buyer.memberId)).toContain('otc.order:ruled');
    await consoleCall('POST', `/api/admin/otc/suspensions/${seller.memberId}/lift`, arbiter);
    expect((await post(seller, { quantity: '10', minPerOrder: '10' })).code).toBe(200);
    await call('POST', '/api/otc/revoke', seller.token, { listingId: listing.id });
    const mine = await call<{ items: { id: string; state: string }[] }>(
      'GET',
      '/api/otc/my_listings?state=matching',
      seller.token,
    );
    for (const item of mine.data.items) await call('POST', '/api/otc/revoke', seller.token, { listingId: item.id });
  });

  it('a ruling during a firing timer: the ruling wins', async () => {
    const [seller, buyer] = [traders[18]!, traders[19]!];
    const { listing, order } = await paidOrder(seller, buyer, '20');
    nowMs += 16 * 60_000;
    await call('POST', '/api/otc/appeal', seller.token, {
      orderId: order.id,
      reason: 'payment_not_received',
      description: 'No payment',
      imageIds: [],
    });
    const [ruled] = await Promise.all([
      consoleCall<AdminOtcOrderDetail>('POST', `/api/admin/otc/orders/${order.id}/rule`, arbiter, {
        ruling: 'return_to_seller',
        note: 'No payment shown',
      }),
      t.services.otc.timers.runTimers(),
      t.services.otc.timers.expire(order.id),
      t.services.otc.timers.markOverdue(order.id),
    ]);
    expect(ruled.data).toMatchObject({ state: 'cancelled', cancelReason: 'ruling' });
    const final = await orderInfo(seller, order.id);
    expect(final.data.trail.map((step) => step.step)).toEqual(['created', 'paid', 'appealed', 'ruled', 'cancelled']);
    // The escrow went back to the listing, still on the market.
    const mine = (await call<{ mine: OtcListingDetail }>('GET', `/api/otc/listing_info?id=${listing.id}`, seller.token)).data
      .mine;
    expect(mine.available).toBe('100.0000');
    await call('POST', '/api/otc/revoke', seller.token, { listingId: listing.id });
  });
});

describe('the console', () => {
  it('lists listings and orders with filters, and audits settings and take-downs', async () => {
    const seller = traders[8]!;
    const listing = (await post(seller, { quantity: '30', minPerOrder: '10' })).data;
    const listings = await consoleCall<{ items: { id: string; lister: { email: string } }[] }>(
      'GET',
      `/api/admin/otc/listings?state=matching&query=${encodeURIComponent(seller.email)}`,
      finance,
    );
    expect(listings.data.items.map((item) => item.id)).toEqual([listing.id]);
    const orders = await consoleCall<{ items: unknown[]; total: number }>(
      'GET',
      '/api/admin/otc/orders?state=completed',
      finance,
    );
    expect(orders.data.total).toBeGreaterThan(0);

    // By the listing's side and the platform days the order was placed on (inclusive).
    type Listed = { items: { id: string; listingSide: 'sell' | 'buy'; createdAt: string }[]; total: number };
    const all = await consoleCall<Listed>('GET', '/api/admin/otc/orders?pageSize=100', finance);
    const sample = all.data.items[0]!;
    const day = platformDay(new Date(sample.createdAt), DEFAULT_PLATFORM_TIME_ZONE);
    const bySide = await consoleCall<Listed>('GET', `/api/admin/otc/orders?pageSize=100&side=${sample.listingSide}`, finance);
    expect(bySide.data.items.map((item) => item.id)).toContain(sample.id);
    expect(bySide.data.items.every((item) => item.listingSide === sample.listingSide)).toBe(true);
    const otherSide = sample.listingSide === 'sell' ? 'buy' : 'sell';
    const byOther = await consoleCall<Listed>('GET', `/api/admin/otc/orders?pageSize=100&side=${otherSide}`, finance);
    expect(byOther.data.items.map((item) => item.id)).not.toContain(sample.id);
    expect(bySide.data.total + byOther.data.total).toBe(all.data.total);
    const onDay = await consoleCall<Listed>('GET', `/api/admin/otc/orders?pageSize=100&from=${day}&to=${day}`, finance);
    expect(onDay.data.items.map((item) => item.id)).toContain(sample.id);
    expect(onDay.data.items.every((item) => platformDay(new Date(item.createdAt), DEFAULT_PLATFORM_TIME_ZONE) === day)).toBe(
      true,
    );
    const nextDay = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const after = await consoleCall<Listed>('GET', `/api/admin/otc/orders?pageSize=100&from=${nextDay}`, finance);
    expect(after.data.items.map((item) => item.id)).not.toContain(sample.id);
    const backwards = await consoleCall('GET', `/api/admin/otc/orders?from=${nextDay}&to=${day}`, finance);
    expect(backwards).toMatchObject({ code: 400 });
    expect(backwards.message).toContain('must not be before the first day');
    const settings = (await consoleCall<Record<string, unknown>>('GET', '/api/admin/otc/settings', finance)).data;
    expect((await consoleCall('PUT', '/api/admin/otc/settings', arbiter, { ...settings, guidePrice: '7.3' })).code).toBe(403);
    const bad = await consoleCall('PUT', '/api/admin/otc/settings', finance, { ...settings, paymentWindowMinMinutes: 90 });
    expect(bad.code).toBe(400);
    const updated = await consoleCall<{ guidePrice: string }>('PUT', '/api/admin/otc/settings', finance, {
      ...settings,
      guidePrice: '7.3',
    });
    expect(updated.data.guidePrice).toBe('7.3');
    const revoked = await consoleCall<{ state: string }>('POST', `/api/admin/otc/listings/${listing.id}/revoke`, finance, {
      reason: 'Test take-down',
    });
    expect(revoked.data.state).toBe('cancelled');
    const audit = await queryRows<{ action: string }>(
      t.testDatabase.database.db,
      sql`select action from audit_log where action like 'otc.%' order by id`,
    );
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(['otc.settings_updated', 'otc.listing_revoked']));
    await consoleCall('PUT', '/api/admin/otc/settings', finance, settings);
  });
});

describe('a frozen lister', () => {
  it('has their listings taken off the market until unfrozen', async () => {
    const [lister, taker] = [traders[9]!, traders[10]!];
    const listing = (await post(lister, { quantity: '40' })).data;
    const ids = async () =>
      (
        await call<{ items: { id: string }[] }>('GET', '/api/otc/all_sell_list?side=sell&pageSize=100', taker.token)
      ).data.items.map((item) => item.id);
    expect(await ids()).toContain(listing.id);
    expect(
      (await consoleCall('POST', `/api/admin/members/${lister.memberId}/freeze`, arbiter, { reason: 'OTC test' })).code,
    ).toBe(200);
    expect(await ids()).not.toContain(listing.id);
    expect(await buy(taker, listing.id, '10')).toMatchObject({ code: 409, message: 'This listing is no longer available' });
    expect(
      (await consoleCall('POST', `/api/admin/members/${lister.memberId}/unfreeze`, arbiter, { reason: 'OTC test done' })).code,
    ).toBe(200);
    expect(await ids()).toContain(listing.id);
    // Freezing ended the lister's sessions: an operator takes the listing down (audited).
    const revoked = await consoleCall<{ state: string }>('POST', `/api/admin/otc/listings/${listing.id}/revoke`, finance, {
      reason: 'Test clean-up',
    });
    expect(revoked.data.state).toBe('cancelled');
  });
});

describe('live channels', () => {
  it('tell both members and the console at every step, without reloading', async () => {
    const [seller, buyer] = [traders[0]!, traders[2]!];
    const listing = (await post(seller, { quantity: '50' })).data;
    const reviewer = await operatorToken(t, 'otc-reviewer', 'reviewer');
    const refused = await openStream(baseUrl, `Bearer ${reviewer}`, undefined, '/api/admin/otc/events');
    opened.push(refused);
    expect(refused.status).toBe(403);
    const consoleStream = await openStream(baseUrl, `Bearer ${finance}`, undefined, '/api/admin/otc/events');
    const sellerStream = await openStream(baseUrl, seller.token);
    const buyerStream = await openStream(baseUrl, buyer.token);
    opened.push(consoleStream, sellerStream, buyerStream);
    for (const stream of [consoleStream, sellerStream, buyerStream]) expect((await stream.next()).event).toBe('ready');
    const data = async (stream: SseStream) => (JSON.parse((await stream.next()).data) as { data: Record<string, unknown> }).data;

    const order = (await buy(buyer, listing.id, '20')).data;
    expect(await data(buyerStream)).toMatchObject({
      kind: 'otc.order',
      orderId: order.id,
      state: 'pending_payment',
      step: 'created',
    });
    expect(await data(sellerStream)).toMatchObject({ kind: 'otc.order', orderId: order.id, step: 'created' });
    expect(await data(sellerStream)).toMatchObject({ kind: 'otc.listing', listingId: listing.id, available: '30.0000' });
    expect(await data(consoleStream)).toMatchObject({ kind: 'otc.order', orderId: order.id, step: 'created' });

    await call('POST', '/api/otc/chat_send', buyer.token, { orderId: order.id, text: 'Transfer sent' });
    expect(await data(sellerStream)).toMatchObject({ kind: 'otc.chat', orderId: order.id, preview: 'Transfer sent' });
    expect(await data(consoleStream)).toMatchObject({ kind: 'otc.chat', orderId: order.id });

    await call('POST', '/api/otc/confirm_pay', buyer.token, { orderId: order.id });
    expect(await data(sellerStream)).toMatchObject({ kind: 'otc.order', state: 'paid', step: 'paid' });
    expect(await data(buyerStream)).toMatchObject({ kind: 'otc.order', state: 'paid', step: 'paid' });
    expect(await data(consoleStream)).toMatchObject({ kind: 'otc.order', step: 'paid' });

    await call('POST', '/api/otc/release', seller.token, { orderId: order.id, tradePassword: TRADE_PASSWORD });
    expect(await data(buyerStream)).toMatchObject({ kind: 'otc.order', state: 'completed', step: 'released' });
    expect(await data(sellerStream)).toMatchObject({ kind: 'otc.order', state: 'completed', step: 'released' });
    await call('POST', '/api/otc/revoke', seller.token, { listingId: listing.id });
  });
});
