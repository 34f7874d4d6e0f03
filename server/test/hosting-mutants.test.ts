// What the hosting tests left unchecked, found by mutation testing (decision 056): the custody
// interest entry's kind, reference and record types (read back, with every account's change).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostingConfig, HostingLogItem, HostingOrder, HostingPlan } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let now = new Date('2026-11-20T02:00:00Z'); // 10:00 in Shanghai: custody opened now earns from 11-21
let t: TestApp;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

beforeAll(async () => {
  t = await createTestApp({}, { clock: { now: () => now } });
});
afterAll(async () => {
  await t.close();
});

describe('custody interest, as mutation testing found it unchecked', () => {
  it('pays a day’s interest as one custody_interest entry naming the day, from the interest account', async () => {
    const token = await registerMember(t, 'hosting-mutants-interest@example.com');
    const accountId = await accountIdOf(t, token);
    await setTradePassword(t, token);
    await fund(t, accountId, 'USDT', '1000');
    const plan = (await call<HostingConfig>(token, 'GET', '/api/hosting/config')).body.data.plans.find(
      (item) => item.periodDays === 30,
    )!;
    const opened = await call(token, 'POST', '/api/hosting/create', {
      planId: plan.id,
      amount: '1000',
      autoRenew: false,
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
    });
    expect(opened.body.code).toBe(200);
    const balances = await trackBalances(t, { member: accountId });

    now = new Date('2026-11-22T02:00:00Z');
    await t.services.settlement.settle('2026-11-20');
    await t.services.settlement.settle('2026-11-21');
    // 0.12 % a day of 1000 USDT, for 11-21 only (custody opened on 11-20 earns from the next day).
    await balances.expectChanges({ 'member:USDT:available': '1.2000', 'platform:interest:USDT': '-1.2000' });
    const entries = await queryRows<{ kind: string; reference_type: string; reference_id: string; record_types: string[] }>(
      t.testDatabase.database.db,
      sql`select e.kind, e.reference_type, e.reference_id,
                 array(select p.record_type from postings p where p.entry_id = e.id order by p.id) as record_types
          from journal_entries e where e.idempotency_key like 'custody-interest:%' order by e.id`,
    );
    expect(entries).toEqual([
      {
        kind: 'custody_interest',
        reference_type: 'settlement_day',
        reference_id: '2026-11-21',
        record_types: ['interest', 'interest'],
      },
    ]);
  });
});

// ── Found by the run over the whole module (2026-12-02): the console's plans, the config, the deposit's
// bounds, replays and entry, early redemption at its edges, auto-renew, and the lists. Each test sets the
// clock forward from where the one before left it, and settles no day (so no other test's order moves).

type PlanInput = {
  name: string;
  periodDays: number;
  dailyRate: string;
  minAmount: string;
  maxAmount: string;
  earlyPenaltyRate: string;
  autoRenewAllowed: boolean;
};

async function funded(email: string, amount: string | null) {
  const token = await registerMember(t, email);
  const accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  if (amount !== null) await fund(t, accountId, 'USDT', amount);
  return { token, accountId };
}

async function newPlan(operator: string, input: PlanInput): Promise<HostingPlan> {
  const created = await call<HostingPlan>(operator, 'POST', '/api/admin/hosting/plans', input);
  expect(created.body.code).toBe(200);
  return created.body.data;
}

function deposit(token: string, planId: string, amount: string, autoRenew = false, idempotencyKey = randomUUID()) {
  return call<HostingOrder>(token, 'POST', '/api/hosting/create', {
    planId,
    amount,
    autoRenew,
    tradePassword: 'trade-pass-1',
    idempotencyKey,
  });
}

function redeem(token: string, orderId: string) {
  return call<HostingOrder>(token, 'POST', '/api/hosting/sub', { orderId, tradePassword: 'trade-pass-1' });
}

function setRenew(token: string, orderId: string, autoRenew: boolean) {
  return call<HostingOrder>(token, 'POST', '/api/hosting/auto_renew', { orderId, autoRenew });
}

function logOf(token: string, orderId: string, query = '') {
  return call<{ items: HostingLogItem[]; total: number; page: number; pageSize: number }>(
    token,
    'GET',
    `/api/hosting/operator_log?orderId=${orderId}${query}`,
  );
}

