import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOtcOrderDetail, OtcInfo, OtcListingDetail, OtcOrderDetail } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { base32Decode, hotp, totpStep } from '../src/lib/totp.js';
import { trackBalances } from './support/balances.js';
import { operatorToken } from './support/members.js';
import { listingBody, seedTraders, TRADE_PASSWORD, type Trader } from './support/otc.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Who may move a member's USDT on OTC (issue 31, finding 1; docs/decisions/051): selling into a
 * buy listing needs the trading password (and the authenticator code once bound) like a withdrawal,
 * the pause after a security reset (decision 016) stops OTC sells, posts and releases too, and an
 * operator who reset a party's credentials cannot rule on that party's order during the pause.
 */

let t: TestApp;
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let prefixSeq = 0;

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function call<T = unknown>(method: 'GET' | 'POST', url: string, token: string, payload?: object, lang = 'EN') {
  const response = await t.app.inject({ method, url, headers: { authorization: token, lang }, ...(payload ? { payload } : {}) });
  return response.json<Envelope<T>>();
}
async function consoleCall<T = unknown>(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  const response = await t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
  return response.json<Envelope<T>>();
}

function traders(count: number): Promise<Trader[]> {
  prefixSeq += 1;
  return seedTraders(t.testDatabase.database.db, t.services.ledger, `otc-auth${prefixSeq}`, count);
}

/** Binds an authenticator through the member's own calls; answers what the app shows at a moment. */
async function bindAuthenticator(trader: Trader): Promise<() => string> {
  const { secret } = (await call<{ secret: string }>('GET', '/api/user/google_2fa', trader.token)).data;
  const codeNow = () => hotp(base32Decode(secret), totpStep(nowMs));
  expect((await call('POST', '/api/user/google_2fa/bind', trader.token, { googleCode: codeNow() })).code).toBe(200);
  // A code is accepted once: the next use waits for the next step.
  nowMs += 30_000;
  return codeNow;
}

/** What an operator's reset records (member.repository markSecurityReset), at the test clock's now. */
async function markSecurityReset(trader: Trader): Promise<void> {
  await t.testDatabase.database.db.execute(
    sql`update members set security_reset_at = ${new Date(nowMs)} where id = ${trader.memberId}::uuid`,
  );
}

async function buyListing(maker: Trader) {
  const posted = await call<OtcListingDetail>(
    'POST',
    '/api/otc/post',
    maker.token,
    listingBody(maker, { side: 'buy', quantity: '200', paymentMethodIds: [maker.alipayId] }),
  );
  expect(posted.code).toBe(200);
  return posted.data;
}

function sellBody(taker: Trader, listingId: string, extra: Record<string, unknown> = {}) {
  return { listingId, amount: '100', paymentMethodIds: [taker.alipayId], idempotencyKey: randomUUID(), ...extra };
}

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

describe('selling USDT into a buy listing', () => {
  it('needs the trading password: missing or wrong is refused and nothing is held', async () => {
    const [maker, taker] = (await traders(2)) as [Trader, Trader];
    const listing = await buyListing(maker);
    const balances = await trackBalances(t, { maker: maker.accountId, taker: taker.accountId });
    const missing = await call('POST', '/api/otc/sell', taker.token, sellBody(taker, listing.id));
    expect(missing.code).toBe(400);
    expect(missing.message).toBe('please enter trading password');
    const wrong = await call(
      'POST',
      '/api/otc/sell',
      taker.token,
      sellBody(taker, listing.id, { tradePassword: 'wrong-pass-1' }),
    );
    expect(wrong).toMatchObject({ code: 400, message: 'The trading password is wrong' });
    await balances.expectChanges({});
    const sold = await call<OtcOrderDetail>(
      'POST',
      '/api/otc/sell',
      taker.token,
      sellBody(taker, listing.id, { tradePassword: TRADE_PASSWORD }),
    );
    expect(sold.data).toMatchObject({ state: 'pending_payment', myRole: 'seller', amount: '100.0000' });
    await balances.expectChanges({ 'taker:USDT:available': '-100.0000', 'taker:USDT:held': '100.0000' });
  });

  it('needs the authenticator code once one is bound', async () => {
    const [maker, taker] = (await traders(2)) as [Trader, Trader];
    const listing = await buyListing(maker);
    const codeNow = await bindAuthenticator(taker);
    const balances = await trackBalances(t, { maker: maker.accountId, taker: taker.accountId });
    const body = sellBody(taker, listing.id, { tradePassword: TRADE_PASSWORD });
    expect(await call('POST', '/api/otc/sell', taker.token, body)).toMatchObject({
      code: 400,
      message: 'Enter the code from your authenticator app',
    });
    const wrongCode = codeNow() === '000000' ? '111111' : '000000';
    expect((await call('POST', '/api/otc/sell', taker.token, { ...body, googleCode: wrongCode })).code).toBe(400);
    await balances.expectChanges({});
    const sold = await call<OtcOrderDetail>('POST', '/api/otc/sell', taker.token, { ...body, googleCode: codeNow() });
    expect(sold.data.state).toBe('pending_payment');
    await balances.expectChanges({ 'taker:USDT:available': '-100.0000', 'taker:USDT:held': '100.0000' });
  });
});

