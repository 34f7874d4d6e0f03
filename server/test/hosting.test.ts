import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money, type HostingConfig, type HostingLogItem, type HostingOrder, type HostingPlan } from '@custos/contract';
import { createLogger } from '../src/lib/logger.js';
import { HostingRepository } from '../src/modules/hosting/hosting.repository.js';
import { SettlementService } from '../src/modules/hosting/settlement.service.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Custody with an injected clock and the daily settlement driven day by day: exact interest, the
 * principal back on the last day, early redemption, auto-renew, retired plans, running a day twice,
 * a settlement that fails part-way and is run again, and two settlements at once.
 */

// Friday 2026-11-20, 10:00 in Shanghai: orders made now start on 2026-11-20.
let now = new Date('2026-11-20T02:00:00Z');
const clock = { now: () => now };

let t: TestApp;
let token: string;
let accountId: string;
let finance: string;
let plans: HostingPlan[];

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST', url: string, payload?: object, as = token) {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

function create(fields: Record<string, unknown>, as = token) {
  return call<HostingOrder>(
    'POST',
    '/api/hosting/create',
    { amount: '1000', autoRenew: false, tradePassword: 'trade-pass-1', idempotencyKey: randomUUID(), ...fields },
    as,
  );
}

function plan(days: number): HostingPlan {
  return plans.find((candidate) => candidate.periodDays === days)!;
}

function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, date! + days)).toISOString().slice(0, 10);
}

async function settleThrough(lastDay: string, service = t.services.settlement): Promise<void> {
  const last = (await t.app.inject({ method: 'GET', url: '/api/admin/settlement/runs', headers: { authorization: finance } }))
    .json<Envelope<{ day: string; status: string }[]>>()
    .data.find((run) => run.status === 'completed')?.day;
  // Only days that have ended can be settled: move the clock past the last one if needed.
  if (now < new Date(`${addDays(lastDay, 1)}T02:00:00Z`)) now = new Date(`${addDays(lastDay, 1)}T02:00:00Z`);
  for (let day = last ? addDays(last, 1) : '2026-11-20'; day <= lastDay; day = addDays(day, 1)) await service.settle(day);
}

async function order(id: string, as = token): Promise<HostingOrder> {
  const page = await call<{ items: HostingOrder[] }>('GET', '/api/hosting/order?pageSize=100', undefined, as);
  return page.body.data.items.find((item) => item.id === id)!;
}

async function custodyOf(id = accountId): Promise<string> {
  const balances = await t.services.ledger.balancesOf([id]);
  const units = balances.get(`${id}:USDT:custody`) ?? 0n;
  return (Number(units) / 10_000).toFixed(4);
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  token = await registerMember(t, 'hoster@example.com');
  accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  await fund(t, accountId, 'USDT', '10000');
  finance = await operatorToken(t, 'hosting-finance', 'finance');
  plans = (await call<HostingConfig>('GET', '/api/hosting/config')).body.data.plans;
});
afterAll(async () => {
  await t.close();
});

