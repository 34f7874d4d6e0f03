import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DividendPool, HostingConfig, HostingOrder, SettlementRun } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { AppError } from '../src/http/app-error.js';
import { createLogger } from '../src/lib/logger.js';
import { HostingRepository } from '../src/modules/hosting/hosting.repository.js';
import { SettlementService } from '../src/modules/hosting/settlement.service.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Settlement days run strictly in order (docs/decisions/017-settlement-days-in-order.md): a day runs
 * only once the day before it has completed, never before it has ended, and the job fills every gap;
 * and a dividend pool can be set only for a day not yet settled, and removed until it is shared.
 */

// 10:00 in Shanghai on 2026-11-23: orders made now start that day.
let now = new Date('2026-11-23T02:00:00Z');
const clock = { now: () => now };

let t: TestApp;
let token: string;
let finance: string;
let orderId: string;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

const rerun = (day: string) => call<SettlementRun>('POST', `/api/admin/settlement/runs/${day}/rerun`, finance);

async function orders(): Promise<HostingOrder[]> {
  return (await call<{ items: HostingOrder[] }>('GET', '/api/hosting/order?pageSize=100', token)).body.data.items;
}

async function runDays(): Promise<string[]> {
  const rows = await queryRows<{ day: string }>(
    t.testDatabase.database.db,
    sql`select day::text as day from settlement_runs order by day`,
  );
  return rows.map((row) => row.day);
}

async function auditedActions(targetId: string): Promise<string[]> {
  return (await t.services.audit.list({ targetId }, 20, 0)).items.map((item) => item.entry.action).sort();
}

/** Another settlement instance on the same database, with `change` applied to its repository. */
function instance(change: (repository: HostingRepository) => void = () => undefined): SettlementService {
  const repository = new HostingRepository(t.testDatabase.database.db);
  change(repository);
  return new SettlementService(
    t.testDatabase.database.db,
    repository,
    t.services.ledger,
    t.services.audit,
    'Asia/Shanghai',
    clock,
    createLogger('silent'),
  );
}

let accountId: string;

/** The 700's interest over some days (0.7 a day), from the interest account, and nothing else. */
function interestOf(amount: string): Record<string, string> {
  return { 'member:USDT:available': amount, 'platform:interest:USDT': `-${amount}` };
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  token = await registerMember(t, 'in-order@example.com');
  accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  await fund(t, accountId, 'USDT', '1000');
  finance = await operatorToken(t, 'order-finance', 'finance');
  const plan = (await call<HostingConfig>('GET', '/api/hosting/config', token)).body.data.plans.find(
    (item) => item.periodDays === 7,
  )!;
  // 7 days at 0.1 % a day, renewing: it earns 2026-11-24 … 2026-11-30 and renews on 2026-11-30.
  const created = await call<HostingOrder>('POST', '/api/hosting/create', token, {
    planId: plan.id,
    amount: '700',
    autoRenew: true,
    tradePassword: 'trade-pass-1',
    idempotencyKey: randomUUID(),
  });
  expect(created.body.data).toMatchObject({ startDate: '2026-11-23', endDate: '2026-11-30' });
  orderId = created.body.data.id;
});
afterAll(async () => {
  await t.close();
});