describe('the pause after a security reset', () => {
  it('refuses OTC sells, posts and releases with the localised reason, and lifts when the pause ends', async () => {
    const [maker, victim, buyer] = (await traders(3)) as [Trader, Trader, Trader];
    const buyOffer = await buyListing(maker);
    // An order the victim sells in, taken before the reset and paid by the buyer-maker.
    const open = await call<OtcOrderDetail>(
      'POST',
      '/api/otc/sell',
      victim.token,
      sellBody(victim, buyOffer.id, { amount: '50', tradePassword: TRADE_PASSWORD }),
    );
    expect(open.code).toBe(200);
    await call('POST', '/api/otc/confirm_pay', maker.token, { orderId: open.data.id });
    await markSecurityReset(victim);
    const info = await call<OtcInfo>('GET', '/api/otc/info', victim.token);
    expect(info.data.me.coolingOffUntil).toBe(new Date(nowMs + 24 * 3_600_000).toISOString());
    const balances = await trackBalances(t, { maker: maker.accountId, victim: victim.accountId, buyer: buyer.accountId });

    const sell = await call(
      'POST',
      '/api/otc/sell',
      victim.token,
      sellBody(victim, buyOffer.id, { tradePassword: TRADE_PASSWORD }),
    );
    expect(sell.code).toBe(409);
    expect(sell.message).toMatch(
      /^For your safety, OTC selling and posting are paused for 24 hours after your password, authenticator or trading password was reset\. You can trade again from \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(.+\)\.$/,
    );
    const chinese = await call(
      'POST',
      '/api/otc/sell',
      victim.token,
      sellBody(victim, buyOffer.id, { tradePassword: TRADE_PASSWORD }),
      'CN',
    );
    expect(chinese.message).toMatch(
      /^为保障您的资金安全，登录密码、身份验证器或交易密码重置后 24 小时内暂停 OTC 出售和发布广告。/,
    );
    for (const side of ['sell', 'buy'] as const) {
      const posted = await call(
        'POST',
        '/api/otc/post',
        victim.token,
        listingBody(victim, { side, paymentMethodIds: [victim.alipayId] }),
      );
      expect(posted.code).toBe(409);
      expect(posted.message).toMatch(/^For your safety, OTC selling and posting are paused/);
    }
    const release = await call('POST', '/api/otc/release', victim.token, {
      orderId: open.data.id,
      tradePassword: TRADE_PASSWORD,
    });
    expect(release.code).toBe(409);
    expect(release.message).toMatch(/^For your safety, OTC selling and posting are paused/);
    await balances.expectChanges({});
    expect((await call<OtcOrderDetail>('GET', `/api/otc/order_info?id=${open.data.id}`, victim.token)).data.state).toBe('paid');

    // Buying USDT moves nothing out of the account: it stays open during the pause.
    const sellOffer = (await call<OtcListingDetail>('POST', '/api/otc/post', buyer.token, listingBody(buyer))).data;
    await balances.reset();
    const bought = await call('POST', '/api/otc/buy', victim.token, {
      listingId: sellOffer.id,
      amount: '10',
      idempotencyKey: randomUUID(),
    });
    expect(bought.code).toBe(200);
    await balances.expectChanges({});

    nowMs += 24 * 3_600_000 + 60_000;
    const later = await call('POST', '/api/otc/release', victim.token, { orderId: open.data.id, tradePassword: TRADE_PASSWORD });
    expect(later).toMatchObject({ code: 200, data: { state: 'completed' } });
    await balances.expectChanges({
      'victim:USDT:held': '-50.0000',
      'maker:USDT:available': '49.9500',
      'platform:fees:USDT': '0.0500',
    });
  });
});

