// What the earnings tests left unchecked, found by mutation testing (decision 056): custody of exactly
// the valid threshold, the dividend records paged and their claim time, the audit rows of setting
// and removing a pool, a pool refused for a day already settled, a pool removed (or refused once
// shared out, or not found), and the income log of a team type for a member without team earnings.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiInfo, DividendPool, HostingConfig, IncomeItem } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let now = new Date('2026-11-20T02:00:00Z'); // 10:00 in Shanghai
let t: TestApp;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

/** A member holding `custody` USDT in a 30-day custody order opened today. */
async function custodian(email: string, custody: string) {
  const token = await registerMember(t, email);
  const accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  await fund(t, accountId, 'USDT', custody);
  const plan = (await call<HostingConfig>(token, 'GET', '/api/hosting/config')).body.data.plans.find(
    (item) => item.periodDays === 30,
  )!;
  const created = await call(token, 'POST', '/api/hosting/create', {
    planId: plan.id,
    amount: custody,
    autoRenew: false,
    tradePassword: 'trade-pass-1',
    idempotencyKey: randomUUID(),
  });
  expect(created.body.code).toBe(200);
  return { token, accountId };
}

async function operator(username: string) {
  const token = await operatorToken(t, username, 'finance');
  const [row] = await queryRows<{ id: string }>(
    t.testDatabase.database.db,
    sql`select id from operators where username = ${username}`,
  );
  return { token, id: row!.id };
}

function auditsOf(operatorId: string) {
  return queryRows<Record<string, unknown>>(
    t.testDatabase.database.db,
    sql`select action, target_type, target_id, before, after, ip, request_id from audit_log
        where operator_id = ${operatorId}::uuid and action like 'dividend.%' order by created_at`,
  );
}

const audited = (action: string, day: string, before: unknown, after: unknown) => ({
  action,
  target_type: 'dividend_pool',
  target_id: day,
  before,
  after,
  ip: '127.0.0.1',
  request_id: expect.stringMatching(/.+/) as unknown,
});

beforeAll(async () => {
  t = await createTestApp({}, { clock: { now: () => now } });
});
afterAll(async () => {
  await t.close();
});