describe('custody orders', () => {
  it('offers the seeded plans: 7, 30, 90, 180 and 360 days', () => {
    expect(plans.map((item) => item.periodDays)).toEqual([7, 30, 90, 180, 360]);
    expect(plan(30)).toMatchObject({
      dailyRate: '0.0012',
      minAmount: '100.0000',
      earlyPenaltyRate: '0.05',
      autoRenewAllowed: true,
    });
  });

  it('refuses amounts outside the plan, with too many places, or above the cash balance, moving nothing', async () => {
    const balances = await trackBalances(t, { hoster: accountId });
    expect((await create({ planId: plan(30).id, amount: '99.9999' })).body).toMatchObject({
      code: 409,
      message: 'This plan takes from 100.0000 to 100000.0000 USDT',
    });
    expect((await create({ planId: plan(30).id, amount: '100.00001' })).status).toBe(400);
    expect((await create({ planId: plan(30).id, amount: '20000' })).body).toMatchObject({
      code: 409,
      message: 'Insufficient USDT balance',
    });
    expect((await create({ planId: randomUUID() })).status).toBe(404);
    expect(await availableOf(t, accountId, 'USDT')).toBe('10000.0000');
    await balances.expectChanges({});
  });

  it('moves cash into custody, pays exactly 30 days of interest, and returns the principal on day 30', async () => {
    const balances = await trackBalances(t, { hoster: accountId });
    const { body } = await create({ planId: plan(30).id, amount: '1234.5678' });
    expect(body.data).toMatchObject({
      status: 'active',
      startDate: '2026-11-20',
      endDate: '2026-12-20',
      amount: '1234.5678',
      daysAccrued: 0,
    });
    expect(await availableOf(t, accountId, 'USDT')).toBe('8765.4322');
    expect(await custodyOf()).toBe('1234.5678');
    await balances.expectChanges({ 'hoster:USDT:available': '-1234.5678', 'hoster:USDT:custody': '1234.5678' });
    const config = (await call<HostingConfig>('GET', '/api/hosting/config')).body.data;
    expect(config).toMatchObject({ custodyBalance: '1234.5678', isValid: true, validThreshold: '500.0000' });

    // The start day earns nothing; each later day 1234.5678 × 0.0012 = 1.48148… → 1.4814.
    await settleThrough('2026-11-20');
    expect((await order(body.data.id)).daysAccrued).toBe(0);
    await settleThrough('2026-12-19');
    expect(await order(body.data.id)).toMatchObject({ status: 'active', daysAccrued: 29, interestSoFar: '42.9606' });
    await settleThrough('2026-12-20');
    expect(await order(body.data.id)).toMatchObject({
      status: 'expired',
      daysAccrued: 30,
      interestSoFar: '44.4420',
      returnedAmount: '1234.5678',
    });
    expect(await custodyOf()).toBe('0.0000');
    expect(await availableOf(t, accountId, 'USDT')).toBe('10044.4420');
    // 30 × 1.4814 = 44.442 of interest from the interest account, and the principal back from custody.
    await balances.expectChanges({
      'hoster:USDT:available': '1279.0098',
      'hoster:USDT:custody': '-1234.5678',
      'platform:interest:USDT': '-44.4420',
    });

    const log = await call<{ items: HostingLogItem[]; total: number }>(
      'GET',
      `/api/hosting/operator_log?orderId=${body.data.id}&pageSize=5`,
    );
    expect(log.body.data.total).toBe(32);
    expect(log.body.data.items[0]).toMatchObject({ event: 'expired', amount: '1234.5678', day: '2026-12-20' });
    expect(log.body.data.items.filter((item) => item.event === 'accrued')[0]).toMatchObject({
      amount: '1.4814',
      day: '2026-12-20',
    });
    const balanceLog = await call<{ items: { type: string; amount: string }[] }>(
      'GET',
      '/api/user/balance_log?asset=USDT&pageSize=3',
    );
    expect(balanceLog.body.data.items.map((item) => item.type)).toEqual(expect.arrayContaining(['custody_redeem', 'interest']));
  });

  it('running a day again posts nothing', async () => {
    const balances = await trackBalances(t, { hoster: accountId });
    const before = await availableOf(t, accountId, 'USDT');
    expect(await t.services.settlement.settle('2026-12-20')).toBeNull();
    // Even the steps themselves, run again for a settled day, find nothing left to pay.
    const fresh = new SettlementService(
      t.testDatabase.database.db,
      new HostingRepository(t.testDatabase.database.db),
      t.services.ledger,
      t.services.audit,
      'Asia/Shanghai',
      clock,
      createLogger('silent'),
    );
    await t.testDatabase.database.db.execute(sql`update settlement_runs set status = 'failed' where day = '2026-12-20'`);
    expect(await fresh.settle('2026-12-20')).toMatchObject({ status: 'completed', ordersAccrued: 1, interestTotal: '1.4814' });
    expect(await availableOf(t, accountId, 'USDT')).toBe(before);
    await balances.expectChanges({});
  });

  it('redeems early: the principal less the penalty (rounded up) back to cash; an ended order cannot be redeemed', async () => {
    now = new Date('2026-12-21T02:00:00Z');
    const balances = await trackBalances(t, { hoster: accountId });
    const { body } = await create({ planId: plan(90).id, amount: '1000.0001' });
    await settleThrough('2026-12-23');
    expect(await order(body.data.id)).toMatchObject({ daysAccrued: 2, interestSoFar: '3.0000' });
    // 1000.0001 × 0.0015 = 1.50000015 → 1.5 on 12-22 and 12-23.
    await balances.expectChanges({
      'hoster:USDT:available': '-997.0001',
      'hoster:USDT:custody': '1000.0001',
      'platform:interest:USDT': '-3.0000',
    });
    const cash = await availableOf(t, accountId, 'USDT');
    const redeemed = await call<HostingOrder>('POST', '/api/hosting/sub', {
      orderId: body.data.id,
      tradePassword: 'trade-pass-1',
    });
    // 1000.0001 × 0.05 = 50.000005 → 50.0001 kept; 950.0000 back.
    expect(redeemed.body.data).toMatchObject({ status: 'redeemed', penalty: '50.0001', returnedAmount: '950.0000' });
    expect(money.subtract(money.parseMoney(await availableOf(t, accountId, 'USDT')), money.parseMoney(cash))).toBe(
      money.parseMoney('950'),
    );
    const again = await call('POST', '/api/hosting/sub', { orderId: body.data.id, tradePassword: 'trade-pass-1' });
    expect(again.body).toMatchObject({ code: 409, message: 'This order has ended already' });
    // A redeemed order earns nothing more.
    await settleThrough('2026-12-24');
    expect((await order(body.data.id)).daysAccrued).toBe(2);
    // The penalty to the fees account; the second redemption and 12-24 move nothing.
    await balances.expectChanges({
      'hoster:USDT:available': '950.0000',
      'hoster:USDT:custody': '-1000.0001',
      'platform:fees:USDT': '50.0001',
    });
  });

  it('renews at the end when asked, keeping the principal in custody; a retired plan expires instead', async () => {
    now = new Date('2026-12-25T02:00:00Z');
    const balances = await trackBalances(t, { hoster: accountId });
    const renewing = (await create({ planId: plan(7).id, amount: '700', autoRenew: true })).body.data;
    const toRetire = (await create({ planId: plan(180).id, amount: '200', autoRenew: true })).body.data;
    expect(await custodyOf()).toBe('900.0000');
    await settleThrough('2027-01-01');
    expect(await order(renewing.id)).toMatchObject({
      status: 'expired',
      daysAccrued: 7,
      interestSoFar: '4.9000',
      returnedAmount: null,
    });
    const renewal = (
      await call<{ items: HostingOrder[] }>('GET', '/api/hosting/order?status=active&pageSize=100')
    ).body.data.items.find((item) => item.renewedFromId === renewing.id)!;
    expect(renewal).toMatchObject({
      status: 'active',
      startDate: '2027-01-01',
      endDate: '2027-01-08',
      amount: '700.0000',
      autoRenew: true,
    });
    expect(await custodyOf()).toBe('900.0000');

    // Turning auto-renew off, and retiring the other order's plan: both return their principal at the end.
    expect(
      (await call<HostingOrder>('POST', '/api/hosting/auto_renew', { orderId: renewal.id, autoRenew: false })).body.data
        .autoRenew,
    ).toBe(false);
    const retired = await t.app.inject({
      method: 'POST',
      url: `/api/admin/hosting/plans/${plan(180).id}/retire`,
      headers: { authorization: finance },
    });
    expect(retired.json<Envelope<HostingPlan>>().data.status).toBe('retired');
    expect((await create({ planId: plan(180).id, amount: '200' })).body).toMatchObject({
      code: 409,
      message: 'This plan takes no new deposits',
    });
    await settleThrough('2027-01-08');
    expect(await order(renewal.id)).toMatchObject({ status: 'expired', returnedAmount: '700.0000' });
    // The retired plan's order keeps earning until its own end.
    expect((await order(toRetire.id)).daysAccrued).toBe(14);
    // 900 into custody; the 7-day 700 earns 0.7 a day 12-26 … 01-01 and, renewed, 01-02 … 01-08 (9.8),
    // then comes back; the 180-day 200 earns 0.36 a day over those 14 days (5.04) and stays:
    // cash −900 + 9.8 + 5.04 + 700 = −185.16, custody +200, interest −14.84.
    await balances.expectChanges({
      'hoster:USDT:available': '-185.1600',
      'hoster:USDT:custody': '200.0000',
      'platform:interest:USDT': '-14.8400',
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/hosting/plans/${plan(180).id}/activate`,
      headers: { authorization: finance },
    });
  });

  it('keeps members out of each other’s orders', async () => {
    const other = await registerMember(t, 'hoster-other@example.com');
    const mine = (await call<{ items: HostingOrder[] }>('GET', '/api/hosting/order')).body.data.items[0]!;
    expect((await call('GET', `/api/hosting/operator_log?orderId=${mine.id}`, undefined, other)).status).toBe(404);
    expect((await call('POST', '/api/hosting/auto_renew', { orderId: mine.id, autoRenew: true }, other)).status).toBe(404);
    expect((await call<{ total: number }>('GET', '/api/hosting/order', undefined, other)).body.data.total).toBe(0);
  });
});

/** One day of interest from 01-10 on: the three members' 30-day 1000 (1.2 each), the hoster's 180-day 200 (0.36). */
const DAY_OF_INTEREST = {
  'hoster:USDT:available': '0.3600',
  'm1:USDT:available': '1.2000',
  'm2:USDT:available': '1.2000',
  'm3:USDT:available': '1.2000',
  'platform:interest:USDT': '-3.9600',
};

describe('the daily settlement', () => {
  // Three members with 1000 USDT each in the 30-day plan (1.2000 a day), started 2027-01-09.
  let settleMembers: { token: string; accountId: string; orderId: string }[] = [];

  it('finishes a day that failed part-way without paying any order twice', async () => {
    now = new Date('2027-01-09T02:00:00Z');
    settleMembers = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const member = await registerMember(t, `settle-crash-${n}@example.com`);
        const id = await accountIdOf(t, member);
        await setTradePassword(t, member);
        await fund(t, id, 'USDT', '1000');
        const created = await create({ planId: plan(30).id, amount: '1000' }, member);
        return { token: member, accountId: id, orderId: created.body.data.id };
      }),
    );
    await settleThrough('2027-01-09');
    const balances = await trackBalances(t, {
      hoster: accountId,
      ...Object.fromEntries(settleMembers.map((member, index) => [`m${index + 1}`, member.accountId])),
    });
    // Chunks of one order each; the day fails after the first chunk of interest.
    const repository = new HostingRepository(t.testDatabase.database.db);
    const crashing = new SettlementService(
      t.testDatabase.database.db,
      repository,
      t.services.ledger,
      t.services.audit,
      'Asia/Shanghai',
      clock,
      createLogger('silent'),
      1n,
    );
    const accrue = repository.accrue.bind(repository);
    let calls = 0;
    repository.accrue = async (...args) => {
      calls += 1;
      if (calls === 2) throw new Error('the database went away');
      return accrue(...args);
    };
    now = new Date('2027-01-11T02:00:00Z');
    await expect(crashing.settle('2027-01-10')).rejects.toThrow(/went away/);
    const runs = await t.app.inject({ method: 'GET', url: '/api/admin/settlement/runs', headers: { authorization: finance } });
    expect(runs.json<Envelope<{ day: string; status: string; error: string }[]>>().data[0]).toMatchObject({
      day: '2027-01-10',
      status: 'failed',
      error: 'the database went away',
    });
    // The operator runs it again from the console once the day is over: the rest is paid, nothing twice.
    repository.accrue = accrue;
    const early = await t.app.inject({
      method: 'POST',
      url: '/api/admin/settlement/runs/2027-01-11/rerun',
      headers: { authorization: finance, lang: 'EN' },
    });
    expect(early.json()).toMatchObject({ code: 409, message: 'That day has not ended yet' });
    const rerun = await t.app.inject({
      method: 'POST',
      url: '/api/admin/settlement/runs/2027-01-10/rerun',
      headers: { authorization: finance },
    });
    expect(rerun.json<Envelope<{ status: string }>>()).toMatchObject({ code: 200, data: { status: 'completed' } });
    for (const member of settleMembers) {
      expect(await availableOf(t, member.accountId, 'USDT')).toBe('1.2000');
      expect(await order(member.orderId, member.token)).toMatchObject({ daysAccrued: 1, interestSoFar: '1.2000' });
    }
    // 01-10 once, the failed part and the re-run together: 1.2 each, and the hoster's 180-day 200 (0.36).
    await balances.expectChanges(DAY_OF_INTEREST);
    // Audited before it ran (a run may move money and then fail) and after.
    const audited = await t.services.audit.list({ targetId: '2027-01-10' }, 10, 0);
    expect(audited.items.map((entry) => entry.entry.action).sort()).toEqual(['settlement.rerun', 'settlement.rerun_started']);
  });

  it('two settlements of the same day at once pay each order once', async () => {
    // PGlite runs one transaction at a time, so there the two runs only interleave between
    // statements; only the PostgreSQL run of this test proves the race.
    now = new Date('2027-01-12T02:00:00Z');
    const second = new SettlementService(
      t.testDatabase.database.db,
      new HostingRepository(t.testDatabase.database.db),
      t.services.ledger,
      t.services.audit,
      'Asia/Shanghai',
      clock,
      createLogger('silent'),
      1n,
    );
    // Active on 2027-01-11: the three 30-day orders (1000 × 0.0012 = 1.2000 a day, one day paid) and
    // the member's 180-day order of 200 (200 × 0.0018 = 0.3600 a day, paid 2026-12-26 to 2027-01-10).
    const retiredPlanOrder = (
      await call<{ items: HostingOrder[] }>('GET', '/api/hosting/order?status=active&pageSize=100')
    ).body.data.items.find((item) => item.periodDays === 180)!;
    expect(retiredPlanOrder).toMatchObject({ amount: '200.0000', daysAccrued: 16, interestSoFar: '5.7600' });
    const cashBefore = money.parseMoney(await availableOf(t, accountId, 'USDT'));
    const balances = await trackBalances(t, {
      hoster: accountId,
      ...Object.fromEntries(settleMembers.map((member, index) => [`m${index + 1}`, member.accountId])),
    });

    // Both runs end well: each range is paid by whichever run claims it, the other finds it paid.
    const results = await Promise.all([t.services.settlement.settle('2027-01-11'), second.settle('2027-01-11')]);
    for (const result of results) if (result) expect(result).toMatchObject({ day: '2027-01-11', status: 'completed' });
    expect(results.some((result) => result !== null)).toBe(true);
    // The day is completed: a third run leaves it alone.
    expect(await t.services.settlement.settle('2027-01-11')).toBeNull();

    const accrued = await t.app.inject({ method: 'GET', url: '/api/admin/settlement/runs', headers: { authorization: finance } });
    expect(
      accrued
        .json<Envelope<{ day: string; ordersAccrued: number; interestTotal: string; status: string }[]>>()
        .data.find((run) => run.day === '2027-01-11'),
    ).toMatchObject({ status: 'completed', ordersAccrued: 4, interestTotal: '3.9600' });
    for (const member of settleMembers) {
      expect(await availableOf(t, member.accountId, 'USDT')).toBe('2.4000');
      expect(await order(member.orderId, member.token)).toMatchObject({ daysAccrued: 2, interestSoFar: '2.4000' });
    }
    expect(await order(retiredPlanOrder.id)).toMatchObject({ daysAccrued: 17, interestSoFar: '6.1200' });
    expect(await availableOf(t, accountId, 'USDT')).toBe(money.formatMoney(money.add(cashBefore, money.parseMoney('0.3600'))));
    await balances.expectChanges(DAY_OF_INTEREST);
  });

  it('the job settles every ended day since the last one', async () => {
    now = new Date('2027-01-14T02:00:00Z');
    const balances = await trackBalances(t, {
      hoster: accountId,
      ...Object.fromEntries(settleMembers.map((member, index) => [`m${index + 1}`, member.accountId])),
    });
    const runs = await t.services.settlement.settleDue();
    expect(runs.map((run) => run.day)).toEqual(['2027-01-12', '2027-01-13']);
    expect(await t.services.settlement.settleDue()).toEqual([]);
    await balances.expectChanges({
      'hoster:USDT:available': '0.7200',
      'm1:USDT:available': '2.4000',
      'm2:USDT:available': '2.4000',
      'm3:USDT:available': '2.4000',
      'platform:interest:USDT': '-7.9200',
    });
  });
  it('a matured order waiting for its last settlement cannot be redeemed early (no penalty, no lost interest)', async () => {
    now = new Date('2027-01-14T02:00:00Z');
    const { body } = await create({ planId: plan(7).id, amount: '700', autoRenew: false });
    const balances = await trackBalances(t, {
      hoster: accountId,
      ...Object.fromEntries(settleMembers.map((member, index) => [`m${index + 1}`, member.accountId])),
    });
    // Its last day is 2027-01-21; on the 22nd, before that day is settled, the term is over.
    await settleThrough('2027-01-20');
    now = new Date('2027-01-21T16:01:00Z'); // 00:01 on the 22nd in Shanghai
    await balances.reset();
    const early = await call('POST', '/api/hosting/sub', { orderId: body.data.id, tradePassword: 'trade-pass-1' });
    expect(early.body.code).toBe(409);
    expect(early.body.message).toMatch(/end date/);
    await balances.expectChanges({});
    const custody = money.parseMoney(await custodyOf());
    await settleThrough('2027-01-21');
    // Back in full at its settlement, after all 7 days of interest (0.1 % a day).
    expect(await order(body.data.id)).toMatchObject({ status: 'expired', daysAccrued: 7, interestSoFar: '4.9000' });
    expect(money.subtract(custody, money.parseMoney(await custodyOf()))).toBe(money.parseMoney('700'));
    // 01-21: the three 1.2, the hoster's 0.36 and this order's last 0.7 with its 700 back in full.
    await balances.expectChanges({
      'hoster:USDT:available': '701.0600',
      'hoster:USDT:custody': '-700.0000',
      'm1:USDT:available': '1.2000',
      'm2:USDT:available': '1.2000',
      'm3:USDT:available': '1.2000',
      'platform:interest:USDT': '-4.6600',
    });
  });
});