describe('a ruling by the operator who reset a party', () => {
  it('is refused during the pause with its message; another arbiter may rule', async () => {
    const [seller, buyer] = (await traders(2)) as [Trader, Trader];
    const resetter = await operatorToken(t, `otc-resetter-${prefixSeq}`, 'support');
    const other = await operatorToken(t, `otc-other-arbiter-${prefixSeq}`, 'support');
    const listing = (await call<OtcListingDetail>('POST', '/api/otc/post', seller.token, listingBody(seller))).data;
    const order = (
      await call<OtcOrderDetail>('POST', '/api/otc/buy', buyer.token, {
        listingId: listing.id,
        amount: '40',
        idempotencyKey: randomUUID(),
      })
    ).data;
    await call('POST', '/api/otc/confirm_pay', buyer.token, { orderId: order.id });
    nowMs += 16 * 60_000;
    const appealed = await call('POST', '/api/otc/appeal', buyer.token, {
      orderId: order.id,
      reason: 'paid_not_released',
      description: 'I paid',
      imageIds: [],
    });
    expect(appealed.code).toBe(200);
    // The insider resets the buyer's login password (the accomplice's side is irrelevant: either party counts).
    expect((await consoleCall('POST', `/api/admin/members/${buyer.memberId}/reset_password`, resetter)).code).toBe(200);

    const balances = await trackBalances(t, { seller: seller.accountId, buyer: buyer.accountId });
    const ruleBody = { ruling: 'release_to_buyer', note: 'Payment shown' };
    const refused = await consoleCall('POST', `/api/admin/otc/orders/${order.id}/rule`, resetter, ruleBody);
    expect(refused).toMatchObject({
      code: 409,
      message: 'You reset the credentials of a party to this order in the last 24 hours: another arbiter must rule on it',
    });
    await balances.expectChanges({});
    const audit = await queryRows<{ action: string }>(
      t.testDatabase.database.db,
      sql`select action from audit_log where action = 'otc.appeal_ruled' and target_id = ${order.id}`,
    );
    expect(audit).toEqual([]);

    const ruled = await consoleCall<AdminOtcOrderDetail>('POST', `/api/admin/otc/orders/${order.id}/rule`, other, ruleBody);
    expect(ruled.data.state).toBe('completed');
    await balances.expectChanges({
      'seller:USDT:held': '-40.0400',
      'buyer:USDT:available': '40.0000',
      'platform:fees:USDT': '0.0400',
    });
  });

  it('is allowed once the pause is over', async () => {
    const [seller, buyer] = (await traders(2)) as [Trader, Trader];
    const resetter = await operatorToken(t, `otc-late-resetter-${prefixSeq}`, 'support');
    const listing = (await call<OtcListingDetail>('POST', '/api/otc/post', seller.token, listingBody(seller))).data;
    const order = (
      await call<OtcOrderDetail>('POST', '/api/otc/buy', buyer.token, {
        listingId: listing.id,
        amount: '40',
        idempotencyKey: randomUUID(),
      })
    ).data;
    await call('POST', '/api/otc/confirm_pay', buyer.token, { orderId: order.id });
    expect((await consoleCall('POST', `/api/admin/members/${seller.memberId}/reset_password`, resetter)).code).toBe(200);
    nowMs += 24 * 3_600_000 + 60_000;
    await call('POST', '/api/otc/appeal', buyer.token, {
      orderId: order.id,
      reason: 'paid_not_released',
      description: 'I paid',
      imageIds: [],
    });
    const ruled = await consoleCall<AdminOtcOrderDetail>('POST', `/api/admin/otc/orders/${order.id}/rule`, resetter, {
      ruling: 'return_to_seller',
      note: 'No payment',
    });
    expect(ruled.data).toMatchObject({ state: 'cancelled', cancelReason: 'ruling' });
  });
});