describe('the AI dividend, as mutation testing found it unchecked', () => {
  it('counts custody of exactly the threshold as valid, pages the shares, and stamps each claim', async () => {
    const finance = await operator('earnings-mutants-pools');
    const edge = await custodian('earnings-mutants-edge@example.com', '500');
    const more = await custodian('earnings-mutants-more@example.com', '1500');
    const set = (day: string, amount: string) =>
      call<DividendPool[]>(finance.token, 'PUT', `/api/admin/dividend/pools/${day}`, { amount });
    expect((await set('2026-11-21', '100')).body.code).toBe(200);
    expect((await set('2026-11-21', '80')).body.code).toBe(200);
    expect((await set('2026-11-22', '40')).body.code).toBe(200);
    expect((await set('2026-11-23', '20')).body.code).toBe(200);
    expect(await auditsOf(finance.id)).toEqual([
      audited('dividend.pool_set', '2026-11-21', null, { amount: '100' }),
      audited('dividend.pool_set', '2026-11-21', { amount: '100.0000' }, { amount: '80' }),
      audited('dividend.pool_set', '2026-11-22', null, { amount: '40' }),
      audited('dividend.pool_set', '2026-11-23', null, { amount: '20' }),
    ]);

    const balances = await trackBalances(t, { edge: edge.accountId, more: more.accountId });
    now = new Date('2026-11-24T02:00:00Z');
    for (const day of ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']) await t.services.settlement.settle(day);
    // Custody earns 0.12 % a day from 11-21: 500 → 0.6, 1500 → 1.8, on three days. The dividend is only shared.
    await balances.expectChanges({
      'edge:USDT:available': '1.8000',
      'more:USDT:available': '5.4000',
      'platform:interest:USDT': '-7.2000',
    });

    // 500 of 2000 valid custody: 80 × ¼ = 20 on 11-21, 40 × ¼ = 10 on 11-22, 20 × ¼ = 5 on 11-23.
    // Pages of two (with pages of one, an offset of (page - 1) / pageSize would be the same).
    const info = (page: number) => call<AiInfo>(edge.token, 'GET', `/api/ai/info?page=${page}&pageSize=2`);
    const first = (await info(1)).body.data;
    expect(first).toMatchObject({ isValid: true, custodyBalance: '500.0000', claimable: '35.0000' });
    expect(first.records).toEqual({
      items: [
        { day: '2026-11-23', custody: '500.0000', amount: '5.0000', status: 'claimable', claimedAt: null },
        { day: '2026-11-22', custody: '500.0000', amount: '10.0000', status: 'claimable', claimedAt: null },
      ],
      total: 3,
      page: 1,
      pageSize: 2,
    });
    const second = (await info(2)).body.data.records;
    expect(second.total).toBe(3);
    expect(second.items).toEqual([
      { day: '2026-11-21', custody: '500.0000', amount: '20.0000', status: 'claimable', claimedAt: null },
    ]);

    const claimed = await call(edge.token, 'POST', '/api/ai/receive');
    expect(claimed.body.data).toEqual({ amount: '35.0000', days: 3 });
    await balances.expectChanges({ 'edge:USDT:available': '35.0000', 'platform:rewards:USDT': '-35.0000' });
    const after = (await info(1)).body.data.records.items[0]!;
    expect(after).toMatchObject({ day: '2026-11-23', status: 'claimed' });
    expect(after.claimedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/));

    // A shared day's pool can no longer be removed either.
    expect((await call(finance.token, 'DELETE', '/api/admin/dividend/pools/2026-11-21')).body).toMatchObject({
      code: 409,
      message: 'The dividend of that day has been shared out already',
    });
  });

  it('refuses a pool for a day already settled without one, and records nothing', async () => {
    const finance = await operator('earnings-mutants-settled');
    now = new Date('2026-11-24T02:00:00Z');
    // The first day the settlement covers, settled without a pool (by the first test, or here when run alone).
    const day = await t.services.settlement.firstDay();
    const runs = (await call<{ day: string }[]>(finance.token, 'GET', '/api/admin/settlement/runs')).body.data;
    if (!runs.some((run) => run.day === day)) await t.services.settlement.settle(day);
    // And a day before it, which no settlement will ever cover.
    for (const refusedDay of [day, '2020-01-01']) {
      const refused = await call(finance.token, 'PUT', `/api/admin/dividend/pools/${refusedDay}`, { amount: '10' });
      expect(refused.body).toMatchObject({
        code: 409,
        message: "That day's settlement has already run; set the pool for a day not yet settled",
      });
    }
    const pools = (await call<DividendPool[]>(finance.token, 'GET', '/api/admin/dividend/pools')).body.data.map((p) => p.day);
    expect(pools).not.toContain(day);
    expect(pools).not.toContain('2020-01-01');
    expect(await auditsOf(finance.id)).toEqual([]);
  });

  it('removes a pool not yet shared out, audited; an unknown day is not found', async () => {
    const finance = await operator('earnings-mutants-remove');
    now = new Date('2026-11-24T02:00:00Z');
    expect((await call(finance.token, 'PUT', '/api/admin/dividend/pools/2026-12-10', { amount: '10' })).body.code).toBe(200);
    const removed = await call<DividendPool[]>(finance.token, 'DELETE', '/api/admin/dividend/pools/2026-12-10');
    expect(removed.body.code).toBe(200);
    expect(removed.body.data.map((pool) => pool.day)).not.toContain('2026-12-10');
    const [left] = await queryRows<{ n: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as n from dividend_pools where day = '2026-12-10'`,
    );
    expect(left!.n).toBe(0);
    expect((await call(finance.token, 'DELETE', '/api/admin/dividend/pools/2026-12-11')).body).toMatchObject({
      code: 404,
      message: 'Not found',
    });
    expect(await auditsOf(finance.id)).toEqual([
      audited('dividend.pool_set', '2026-12-10', null, { amount: '10' }),
      audited('dividend.pool_removed', '2026-12-10', { amount: '10.0000' }, null),
    ]);
  });
});

describe('the income log, as mutation testing found it unchecked', () => {
  it('answers a team type for a member without team earnings with an empty page', async () => {
    const token = await registerMember(t, 'earnings-mutants-income@example.com');
    for (const type of ['direct', 'promotion']) {
      const log = await call<{ items: IncomeItem[]; total: number }>(token, 'GET', `/api/income/log?type=${type}`);
      expect(log.body).toMatchObject({ code: 200, data: { items: [], total: 0 } });
    }
  });

  it('shows a team earning with its source: the e-mail masked, the rate, or none for a bonus', async () => {
    const earnerToken = await registerMember(t, 'earnings-mutants-earner@example.com');
    const earner = await accountIdOf(t, earnerToken);
    const source = await accountIdOf(t, await registerMember(t, 'earnings-mutants-source@example.com'));
    // As the team earnings' settlement writes them (to arrive: no money has moved yet): a direct
    // earning on the source's custody interest, and a promotion bonus, which has no source or rate.
    await t.testDatabase.database.db.execute(
      sql`insert into team_earnings (account_id, day, type, seq, amount, arrive_on) values
            (${earner}::uuid, '2026-11-21', 'direct', 1, 0.06, '2026-11-28'),
            (${earner}::uuid, '2026-11-21', 'promotion', 1, 50, '2026-11-28')`,
    );
    await t.testDatabase.database.db.execute(
      sql`insert into team_earning_items (account_id, day, type, source_account_id, generation, level, base, rate_pct, shared_by, amount) values
            (${earner}::uuid, '2026-11-21', 'direct', ${source}::uuid, 1, 1, 0.6, 10, null, 0.06),
            (${earner}::uuid, '2026-11-21', 'promotion', null, null, 1, 50, null, null, 50)`,
    );
    const [nickname] = await queryRows<{ nickname: string }>(
      t.testDatabase.database.db,
      sql`select nickname from accounts where id = ${source}::uuid`,
    );
    const log = (type: string) =>
      call<{ items: IncomeItem[]; total: number }>(earnerToken, 'GET', `/api/income/log?type=${type}`);
    const direct = (await log('direct')).body.data;
    expect(direct).toMatchObject({ total: 1 });
    expect(direct.items).toEqual([
      {
        type: 'direct',
        asset: 'USDT',
        amount: '0.0600',
        state: 'to_arrive',
        source: nickname!.nickname,
        day: '2026-11-21',
        team: {
          sourceEmail: 'e***e@example.com',
          sourceNickname: nickname!.nickname,
          generation: 1,
          level: 1,
          base: '0.6000',
          ratePct: '10',
          sharedBy: null,
        },
      },
    ]);
    const bonus = (await log('promotion')).body.data.items;
    expect(bonus).toEqual([
      {
        type: 'promotion',
        asset: 'USDT',
        amount: '50.0000',
        state: 'to_arrive',
        source: 'V1',
        day: '2026-11-21',
        team: {
          sourceEmail: null,
          sourceNickname: null,
          generation: null,
          level: 1,
          base: '50.0000',
          ratePct: null,
          sharedBy: null,
        },
      },
    ]);
  });
});