describe('settlement days in order', () => {
  it('starts on the first order’s day and refuses the days before it', async () => {
    now = new Date('2026-11-30T02:00:00Z');
    const balances = await trackBalances(t, { member: accountId });
    const runs = await t.services.settlement.settleDue();
    expect(runs.map((run) => run.day)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect((await rerun('2026-11-22')).body).toMatchObject({
      code: 409,
      message: 'Settlement starts on 2026-11-23; there is nothing to settle before it',
    });
    expect(await runDays()).not.toContain('2026-11-22');
    // 11-24 … 11-29.
    await balances.expectChanges(interestOf('4.2000'));
  });

  it('refuses to run 12-01 while 11-30 has failed; 11-30 then pays the 7th day and renews on time', async () => {
    const balances = await trackBalances(t, { member: accountId });
    // 11-30 fails before paying anything.
    const failing = instance((repository) => {
      repository.hasInterestDue = () => Promise.reject(new Error('the database went away'));
    });
    now = new Date('2026-12-01T02:00:00Z');
    await expect(failing.settle('2026-11-30')).rejects.toThrow(/went away/);

    now = new Date('2026-12-02T02:00:00Z');
    const early = await rerun('2026-12-01');
    expect(early.body).toMatchObject({ code: 409, message: 'Days are settled in order: settle 2026-11-30 first' });
    // Nothing ran and nothing was recorded: the order still waits for its 7th day.
    expect(await runDays()).not.toContain('2026-12-01');
    expect(await auditedActions('2026-12-01')).toEqual([]);
    expect((await orders()).find((order) => order.id === orderId)).toMatchObject({ status: 'active', daysAccrued: 6 });
    // The service refuses it too, whoever calls it (the job, the shell).
    await expect(t.services.settlement.settle('2026-12-01')).rejects.toMatchObject({
      messageKey: 'settlement.out_of_order',
      params: { day: '2026-11-30' },
    });
    await balances.expectChanges({});

    expect((await rerun('2026-11-30')).body).toMatchObject({ code: 200, data: { day: '2026-11-30', status: 'completed' } });
    const [renewal, ended] = [
      (await orders()).find((order) => order.renewedFromId === orderId),
      (await orders()).find((order) => order.id === orderId),
    ];
    expect(ended).toMatchObject({ status: 'expired', daysAccrued: 7, interestSoFar: '4.9000' });
    expect(renewal).toMatchObject({ status: 'active', startDate: '2026-11-30', endDate: '2026-12-07', amount: '700.0000' });
    expect((await rerun('2026-12-01')).body).toMatchObject({ code: 200, data: { day: '2026-12-01', status: 'completed' } });
    expect((await rerun('2026-12-01')).body).toMatchObject({ code: 409, message: 'That day has been settled already' });
    expect((await rerun('2026-12-02')).body).toMatchObject({ code: 409, message: 'That day has not ended yet' });
    // 11-30 (the 7th day; the renewal keeps the 700 in custody) and the renewal's 12-01, once each.
    await balances.expectChanges(interestOf('1.4000'));
  });

  it('refuses a day that has not ended, so it can never block the days before it', async () => {
    await expect(t.services.settlement.settle('2099-01-01')).rejects.toMatchObject({ messageKey: 'settlement.day_not_over' });
    await expect(t.services.settlement.settle('2026-12-02')).rejects.toMatchObject({ messageKey: 'settlement.day_not_over' });
    expect(await runDays()).not.toContain('2099-01-01');
    now = new Date('2026-12-03T02:00:00Z');
    const balances = await trackBalances(t, { member: accountId });
    expect((await t.services.settlement.settleDue()).map((run) => run.day)).toEqual(['2026-12-02']);
    await balances.expectChanges(interestOf('0.7000'));
  });

  it('the job fills every gap, oldest first, even behind a later day marked done', async () => {
    // What `npm run settle -- --day 2099-01-01` used to leave behind.
    await t.testDatabase.database.db.execute(
      sql`insert into settlement_runs (day, status, finished_at) values ('2099-01-01', 'completed', now())`,
    );
    now = new Date('2026-12-06T02:00:00Z');
    const balances = await trackBalances(t, { member: accountId });
    expect((await t.services.settlement.settleDue()).map((run) => run.day)).toEqual(['2026-12-03', '2026-12-04', '2026-12-05']);
    await balances.expectChanges(interestOf('2.1000'));
    expect(await t.services.settlement.settleDue()).toEqual([]);
    const renewal = (await orders()).find((order) => order.renewedFromId === orderId);
    expect(renewal).toMatchObject({ daysAccrued: 5, interestSoFar: '3.5000' });
  });
});

describe('dividend pools and settled days', () => {
  const pools = async () => (await call<DividendPool[]>('GET', '/api/admin/dividend/pools', finance)).body.data;

  it('refuses a pool for a day already settled, or before the first day, changing nothing', async () => {
    for (const day of ['2026-12-05', '2026-11-23', '2026-11-20']) {
      expect((await call('PUT', `/api/admin/dividend/pools/${day}`, finance, { amount: '100' })).body).toMatchObject({
        code: 409,
        message: "That day's settlement has already run; set the pool for a day not yet settled",
      });
      expect(await auditedActions(day)).not.toContain('dividend.pool_set');
    }
    expect(await pools()).toEqual([]);
  });

  it('refuses a pool for a day whose settlement is running', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    const slow = instance();
    slow.addStep({
      name: 'gate',
      run: async () => {
        reached();
        await gate;
      },
    });
    now = new Date('2026-12-07T02:00:00Z');
    const running = slow.settle('2026-12-06');
    await atGate;
    expect((await call('PUT', '/api/admin/dividend/pools/2026-12-06', finance, { amount: '100' })).body).toMatchObject({
      code: 409,
      message: "That day's settlement has already run; set the pool for a day not yet settled",
    });
    release();
    expect(await running).toMatchObject({ status: 'completed', dividendShares: 0 });
    expect(await pools()).toEqual([]);
  });

  it('removes a pool not yet shared (audited), and never one shared out', async () => {
    const support = await operatorToken(t, 'order-support', 'support');
    expect((await call('PUT', '/api/admin/dividend/pools/2026-12-08', finance, { amount: '100' })).body.code).toBe(200);
    expect((await call('DELETE', '/api/admin/dividend/pools/2026-12-08', support)).status).toBe(403);
    const removed = await call<DividendPool[]>('DELETE', '/api/admin/dividend/pools/2026-12-08', finance);
    expect(removed.body).toMatchObject({ code: 200, data: [] });
    expect(await auditedActions('2026-12-08')).toEqual(['dividend.pool_removed', 'dividend.pool_set']);
    expect((await call('DELETE', '/api/admin/dividend/pools/2026-12-08', finance)).status).toBe(404);

    // Shared out by its day's settlement: it stays.
    expect((await call('PUT', '/api/admin/dividend/pools/2026-12-07', finance, { amount: '100' })).body.code).toBe(200);
    now = new Date('2026-12-08T02:00:00Z');
    expect(await t.services.settlement.settle('2026-12-07')).toMatchObject({ dividendShares: 1, dividendTotal: '100.0000' });
    for (const method of ['DELETE', 'PUT'] as const) {
      expect((await call(method, '/api/admin/dividend/pools/2026-12-07', finance, { amount: '5' })).body).toMatchObject({
        code: 409,
        message: 'The dividend of that day has been shared out already',
      });
    }

    // A pool the old rules let in for a settled day, never shared: it can be removed.
    await t.testDatabase.database.db.execute(sql`insert into dividend_pools (day, amount) values ('2026-12-05', 50)`);
    expect((await call<DividendPool[]>('DELETE', '/api/admin/dividend/pools/2026-12-05', finance)).body.data).toEqual([
      { day: '2026-12-07', amount: '100.0000', distributed: '100.0000', members: 1, claimed: '0.0000' },
    ]);
  });
});

