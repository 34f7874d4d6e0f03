import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AiInfo, HostingConfig, HostingOrder, HostingPlan, SettlementRun } from '@custos/contract';
import { createLogger } from '../src/lib/logger.js';
import { HostingRepository } from '../src/modules/hosting/hosting.repository.js';
import { SettlementService } from '../src/modules/hosting/settlement.service.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The daily settlement counts each platform day as it ended
 * (docs/decisions/021-settlement-counts-the-day-as-it-ended.md): custody opened or redeemed between
 * midnight and the run, or before a failed day is run again, changes nothing about the day before.
 * Platform time is Asia/Shanghai (UTC+8): 16:00Z is midnight. Plans: 7 days at 0.1 % a day, 30 days
 * at 0.12 %, early penalty 5 %. Each scenario has its own database, so each stands alone.
 */

let now: Date;
const clock = { now: () => now };
let t: TestApp;
let finance: string;
let plans: HostingPlan[];
type Name = 'a' | 'b' | 'c' | 'd' | 'e' | 'f';
let member: Record<Name, { token: string; accountId: string }>;
let orderOf: Record<'a' | 'b' | 'c' | 'd' | 'r' | 'e400' | 'e200' | 'f', string>;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, as: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => response.json<Envelope<T>>());
}

async function open(who: keyof typeof member, days: number, amount: string, autoRenew = false): Promise<string> {
  const plan = plans.find((candidate) => candidate.periodDays === days)!;
  const created = await call<HostingOrder>('POST', '/api/hosting/create', member[who].token, {
    planId: plan.id,
    amount,
    autoRenew,
    tradePassword: 'trade-pass-1',
    idempotencyKey: randomUUID(),
  });
  expect(created.code).toBe(200);
  return created.data.id;
}

async function redeem(who: keyof typeof member, orderId: string): Promise<HostingOrder> {
  const redeemed = await call<HostingOrder>('POST', '/api/hosting/sub', member[who].token, {
    orderId,
    tradePassword: 'trade-pass-1',
  });
  expect(redeemed.code).toBe(200);
  return redeemed.data;
}

async function ordersOf(who: keyof typeof member): Promise<HostingOrder[]> {
  return (await call<{ items: HostingOrder[] }>('GET', '/api/hosting/order?pageSize=100', member[who].token)).data.items;
}

async function orderById(who: keyof typeof member, id: string): Promise<HostingOrder> {
  return (await ordersOf(who)).find((item) => item.id === id)!;
}

async function run(day: string): Promise<SettlementRun> {
  return (await call<SettlementRun[]>('GET', '/api/admin/settlement/runs', finance)).data.find((item) => item.day === day)!;
}

/** Each member's dividend share of `day` (custody counted and amount), members without one left out. */
async function sharesOf(day: string): Promise<Record<string, { custody: string; amount: string }>> {
  const shares: Record<string, { custody: string; amount: string }> = {};
  for (const [name, { token }] of Object.entries(member)) {
    const info = (await call<AiInfo>('GET', '/api/ai/info?pageSize=100', token)).data;
    const share = info.records.items.find((item) => item.day === day);
    if (share) shares[name] = { custody: share.custody, amount: share.amount };
  }
  return shares;
}

/**
 * A fresh app and database with members a … f funded with `cash`; D's 7-day order of 1000 with
 * auto-renew is made on 11-14 (its last day 11-21, when it renews), and 11-14 … 11-19 are settled.
 */
async function startWorld(cash: Partial<Record<Name, string>>): Promise<void> {
  now = new Date('2026-11-14T02:00:00Z');
  t = await createTestApp({}, { clock });
  finance = await operatorToken(t, 'day-end-finance', 'finance');
  member = {} as typeof member;
  orderOf = {} as typeof orderOf;
  for (const [name, amount] of Object.entries(cash)) {
    const token = await registerMember(t, `day-end-${name}@example.com`);
    const accountId = await accountIdOf(t, token);
    await setTradePassword(t, token);
    await fund(t, accountId, 'USDT', amount);
    member[name as Name] = { token, accountId };
  }
  plans = (await call<HostingConfig>('GET', '/api/hosting/config', member.d.token)).data.plans;
  orderOf.d = await open('d', 7, '1000', true);
  now = new Date('2026-11-20T02:00:00Z');
  for (const day of ['2026-11-14', '2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19']) {
    await t.services.settlement.settle(day);
  }
  expect(await orderById('d', orderOf.d)).toMatchObject({ daysAccrued: 5, interestSoFar: '5.0000' });
}