/** The ledger entries that name `referenceId`, with their postings' record types, in order. */
function entriesOf(referenceId: string) {
  return queryRows<{ kind: string; reference_type: string; record_types: string[] }>(
    t.testDatabase.database.db,
    sql`select e.kind, e.reference_type,
               array(select p.record_type from postings p where p.entry_id = e.id order by p.id) as record_types
        from journal_entries e where e.reference_id = ${referenceId} order by e.id`,
  );
}

async function auditOf(targetId: string) {
  const audited = await t.services.audit.list({ targetId }, 10, 0);
  return audited.items
    .map(({ entry }) => ({ action: entry.action, targetType: entry.targetType, before: entry.before, after: entry.after }))
    .reverse();
}

describe('the console’s plans, the deposit and the redemption, as mutation testing found them unchecked', () => {
  it('creates, edits, retires and reactivates a plan, each audited, and lists it with its active orders', async () => {
    now = new Date('2026-11-23T02:00:00Z');
    const operator = await operatorToken(t, 'hosting-mutants-plans', 'finance');
    const input: PlanInput = {
      name: 'Mutants 45',
      periodDays: 45,
      dailyRate: '0.00150',
      minAmount: '50',
      maxAmount: '5000.5',
      earlyPenaltyRate: '0.020',
      autoRenewAllowed: false,
    };
    const plan = await newPlan(operator, input);
    expect(plan).toEqual({
      id: expect.any(String) as string,
      name: 'Mutants 45',
      periodDays: 45,
      dailyRate: '0.0015',
      minAmount: '50.0000',
      maxAmount: '5000.5000',
      earlyPenaltyRate: '0.02',
      autoRenewAllowed: false,
      status: 'active',
    });

    const { token, accountId } = await funded('hosting-mutants-plans@example.com', '100');
    const balances = await trackBalances(t, { member: accountId });
    const order = (await deposit(token, plan.id, '60')).body.data;
    expect(order).toMatchObject({ planId: plan.id, planName: 'Mutants 45', dailyRate: '0.0015', earlyPenaltyRate: '0.02' });
    await balances.expectChanges({ 'member:USDT:available': '-60.0000', 'member:USDT:custody': '60.0000' });
    const listed = async () =>
      (await call<(HostingPlan & { activeOrders: number })[]>(operator, 'GET', '/api/admin/hosting/plans')).body.data.find(
        (item) => item.id === plan.id,
      );
    expect(await listed()).toEqual({ ...plan, activeOrders: 1 });

    const edited: PlanInput = { ...input, name: 'Mutants 45b', dailyRate: '0.002', maxAmount: '6000', autoRenewAllowed: true };
    const updated = await call<HostingPlan>(operator, 'PUT', `/api/admin/hosting/plans/${plan.id}`, edited);
    expect(updated.body.data).toEqual({
      ...plan,
      name: 'Mutants 45b',
      dailyRate: '0.002',
      maxAmount: '6000.0000',
      autoRenewAllowed: true,
    });
    // The running order keeps the terms it was made with.
    const orders = (await call<{ items: HostingOrder[] }>(token, 'GET', '/api/hosting/order')).body.data.items;
    expect(orders).toEqual([expect.objectContaining({ id: order.id, planName: 'Mutants 45', dailyRate: '0.0015' })]);

    const retired = await call<HostingPlan>(operator, 'POST', `/api/admin/hosting/plans/${plan.id}/retire`);
    expect(retired.body.data).toEqual({ ...updated.body.data, status: 'retired' });
    // The console still lists a retired plan; members no longer see it.
    expect(await listed()).toEqual({ ...updated.body.data, status: 'retired', activeOrders: 1 });
    const offered = (await call<HostingConfig>(token, 'GET', '/api/hosting/config')).body.data.plans;
    expect(offered.map((item) => item.id)).not.toContain(plan.id);
    const activated = await call<HostingPlan>(operator, 'POST', `/api/admin/hosting/plans/${plan.id}/activate`);
    expect(activated.body.data).toEqual(updated.body.data);

    const missing = randomUUID();
    expect((await call(operator, 'PUT', `/api/admin/hosting/plans/${missing}`, edited)).status).toBe(404);
    expect((await call(operator, 'POST', `/api/admin/hosting/plans/${missing}/retire`)).status).toBe(404);
    expect(await auditOf(missing)).toEqual([]);
    expect(await auditOf(plan.id)).toEqual([
      { action: 'hosting.plan_created', targetType: 'hosting_plan', before: null, after: input },
      { action: 'hosting.plan_updated', targetType: 'hosting_plan', before: plan, after: edited },
      { action: 'hosting.plan_retired', targetType: 'hosting_plan', before: { status: 'active' }, after: { status: 'retired' } },
      {
        action: 'hosting.plan_reactivated',
        targetType: 'hosting_plan',
        before: { status: 'retired' },
        after: { status: 'active' },
      },
    ]);
    await balances.expectChanges({});
  });

  it('shows a member’s cash and custody, valid from exactly 500 USDT in custody', async () => {
    now = new Date('2026-11-23T03:00:00Z');
    const { token, accountId } = await funded('hosting-mutants-config@example.com', null);
    const empty = (await call<HostingConfig>(token, 'GET', '/api/hosting/config')).body.data;
    expect(empty).toMatchObject({
      cashBalance: '0.0000',
      custodyBalance: '0.0000',
      validThreshold: '500.0000',
      isValid: false,
      timeZone: 'Asia/Shanghai',
    });
    expect(empty.plans.every((item) => item.status === 'active')).toBe(true);
    await fund(t, accountId, 'USDT', '600.5');
    const balances = await trackBalances(t, { member: accountId });
    const plan = empty.plans.find((item) => item.periodDays === 30)!;
    const config = async () => (await call<HostingConfig>(token, 'GET', '/api/hosting/config')).body.data;
    expect((await deposit(token, plan.id, '399.9999')).body.code).toBe(200);
    const hundred = (await deposit(token, plan.id, '100')).body.data;
    expect(await config()).toMatchObject({ cashBalance: '100.5001', custodyBalance: '499.9999', isValid: false });
    expect((await deposit(token, plan.id, '100.0001')).body.code).toBe(200);
    expect(await config()).toMatchObject({ cashBalance: '0.5000', custodyBalance: '600.0000', isValid: true });
    // The 100 redeemed (95 back, 5 % kept): exactly 500.0000 left, still valid.
    expect((await redeem(token, hundred.id)).body.data.status).toBe('redeemed');
    expect(await config()).toMatchObject({ cashBalance: '95.5000', custodyBalance: '500.0000', isValid: true });
    await balances.expectChanges({
      'member:USDT:available': '-505.0000',
      'member:USDT:custody': '500.0000',
      'platform:fees:USDT': '5.0000',
    });
  });

  it('takes exactly the plan’s minimum and maximum as one custody_deposit entry, replays a key, and refuses the rest', async () => {
    now = new Date('2026-11-23T04:00:00Z');
    const operator = await operatorToken(t, 'hosting-mutants-bounds', 'finance');
    const plan = await newPlan(operator, {
      name: 'Mutants bounds',
      periodDays: 10,
      dailyRate: '0.001',
      minAmount: '10',
      maxAmount: '20',
      earlyPenaltyRate: '0.05',
      autoRenewAllowed: false,
    });
    const { token, accountId } = await funded('hosting-mutants-bounds@example.com', '100');
    const balances = await trackBalances(t, { member: accountId });
    for (const amount of ['9.9999', '20.0001']) {
      expect((await deposit(token, plan.id, amount)).body).toMatchObject({
        code: 409,
        message: 'This plan takes from 10.0000 to 20.0000 USDT',
      });
    }
    expect((await deposit(token, plan.id, '15', true)).body).toMatchObject({
      code: 409,
      message: 'This plan does not renew automatically',
    });
    await balances.expectChanges({});

    const key = randomUUID();
    const lowest = await deposit(token, plan.id, '10', false, key);
    expect(lowest.body.data).toMatchObject({
      amount: '10.0000',
      startDate: '2026-11-23',
      endDate: '2026-12-03',
      status: 'active',
      autoRenew: false,
    });
    const highest = await deposit(token, plan.id, '20');
    expect(highest.body.data).toMatchObject({ amount: '20.0000', status: 'active' });
    await balances.expectChanges({ 'member:USDT:available': '-30.0000', 'member:USDT:custody': '30.0000' });

    // The same key again: the same order, nothing moved; with other details: refused.
    expect((await deposit(token, plan.id, '10', false, key)).body.data).toEqual(lowest.body.data);
    for (const [amount, autoRenew] of [
      ['11', false],
      ['10', true],
    ] as const) {
      expect((await deposit(token, plan.id, amount, autoRenew, key)).body).toMatchObject({
        code: 409,
        message: 'This request was already sent with different details; please start again',
      });
    }
    await balances.expectChanges({});

    expect(await entriesOf(lowest.body.data.id)).toEqual([
      { kind: 'custody_deposit', reference_type: 'hosting_order', record_types: ['custody_deposit', 'custody_deposit'] },
    ]);
    const log = await logOf(token, lowest.body.data.id);
    expect(log.body.data).toMatchObject({
      total: 1,
      items: [{ event: 'created', amount: '10.0000', day: '2026-11-23', at: expect.any(String) as string }],
    });
  });

  it('redeems on its last day without a penalty when the plan has none, and keeps all of a dust deposit as the penalty', async () => {
    now = new Date('2026-11-23T05:00:00Z');
    const operator = await operatorToken(t, 'hosting-mutants-redeem', 'finance');
    const free = await newPlan(operator, {
      name: 'Mutants free',
      periodDays: 2,
      dailyRate: '0.001',
      minAmount: '1',
      maxAmount: '1000',
      earlyPenaltyRate: '0',
      autoRenewAllowed: true,
    });
    const dust = await newPlan(operator, {
      name: 'Mutants dust',
      periodDays: 2,
      dailyRate: '0.001',
      minAmount: '0.0001',
      maxAmount: '1',
      earlyPenaltyRate: '0.9999',
      autoRenewAllowed: false,
    });
    const { token, accountId } = await funded('hosting-mutants-redeem@example.com', '200');
    const whole = (await deposit(token, free.id, '100')).body.data;
    const late = (await deposit(token, free.id, '50')).body.data;
    const tiny = (await deposit(token, dust.id, '0.0001')).body.data;
    expect(whole.endDate).toBe('2026-11-25');
    const balances = await trackBalances(t, { member: accountId });

    // 11-25 is its last day: it may still be redeemed (the settlement of 11-25 has not run yet).
    now = new Date('2026-11-25T02:00:00Z');
    expect((await redeem(token, whole.id)).body.data).toMatchObject({
      status: 'redeemed',
      returnedAmount: '100.0000',
      penalty: '0.0000',
      closedAt: expect.any(String) as string,
    });
    await balances.expectChanges({ 'member:USDT:available': '100.0000', 'member:USDT:custody': '-100.0000' });
    // 0.0001 × 0.9999 rounds up to 0.0001: nothing comes back, all of it goes to the fees account.
    expect((await redeem(token, tiny.id)).body.data).toMatchObject({
      status: 'redeemed',
      returnedAmount: '0.0000',
      penalty: '0.0001',
    });
    await balances.expectChanges({ 'member:USDT:custody': '-0.0001', 'platform:fees:USDT': '0.0001' });
    expect(await entriesOf(whole.id)).toEqual([
      { kind: 'custody_deposit', reference_type: 'hosting_order', record_types: ['custody_deposit', 'custody_deposit'] },
      { kind: 'custody_redeem', reference_type: 'hosting_order', record_types: ['custody_redeem', 'custody_redeem'] },
    ]);
    expect((await entriesOf(tiny.id))[1]).toEqual({
      kind: 'custody_redeem',
      reference_type: 'hosting_order',
      record_types: ['custody_redeem', 'custody_penalty'],
    });
    expect((await logOf(token, whole.id)).body.data.items.map(({ event, amount, day }) => ({ event, amount, day }))).toEqual([
      { event: 'redeemed', amount: '100.0000', day: '2026-11-25' },
      { event: 'created', amount: '100.0000', day: '2026-11-23' },
    ]);

    // The day after its last day it waits for the settlement instead.
    now = new Date('2026-11-26T02:00:00Z');
    expect((await redeem(token, late.id)).body).toMatchObject({
      code: 409,
      message: "This order has reached its end date: its principal and interest return to cash at the day's settlement",
    });
    expect((await redeem(token, whole.id)).body).toMatchObject({ code: 409, message: 'This order has ended already' });
    await balances.expectChanges({});
  });

  it('turns auto-renew on and off once each, logged, until the order’s last day, and only where the plan allows it', async () => {
    now = new Date('2026-11-26T03:00:00Z');
    const operator = await operatorToken(t, 'hosting-mutants-renew', 'finance');
    const renewing = await newPlan(operator, {
      name: 'Mutants renewing',
      periodDays: 2,
      dailyRate: '0.001',
      minAmount: '1',
      maxAmount: '1000',
      earlyPenaltyRate: '0.01',
      autoRenewAllowed: true,
    });
    const fixed = await newPlan(operator, {
      name: 'Mutants fixed',
      periodDays: 2,
      dailyRate: '0.001',
      minAmount: '1',
      maxAmount: '1000',
      earlyPenaltyRate: '0.01',
      autoRenewAllowed: false,
    });
    const { token, accountId } = await funded('hosting-mutants-renew@example.com', '100');
    const balances = await trackBalances(t, { member: accountId });
    const order = (await deposit(token, renewing.id, '10')).body.data;
    const other = (await deposit(token, fixed.id, '10')).body.data;
    const ended = (await deposit(token, renewing.id, '10')).body.data;
    await balances.expectChanges({ 'member:USDT:available': '-30.0000', 'member:USDT:custody': '30.0000' });

    expect((await setRenew(token, order.id, true)).body.data).toMatchObject({ id: order.id, autoRenew: true });
    expect((await setRenew(token, order.id, true)).body.data).toMatchObject({ id: order.id, autoRenew: true });
    expect((await setRenew(token, other.id, true)).body).toMatchObject({
      code: 409,
      message: 'This plan does not renew automatically',
    });
    // Off is always allowed, and is no change for an order that is off already.
    expect((await setRenew(token, other.id, false)).body.data).toMatchObject({ id: other.id, autoRenew: false });
    expect((await logOf(token, other.id)).body.data.total).toBe(1);

    // Its last day (11-28) still takes a change; the day after does not.
    now = new Date('2026-11-28T02:00:00Z');
    expect((await setRenew(token, order.id, false)).body.data).toMatchObject({ id: order.id, autoRenew: false });
    expect((await logOf(token, order.id)).body.data.items.map(({ event, amount, day }) => ({ event, amount, day }))).toEqual([
      { event: 'auto_renew_off', amount: null, day: '2026-11-28' },
      { event: 'auto_renew_on', amount: null, day: '2026-11-26' },
      { event: 'created', amount: '10.0000', day: '2026-11-26' },
    ]);
    expect((await redeem(token, ended.id)).body.data.status).toBe('redeemed');
    expect((await setRenew(token, ended.id, true)).body).toMatchObject({ code: 409, message: 'This order has ended already' });
    now = new Date('2026-11-29T02:00:00Z');
    expect((await setRenew(token, order.id, true)).body).toMatchObject({
      code: 409,
      message: "This order's term has ended: whether it renews was fixed at the end of its last day",
    });
    // 10 back from the redeemed order, less its 1 % penalty.
    await balances.expectChanges({
      'member:USDT:available': '9.9000',
      'member:USDT:custody': '-10.0000',
      'platform:fees:USDT': '0.1000',
    });
  });

  it('lists a member’s orders and an order’s log by status, one page at a time, and the console’s by e-mail', async () => {
    now = new Date('2026-11-29T03:00:00Z');
    const operator = await operatorToken(t, 'hosting-mutants-lists', 'finance');
    const { token, accountId } = await funded('hosting-mutants-lists@example.com', '1000');
    const balances = await trackBalances(t, { member: accountId });
    const plan = (await call<HostingConfig>(token, 'GET', '/api/hosting/config')).body.data.plans.find(
      (item) => item.periodDays === 7,
    )!;
    const ids: string[] = [];
    for (const amount of ['100', '200', '300']) ids.push((await deposit(token, plan.id, amount)).body.data.id);
    expect((await redeem(token, ids[0]!)).body.data.status).toBe('redeemed');
    // 100 back less the 7-day plan's penalty (5 %), 500 still in custody.
    await balances.expectChanges({
      'member:USDT:available': '-505.0000',
      'member:USDT:custody': '500.0000',
      'platform:fees:USDT': '5.0000',
    });

    type Page = { items: HostingOrder[]; total: number; page: number; pageSize: number };
    const second = (await call<Page>(token, 'GET', '/api/hosting/order?page=2&pageSize=2')).body.data;
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.items.map((item) => item.amount)).toEqual(['100.0000']);
    const active = (await call<Page>(token, 'GET', '/api/hosting/order?status=active')).body.data;
    expect(active).toMatchObject({ total: 2 });
    expect(active.items.map((item) => item.amount)).toEqual(['300.0000', '200.0000']);

    const log = (await logOf(token, ids[0]!, '&page=2&pageSize=1')).body.data;
    expect(log).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(log.items.map(({ event, amount }) => ({ event, amount }))).toEqual([{ event: 'created', amount: '100.0000' }]);

    type AdminPage = { items: (HostingOrder & { memberEmail: string; accountId: string })[]; total: number };
    const mine = (
      await call<AdminPage>(operator, 'GET', '/api/admin/hosting/orders?query=Hosting-Mutants-Lists@example.com&status=redeemed')
    ).body.data;
    expect(mine.total).toBe(1);
    expect(mine.items).toEqual([
      expect.objectContaining({
        id: ids[0],
        amount: '100.0000',
        status: 'redeemed',
        memberEmail: 'hosting-mutants-lists@example.com',
        accountId,
      }),
    ]);
    const paged = (
      await call<AdminPage & { page: number; pageSize: number }>(
        operator,
        'GET',
        '/api/admin/hosting/orders?query=hosting-mutants-lists@example.com&page=2&pageSize=2',
      )
    ).body.data;
    expect(paged).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(paged.items.map((item) => item.id)).toEqual([ids[0]]);
  });

  it('makes one order when two deposits race on one key, answers both with it, and refuses a racing one with other details', async () => {
    now = new Date('2026-11-29T04:00:00Z');
    const { token, accountId } = await funded('hosting-mutants-race@example.com', '500');
    const plan = (await call<HostingConfig>(token, 'GET', '/api/hosting/config')).body.data.plans.find(
      (item) => item.periodDays === 30,
    )!;
    const balances = await trackBalances(t, { member: accountId });
    const key = randomUUID();
    const [first, second] = await Promise.all([
      deposit(token, plan.id, '100', false, key),
      deposit(token, plan.id, '100', false, key),
    ]);
    expect(first.body.code).toBe(200);
    expect(second.body).toMatchObject({ code: 200, data: { id: first.body.data.id, amount: '100.0000' } });
    await balances.expectChanges({ 'member:USDT:available': '-100.0000', 'member:USDT:custody': '100.0000' });

    const other = randomUUID();
    const raced = await Promise.all([deposit(token, plan.id, '100', false, other), deposit(token, plan.id, '200', false, other)]);
    const winner = raced.find((result) => result.body.code === 200)!;
    expect(raced.map((result) => result.body.code).sort()).toEqual([200, 409]);
    expect(raced.find((result) => result.body.code === 409)!.body.message).toBe(
      'This request was already sent with different details; please start again',
    );
    const moved = winner.body.data.amount;
    await balances.expectChanges({ 'member:USDT:available': `-${moved}`, 'member:USDT:custody': moved });
    const orders = await queryRows<{ n: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as n from hosting_orders where account_id = ${accountId}::uuid`,
    );
    expect(orders).toEqual([{ n: 2 }]);
  });

  it('pages an order’s log by the page size', async () => {
    now = new Date('2026-11-29T05:00:00Z');
    const { token, accountId } = await funded('hosting-mutants-log-pages@example.com', '100');
    const plan = (await call<HostingConfig>(token, 'GET', '/api/hosting/config')).body.data.plans.find(
      (item) => item.periodDays === 7,
    )!;
    const balances = await trackBalances(t, { member: accountId });
    const order = (await deposit(token, plan.id, '100')).body.data;
    await balances.expectChanges({ 'member:USDT:available': '-100.0000', 'member:USDT:custody': '100.0000' });
    expect((await setRenew(token, order.id, true)).body.code).toBe(200);
    expect((await setRenew(token, order.id, false)).body.code).toBe(200);
    // Three events in pages of two: the second page starts at the third (offset 2).
    const second = (await logOf(token, order.id, '&page=2&pageSize=2')).body.data;
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.items.map(({ event, amount }) => ({ event, amount }))).toEqual([{ event: 'created', amount: '100.0000' }]);
    await balances.expectChanges({});
  });
});