describe('a console rerun that fails', () => {
  it('answers why, audits the failure and leaves the day to run again; the day pays its interest once', async () => {
    // The next day in order is 2026-12-08 (2026-12-07 completed above). A step added to the app's own
    // settlement fails the day's runs while `failure` is set, after the interest step has committed.
    let failure: Error | null = new Error('the disk is full\nat step three');
    t.services.settlement.addStep({
      name: 'failing-while-set',
      run: () => (failure ? Promise.reject(failure) : Promise.resolve()),
    });
    now = new Date('2026-12-09T02:00:00Z');
    const tracked = await trackBalances(t, { member: accountId });

    const failed = await rerun('2026-12-08');
    expect(failed).toMatchObject({ status: 409, body: { code: 409, message: 'The settlement failed: the disk is full' } });
    const audited = await t.services.audit.list({ targetId: '2026-12-08' }, 20, 0);
    // (The day's other audit rows are the pool set and removed above.)
    const settlementRows = audited.items.filter((item) => item.entry.action.startsWith('settlement.'));
    expect(settlementRows.map((item) => [item.entry.action, item.entry.after]).sort()).toEqual([
      ['settlement.rerun_failed', { error: 'the disk is full' }],
      ['settlement.rerun_started', { day: '2026-12-08' }],
    ]);
    const listed = (await call<SettlementRun[]>('GET', '/api/admin/settlement/runs', finance)).body.data;
    const failedRun = listed.find((run) => run.day === '2026-12-08')!;
    expect(failedRun).toMatchObject({ status: 'failed', error: 'the disk is full' });
    expect(new Date(failedRun.finishedAt!).getTime()).toBeGreaterThanOrEqual(new Date(failedRun.startedAt).getTime());
    // The interest step committed before the failing one: the day's 0.7 is paid.
    await tracked.expectChanges(interestOf('0.7000'));

    // A refusal of the platform's own (an AppError) is answered as itself, not wrapped.
    failure = AppError.conflict('settlement.day_not_over');
    expect((await rerun('2026-12-08')).body).toMatchObject({ code: 409, message: 'That day has not ended yet' });

    failure = null;
    const done = await rerun('2026-12-08');
    expect(done.body).toMatchObject({ code: 200, data: { day: '2026-12-08', status: 'completed', error: null } });
    expect(done.body.data.finishedAt).not.toBeNull();
    // Run three times, paid once: nothing more since the first try.
    await tracked.expectChanges({});
    expect((await rerun('2026-12-08')).body).toMatchObject({ code: 409, message: 'That day has been settled already' });
  });
});