/** The members by their letters, for the balance tracker. */
function names(): Record<string, string> {
  return Object.fromEntries(Object.entries(member).map(([name, { accountId }]) => [name, accountId]));
}

afterEach(async () => {
  // The ledger checker after every test, not only when the app closes.
  expect((await t.services.ledger.verify()).problems).toEqual([]);
});

describe('custody changed after midnight, before the day is settled', () => {
  // 11-20: A and B put 1000 each, E 400, in 30-day custody. At 00:02 on 11-22, before 11-21 is
  // settled: B redeems, C puts 3000 in custody, E adds 200 (7 days).
  beforeAll(async () => {
    await startWorld({ a: '1000', b: '1000', c: '3000', d: '1000', e: '600' });
    orderOf.a = await open('a', 30, '1000');
    orderOf.b = await open('b', 30, '1000');
    orderOf.e400 = await open('e', 30, '400');
    now = new Date('2026-11-20T16:05:00Z'); // 00:05 on 11-21
    await t.services.settlement.settle('2026-11-20');
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('an order whose last day has ended keeps the renewal choice it had then', async () => {
    now = new Date('2026-11-21T16:01:00Z'); // 00:01 on 11-22: D's last day (11-21) has ended, unsettled
    const turnedOff = await call('POST', '/api/hosting/auto_renew', member.d.token, { orderId: orderOf.d, autoRenew: false });
    expect(turnedOff).toMatchObject({
      code: 409,
      message: "This order's term has ended: whether it renews was fixed at the end of its last day",
    });
    expect(await orderById('d', orderOf.d)).toMatchObject({ status: 'active', autoRenew: true });
  });

  it('custody opened then has no share of the day before; one redeemed then has its full last day; a renewal counts once', async () => {
    expect((await call('PUT', '/api/admin/dividend/pools/2026-11-21', finance, { amount: '90' })).code).toBe(200);
    now = new Date('2026-11-21T16:02:00Z'); // 00:02 on 11-22: 11-21 has ended, its settlement has not run
    // 1000 − 5 % = 950 back.
    expect(await redeem('b', orderOf.b)).toMatchObject({ status: 'redeemed', returnedAmount: '950.0000', penalty: '50.0000' });
    orderOf.c = await open('c', 30, '3000');
    orderOf.e200 = await open('e', 7, '200');
    now = new Date('2026-11-21T16:05:00Z');
    const balances = await trackBalances(t, names());
    expect(await t.services.settlement.settle('2026-11-21')).toMatchObject({ status: 'completed' });
    // The interest below, from the interest account; D's renewal keeps its 1000 in custody and the
    // dividend shares are claimable, not paid: nothing else moves.
    await balances.expectChanges({
      'a:USDT:available': '1.2000',
      'b:USDT:available': '1.2000',
      'd:USDT:available': '1.0000',
      'e:USDT:available': '0.4800',
      'platform:interest:USDT': '-3.8800',
    });

    // Interest of 11-21, for orders held through the day: A 1000 × 0.0012 = 1.2000; B 1.2000 (its last
    // full day); D's 7th and last day 1000 × 0.001 = 1.0000; E 400 × 0.0012 = 0.4800. C and E's 200
    // started on 11-22; D's renewal started on 11-21 and earns from 11-22. 4 orders, 3.8800.
    expect(await run('2026-11-21')).toMatchObject({
      ordersAccrued: 4,
      interestTotal: '3.8800',
      ordersRenewed: 1,
      ordersExpired: 0,
      dividendShares: 3,
      dividendTotal: '90.0000',
    });
    expect(await orderById('a', orderOf.a)).toMatchObject({ daysAccrued: 1, interestSoFar: '1.2000' });
    expect(await orderById('b', orderOf.b)).toMatchObject({ status: 'redeemed', daysAccrued: 1, interestSoFar: '1.2000' });
    expect(await availableOf(t, member.b.accountId, 'USDT')).toBe('951.2000');
    expect(await orderById('c', orderOf.c)).toMatchObject({ daysAccrued: 0, interestSoFar: '0.0000' });
    expect(await orderById('d', orderOf.d)).toMatchObject({ status: 'expired', daysAccrued: 7, interestSoFar: '7.0000' });
    const renewal = (await ordersOf('d')).find((item) => item.renewedFromId === orderOf.d)!;
    expect(renewal).toMatchObject({ startDate: '2026-11-21', endDate: '2026-11-28', amount: '1000.0000', daysAccrued: 0 });

    // Custody at the end of 11-21: A 1000, B 1000 (redeemed on 11-22), D 1000 (the order ending that
    // day hands over to its renewal: counted once), E 400 (below 500: not valid; the 200 came on 11-22),
    // C nothing yet. Pool 90 over 3000: 30.0000 each.
    expect(await sharesOf('2026-11-21')).toEqual({
      a: { custody: '1000.0000', amount: '30.0000' },
      b: { custody: '1000.0000', amount: '30.0000' },
      d: { custody: '1000.0000', amount: '30.0000' },
    });
  });
});

describe('a failed day run again after custody changed', () => {
  // 11-20: A 1000 and E 400 in 30-day custody; 11-21: C 3000 (30 days) and E 200 (7 days); D renews
  // on 11-21 (R). 11-22 fails part-way; at 10:00 on 11-24, before it is run again, A and D (R)
  // redeem and F puts 5000 in custody.
  beforeAll(async () => {
    await startWorld({ a: '1000', c: '3000', d: '1000', e: '600', f: '5000' });
    orderOf.a = await open('a', 30, '1000');
    orderOf.e400 = await open('e', 30, '400');
    now = new Date('2026-11-21T02:00:00Z');
    orderOf.c = await open('c', 30, '3000');
    orderOf.e200 = await open('e', 7, '200');
    now = new Date('2026-11-21T16:05:00Z');
    await t.services.settlement.settle('2026-11-20');
    await t.services.settlement.settle('2026-11-21');
    orderOf.r = (await ordersOf('d')).find((item) => item.renewedFromId === orderOf.d)!.id;
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('pays what the day earned as it ended, each order once', async () => {
    expect((await call('PUT', '/api/admin/dividend/pools/2026-11-22', finance, { amount: '56' })).code).toBe(200);
    const balances = await trackBalances(t, names());
    // One order per range; the run fails on the second range with interest due.
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
    now = new Date('2026-11-22T16:05:00Z');
    await expect(crashing.settle('2026-11-22')).rejects.toThrow(/went away/);
    expect(await run('2026-11-22')).toMatchObject({ status: 'failed', error: 'the database went away' });
    // The first range (A, the oldest order due) was paid before the failure; E's 400 was not.
    expect(await orderById('a', orderOf.a)).toMatchObject({ daysAccrued: 2, interestSoFar: '2.4000' });
    expect(await orderById('e', orderOf.e400)).toMatchObject({ daysAccrued: 1, interestSoFar: '0.4800' });

    now = new Date('2026-11-24T02:00:00Z'); // 10:00 on 11-24, 11-22 still failed
    await redeem('a', orderOf.a);
    await redeem('d', orderOf.r);
    orderOf.f = await open('f', 30, '5000');
    expect(await t.services.settlement.settle('2026-11-22')).toMatchObject({ status: 'completed' });
    expect(await t.services.settlement.settle('2026-11-22')).toBeNull();
    // Over the failed run, the redemptions, F's order and the run again: 11-22's interest once (A 1.2,
    // C 3.6, D 1.0, E 0.48 + 0.2); A and D 950 back each (1000 less 5 %, the penalties to fees); F's
    // 5000 into custody.
    await balances.expectChanges({
      'a:USDT:available': '951.2000',
      'a:USDT:custody': '-1000.0000',
      'c:USDT:available': '3.6000',
      'd:USDT:available': '951.0000',
      'd:USDT:custody': '-1000.0000',
      'e:USDT:available': '0.6800',
      'f:USDT:available': '-5000.0000',
      'f:USDT:custody': '5000.0000',
      'platform:fees:USDT': '100.0000',
      'platform:interest:USDT': '-6.4800',
    });

    // Interest of 11-22: A 1.2000 (paid before the failure, not again), E 400 × 0.0012 = 0.4800,
    // C 3000 × 0.0012 = 3.6000, E 200 × 0.001 = 0.2000, D's renewal 1000 × 0.001 = 1.0000 (held all of
    // 11-22, redeemed on 11-24). 5 orders, 6.4800.
    expect(await run('2026-11-22')).toMatchObject({
      status: 'completed',
      ordersAccrued: 5,
      interestTotal: '6.4800',
      dividendShares: 4,
      dividendTotal: '56.0000',
    });
    expect(await orderById('a', orderOf.a)).toMatchObject({ status: 'redeemed', daysAccrued: 2, interestSoFar: '2.4000' });
    expect(await orderById('e', orderOf.e400)).toMatchObject({ daysAccrued: 2, interestSoFar: '0.9600' });
    expect(await orderById('d', orderOf.r)).toMatchObject({ status: 'redeemed', daysAccrued: 1, interestSoFar: '1.0000' });
    // Custody at the end of 11-22: A 1000, C 3000, D 1000 (its renewal, once), E 400 + 200 = 600; F
    // came on 11-24. Pool 56 over 5600: 10.0000, 30.0000, 10.0000 and 6.0000.
    expect(await sharesOf('2026-11-22')).toEqual({
      a: { custody: '1000.0000', amount: '10.0000' },
      c: { custody: '3000.0000', amount: '30.0000' },
      d: { custody: '1000.0000', amount: '10.0000' },
      e: { custody: '600.0000', amount: '6.0000' },
    });
  });

  it('an order redeemed on a day earns every day before it, whenever those days are settled, and none from it', async () => {
    // Still 10:00 on 11-24: 11-23 is settled after A and D redeemed; both held all of 11-23.
    const balances = await trackBalances(t, names());
    await t.services.settlement.settle('2026-11-23');
    await balances.expectChanges({
      'a:USDT:available': '1.2000',
      'c:USDT:available': '3.6000',
      'd:USDT:available': '1.0000',
      'e:USDT:available': '0.6800',
      'platform:interest:USDT': '-6.4800',
    });
    // A 1.2000, D's renewal 1.0000, E 0.4800 + 0.2000, C 3.6000: 5 orders, 6.4800.
    expect(await run('2026-11-23')).toMatchObject({ ordersAccrued: 5, interestTotal: '6.4800' });
    expect(await orderById('d', orderOf.r)).toMatchObject({ daysAccrued: 2, interestSoFar: '2.0000' });
    expect(await orderById('a', orderOf.a)).toMatchObject({ daysAccrued: 3, interestSoFar: '3.6000' });
    // A: 1000 − 5 % = 950 back, and 3 × 1.2000 of interest (its dividends are claimable, not cash).
    expect(await availableOf(t, member.a.accountId, 'USDT')).toBe('953.6000');

    now = new Date('2026-11-24T16:05:00Z');
    await t.services.settlement.settle('2026-11-24');
    await balances.expectChanges({
      'c:USDT:available': '3.6000',
      'e:USDT:available': '0.6800',
      'platform:interest:USDT': '-4.2800',
    });
    // Redeemed during 11-24: A and D earn nothing for it; C 3.6000, E 0.4800 + 0.2000; F started on 11-24.
    expect(await run('2026-11-24')).toMatchObject({ ordersAccrued: 3, interestTotal: '4.2800' });
    expect(await orderById('a', orderOf.a)).toMatchObject({ daysAccrued: 3 });
    expect(await orderById('d', orderOf.r)).toMatchObject({ daysAccrued: 2 });
    expect(await orderById('f', orderOf.f)).toMatchObject({ daysAccrued: 0 });
  });
});
