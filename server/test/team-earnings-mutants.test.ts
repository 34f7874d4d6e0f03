// What the team earnings tests left unchecked, found by mutation testing (decision 056,
// docs/mutation/team-earnings.md): the console list's filters and totals, the ledger entry's words,
// a sub-account's summary and a type with no earnings, an earning's arrival time, the dry run of a
// day, a day with no level table, and the settings' audit row.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostingPlan, TeamLevelInput } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * A chain P ─ Q ─ R, each holding 1000 for 30 days at 0.12 % a day (1.2 a day), opened on 11-20 so
 * the interest starts on 11-21, with this table in force from 11-21 (thresholds own custody / valid
 * direct / team performance; rates in %):
 *   V0  0 / 0 / 0          direct 5, no indirect, nothing else
 *   V1  500 / 1 / 2000     direct 10, indirect 5 on generation 2, promotion bonus 10
 * (community, management and level dividend 0 at every level).
 * As 11-21 and 11-22 end: P 1000 / 1 (Q) / 2000 (Q + R) is V1; Q 1000 / 1 (R) / 1000 is V0; R is V0.
 * Each day's earnings:
 *   P direct 10 % of Q's 1.2 = 0.12, P indirect 5 % of R's 1.2 (generation 2) = 0.06,
 *   Q direct 5 % of R's 1.2 = 0.06; and on 11-21 only, P's promotion to V1 = 10.
 * With the default delay of one day a day's earnings arrive with the next day's settlement.
 */
const LEVELS: TeamLevelInput[] = [
  {
    level: 0,
    name: 'V0',
    minOwnCustody: '0',
    minValidDirect: 0,
    minTeamPerformance: '0',
    minLegs: 0,
    legsLevel: null,
    directRatePct: '5',
    indirectRatePct: '0',
    indirectGenerations: 0,
    communityRatePct: '0',
    managementRatePct: '0',
    dividendRatePct: '0',
    promotionBonus: '0',
  },
  {
    level: 1,
    name: 'V1',
    minOwnCustody: '500',
    minValidDirect: 1,
    minTeamPerformance: '2000',
    minLegs: 0,
    legsLevel: null,
    directRatePct: '10',
    indirectRatePct: '5',
    indirectGenerations: 1,
    communityRatePct: '0',
    managementRatePct: '0',
    dividendRatePct: '0',
    promotionBonus: '10',
  },
];

type Envelope<T = unknown> = { code: number; message: string; data: T };
type Listed = {
  items: {
    accountId: string;
    email: string;
    nickname: string;
    day: string;
    type: string;
    amount: string;
    status: string;
    arriveOn: string;
    arrivedAt: string | null;
  }[];
  total: number;
  page: number;
  pageSize: number;
};

let now: Date;
const clock = { now: () => now };
let t: TestApp | undefined;

function app(): TestApp {
  if (!t) throw new Error('no platform built');
  return t;
}

function call<T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, as: string, payload?: object) {
  return app()
    .app.inject({ method, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => response.json<Envelope<T>>());
}

interface Chain {
  tokens: { p: string; q: string; r: string };
  ids: { p: string; q: string; r: string };
  finance: string;
}

/** The chain, its custody and its table, settled up to 11-20 (nothing earned yet); the clock at 11-21 10:00. */
async function buildChain(prefix: string): Promise<Chain> {
  now = new Date('2026-11-20T02:00:00Z');
  t = await createTestApp({}, { clock });
  const p = await registerMember(app(), `${prefix}-p@example.com`);
  const invite = async (token: string) => (await call<{ inviteCode: string }>('GET', '/api/user/share', token)).data.inviteCode;
  const q = await registerMember(app(), `${prefix}-q@example.com`, 'member-password', await invite(p));
  const r = await registerMember(app(), `${prefix}-r@example.com`, 'member-password', await invite(q));
  const tokens = { p, q, r };
  const ids = { p: await accountIdOf(app(), p), q: await accountIdOf(app(), q), r: await accountIdOf(app(), r) };
  const finance = await operatorToken(app(), `${prefix}-finance`, 'finance');
  expect((await call('PUT', '/api/admin/team/levels', finance, { levels: LEVELS })).code).toBe(200);
  const plans = (await call<{ plans: HostingPlan[] }>('GET', '/api/hosting/config', p)).data.plans;
  const planId = plans.find((plan) => plan.periodDays === 30)!.id;
  for (const name of ['p', 'q', 'r'] as const) {
    await setTradePassword(app(), tokens[name]);
    await fund(app(), ids[name], 'USDT', '1000');
    const opened = await call('POST', '/api/hosting/create', tokens[name], {
      planId,
      amount: '1000',
      autoRenew: false,
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
    });
    expect(opened.code).toBe(200);
  }
  now = new Date('2026-11-21T02:00:00Z');
  await app().services.settlement.settle('2026-11-20');
  return { tokens, ids, finance };
}

async function settle(day: '2026-11-21' | '2026-11-22'): Promise<void> {
  now = new Date(day === '2026-11-21' ? '2026-11-22T02:00:00Z' : '2026-11-23T02:00:00Z');
  await app().services.settlement.settle(day);
}

/** The stored items of a day as the dry run returns them (ordered by account, type, source, generation, level). */
function itemsOf(chain: Chain, day: string, withPromotion: boolean) {
  const { p, q, r } = chain.ids;
  const item = (
    account: string,
    type: string,
    source: string | null,
    generation: number | null,
    level: number,
    base: string,
    rate: string | null,
    amount: string,
  ) => ({
    account_id: account,
    day,
    type,
    source_account_id: source,
    generation,
    level,
    base,
    rate_pct: rate,
    shared_by: null,
    amount,
  });
  const ofP = [
    item(p, 'direct', q, 1, 1, '1.2000', '10.0000', '0.1200'),
    item(p, 'indirect', r, 2, 1, '1.2000', '5.0000', '0.0600'),
    ...(withPromotion ? [item(p, 'promotion', null, null, 1, '10.0000', null, '10.0000')] : []),
  ];
  const ofQ = [item(q, 'direct', r, 1, 0, '1.2000', '5.0000', '0.0600')];
  return p < q ? [...ofP, ...ofQ] : [...ofQ, ...ofP];
}

afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('team earnings, as mutation testing found them unchecked', () => {
  it('the console filters by e-mail, day, type and state, alone and together, with exact totals and pages', async () => {
    const chain = await buildChain('tem-list');
    await settle('2026-11-21');
    await settle('2026-11-22');
    const { p, q } = chain.ids;
    const list = async (query: string) => (await call<Listed>('GET', `/api/admin/team/earnings?${query}`, chain.finance)).data;
    const brief = (data: Listed) => data.items.map((item) => [item.email, item.day, item.type, item.amount, item.status]);
    const P = 'tem-list-p@example.com';
    const Q = 'tem-list-q@example.com';
    // Every earning, newest day first, then by member (P before Q) and type: 11-22's to arrive,
    // 11-21's arrived with 11-22's settlement.
    const all = await list('pageSize=100');
    expect(all.total).toBe(7);
    expect(brief(all)).toEqual([
      [P, '2026-11-22', 'direct', '0.1200', 'to_arrive'],
      [P, '2026-11-22', 'indirect', '0.0600', 'to_arrive'],
      [Q, '2026-11-22', 'direct', '0.0600', 'to_arrive'],
      [P, '2026-11-21', 'direct', '0.1200', 'arrived'],
      [P, '2026-11-21', 'indirect', '0.0600', 'arrived'],
      [P, '2026-11-21', 'promotion', '10.0000', 'arrived'],
      [Q, '2026-11-21', 'direct', '0.0600', 'arrived'],
    ]);
    expect(all.items[0]).toMatchObject({ accountId: p, arriveOn: '2026-11-23', arrivedAt: null });
    expect(all.items[6]).toMatchObject({ accountId: q, arriveOn: '2026-11-22' });
    // Each filter alone (the e-mail in capitals: the contract lower-cases it).
    const byEmail = await list(`email=${encodeURIComponent(Q.toUpperCase())}`);
    expect([byEmail.total, brief(byEmail)]).toEqual([
      2,
      [
        [Q, '2026-11-22', 'direct', '0.0600', 'to_arrive'],
        [Q, '2026-11-21', 'direct', '0.0600', 'arrived'],
      ],
    ]);
    const byDay = await list('day=2026-11-21');
    expect([byDay.total, brief(byDay)]).toEqual([4, brief(all).slice(3)]);
    const byType = await list('type=indirect');
    expect([byType.total, brief(byType)]).toEqual([
      2,
      [
        [P, '2026-11-22', 'indirect', '0.0600', 'to_arrive'],
        [P, '2026-11-21', 'indirect', '0.0600', 'arrived'],
      ],
    ]);
    const byState = await list('status=to_arrive');
    expect([byState.total, brief(byState)]).toEqual([3, brief(all).slice(0, 3)]);
    // All together: one row.
    const together = await list(`email=${P}&day=2026-11-21&type=direct&status=arrived`);
    expect([together.total, brief(together)]).toEqual([1, [[P, '2026-11-21', 'direct', '0.1200', 'arrived']]]);
    expect((await list(`email=${P}&day=2026-11-21&type=direct&status=to_arrive`)).total).toBe(0);
    // The second page of three: rows 4 to 6, the total still all seven.
    const second = await list('page=2&pageSize=3');
    expect([second.total, second.page, second.pageSize, brief(second)]).toEqual([7, 2, 3, brief(all).slice(3, 6)]);
    // The console's list has no account filter; the service's does (a member's own rows by account).
    const ofQ = await app().services.teamEarnings.earnings({ accountId: q, limit: 10, offset: 0 });
    expect([ofQ.total, ofQ.items.map((item) => [item.accountId, item.day, item.type])]).toEqual([
      2,
      [
        [q, '2026-11-22', 'direct'],
        [q, '2026-11-21', 'direct'],
      ],
    ]);
  }, 120_000);

  it('the promotions list filters by e-mail and counts what it lists', async () => {
    const chain = await buildChain('tem-promo');
    await settle('2026-11-21');
    type Promotions = { items: { accountId: string; level: number; day: string; bonus: string }[]; total: number };
    const list = async (query: string) =>
      (await call<Promotions>('GET', `/api/admin/team/promotions?${query}`, chain.finance)).data;
    const ofP = { accountId: chain.ids.p, level: 1, day: '2026-11-21', bonus: '10.0000' };
    expect(await list('pageSize=10')).toMatchObject({ total: 1, items: [ofP] });
    expect(await list('email=TEM-PROMO-P@EXAMPLE.COM')).toMatchObject({ total: 1, items: [ofP] });
    // Q reached no level: its filter lists nothing, rather than every member's promotions.
    expect(await list('email=tem-promo-q@example.com')).toEqual({ total: 0, items: [], page: 1, pageSize: 20 });
  }, 120_000);

  it('an arriving earning is one entry of kind team_earning naming its day and type, income on both sides, with its arrival time', async () => {
    const chain = await buildChain('tem-entry');
    const { p, q, r } = chain.ids;
    await settle('2026-11-21');
    const before = await app().services.teamEarnings.earnings({ day: '2026-11-21', limit: 10, offset: 0 });
    expect(before.items.map((item) => [item.type, item.status, item.arrivedAt])).toEqual([
      ['direct', 'to_arrive', null],
      ['indirect', 'to_arrive', null],
      ['promotion', 'to_arrive', null],
      ['direct', 'to_arrive', null],
    ]);
    const balances = await trackBalances(app(), { p, q, r });
    const startedAt = Date.now();
    await settle('2026-11-22');
    const finishedAt = Date.now();
    // 11-22's interest (1.2 each from the interest account) and 11-21's earnings from the rewards
    // account: P 0.12 + 0.06 + 10 = 10.18, Q 0.06: 10.24 in all.
    await balances.expectChanges({
      'p:USDT:available': '11.3800',
      'q:USDT:available': '1.2600',
      'r:USDT:available': '1.2000',
      'platform:interest:USDT': '-3.6000',
      'platform:rewards:USDT': '-10.2400',
    });
    const lines = await queryRows<{
      idempotency_key: string;
      kind: string;
      reference_type: string;
      reference_id: string;
      owner: string | null;
      platform_code: string | null;
      amount: string;
      record_type: string;
    }>(
      app().testDatabase.database.db,
      sql`select j.idempotency_key, j.kind, j.reference_type, j.reference_id, a.owner_account_id as owner, a.platform_code,
            p.amount::text as amount, p.record_type
          from journal_entries j join postings p on p.entry_id = j.id join ledger_accounts a on a.id = p.ledger_account_id
          where j.idempotency_key like 'team-earning:%' order by j.idempotency_key, p.amount`,
    );
    const entry = (account: string, type: string, amount: string) =>
      [-1, 1].map((sign) => ({
        idempotency_key: `team-earning:${account}:2026-11-21:${type}`,
        kind: 'team_earning',
        reference_type: 'team_earning',
        reference_id: `2026-11-21:${type}`,
        owner: sign > 0 ? account : null,
        platform_code: sign > 0 ? null : 'rewards',
        amount: `${sign > 0 ? '' : '-'}${amount}`,
        record_type: 'income',
      }));
    const expected = [
      ...entry(p, 'direct', '0.1200'),
      ...entry(p, 'indirect', '0.0600'),
      ...entry(p, 'promotion', '10.0000'),
      ...entry(q, 'direct', '0.0600'),
    ].sort((a, b) => (a.idempotency_key < b.idempotency_key ? -1 : a.idempotency_key > b.idempotency_key ? 1 : 0));
    expect(lines.map((line) => ({ ...line, amount: line.amount.replace(/(\.\d{4})\d*$/, '$1') }))).toEqual(expected);
    // Each arrived earning shows when it arrived: the time the arrival marked it, during the settlement.
    const stored = await queryRows<{ type: string; account_id: string; arrived_at: Date | string }>(
      app().testDatabase.database.db,
      sql`select account_id, type, arrived_at from team_earnings where day = '2026-11-21' order by seq, type`,
    );
    const after = await app().services.teamEarnings.earnings({ day: '2026-11-21', limit: 10, offset: 0 });
    expect(after.items.map((item) => [item.accountId, item.type, item.status, item.arrivedAt])).toEqual(
      stored.map((row) => [row.account_id, row.type, 'arrived', new Date(row.arrived_at).toISOString()]),
    );
    for (const item of after.items) {
      const at = Date.parse(item.arrivedAt!);
      expect(at).toBeGreaterThanOrEqual(startedAt - 1000);
      expect(at).toBeLessThanOrEqual(finishedAt + 1000);
    }
  }, 120_000);

  it("a sub-account's summary is its person's, and a type with no earnings is 0.0000", async () => {
    const chain = await buildChain('tem-summary');
    await settle('2026-11-21');
    await settle('2026-11-22');
    const { q: tokenOfQ, p: tokenOfP, r: tokenOfR } = chain.tokens;
    const zero = { toArrive: '0.0000', arrived: '0.0000' };
    const ofQ = [
      { type: 'direct', toArrive: '0.0600', arrived: '0.0600' },
      { type: 'indirect', ...zero },
      { type: 'community', ...zero },
      { type: 'management', ...zero },
      { type: 'promotion', ...zero },
      { type: 'level_dividend', ...zero },
    ];
    expect((await call('GET', '/api/user/team_earnings', tokenOfQ)).data).toEqual(ofQ);
    expect((await call('GET', '/api/user/team_earnings', tokenOfP)).data).toEqual([
      { type: 'direct', toArrive: '0.1200', arrived: '0.1200' },
      { type: 'indirect', toArrive: '0.0600', arrived: '0.0600' },
      { type: 'community', ...zero },
      { type: 'management', ...zero },
      { type: 'promotion', toArrive: '0.0000', arrived: '10.0000' },
      { type: 'level_dividend', ...zero },
    ]);
    // R earned nothing: every type 0.0000.
    expect((await call('GET', '/api/user/team_earnings', tokenOfR)).data).toEqual(ofQ.map((row) => ({ ...row, ...zero })));
    // Q switches to a sub-account of its own: the summary is still Q's (the person's).
    const sub = await call<{ id: string }>('POST', '/api/account/create_sub', tokenOfQ, { nickname: 'tem-q-sub' });
    expect(sub.code).toBe(200);
    expect((await call('POST', '/api/account/switch', tokenOfQ, { accountId: sub.data.id })).code).toBe(200);
    expect(await accountIdOf(app(), tokenOfQ)).toBe(sub.data.id);
    expect((await call('GET', '/api/user/team_earnings', tokenOfQ)).data).toEqual(ofQ);
  }, 120_000);

  it('the dry run computes a day in a transaction it rolls back: the figures, no row and no balance changed', async () => {
    const chain = await buildChain('tem-dry');
    const { p, q, r } = chain.ids;
    await settle('2026-11-21');
    const service = app().services.teamEarnings;
    const levels = [{ account_id: p, level: 1, own_custody: '1000.0000', valid_direct: 1, team_performance: '2000.0000' }];
    // 11-21 as stored, and as computed again.
    expect(await service.dayFigures('2026-11-21')).toEqual({ levels, items: itemsOf(chain, '2026-11-21', true) });
    expect(await service.recomputeDay('2026-11-21')).toEqual({ levels, items: itemsOf(chain, '2026-11-21', true) });
    // 11-22, not computed yet (its day is over, its settlement has not run): the check computes its
    // levels, but no items (the day's static income is its interest, which the settlement's first
    // step has not posted yet), and leaves nothing behind, not even the day's claim.
    now = new Date('2026-11-23T02:00:00Z');
    const balances = await trackBalances(app(), { p, q, r });
    expect(await service.recomputeDay('2026-11-22')).toEqual({ levels, items: [] });
    expect(await service.dayFigures('2026-11-22')).toEqual({ levels: [], items: [] });
    const left = await queryRows<{ n: number }>(
      app().testDatabase.database.db,
      sql`select ((select count(*) from team_earning_days where day = '2026-11-22')
               + (select count(*) from team_earnings where day = '2026-11-22')
               + (select count(*) from team_promotions where day = '2026-11-22'))::int as n`,
    );
    expect(left).toEqual([{ n: 0 }]);
    await balances.expectChanges({});
    // So the day's settlement computes it in full (no promotion: P reached V1 on 11-21), and the
    // check computes the same again.
    await settle('2026-11-22');
    expect(await service.dayFigures('2026-11-22')).toEqual({ levels, items: itemsOf(chain, '2026-11-22', false) });
    expect(await service.recomputeDay('2026-11-22')).toEqual({ levels, items: itemsOf(chain, '2026-11-22', false) });
    await balances.reset();
    // A day before any level table (the seeded one is in force from 2000-01-01) computes nothing and
    // stores nothing, run as the settlement's step or checked.
    await expect(service.computeDay('1999-12-31')).resolves.toBeUndefined();
    expect(await service.recomputeDay('1999-12-31')).toEqual({ levels: [], items: [] });
    expect(await service.dayFigures('1999-12-31')).toEqual({ levels: [], items: [] });
    const claimed = await queryRows<{ n: number }>(
      app().testDatabase.database.db,
      sql`select count(*)::int as n from team_earning_days where day = '1999-12-31'`,
    );
    expect(claimed).toEqual([{ n: 0 }]);
    // A failure inside the check is the caller's error, not an empty day (which would match a day
    // never computed): a day the database reads as a date (20261121) but the arrival date cannot
    // be worked out from fails the check, and the rollback leaves 11-21 as it was.
    await expect(service.recomputeDay('20261121')).rejects.toThrow(RangeError);
    expect(await service.dayFigures('2026-11-21')).toEqual({ levels, items: itemsOf(chain, '2026-11-21', true) });
    await balances.expectChanges({});
  }, 120_000);

  it('saving the arrival delay audits it against the setting, by the operator and request', async () => {
    now = new Date('2026-11-20T02:00:00Z');
    t = await createTestApp({}, { clock });
    const finance = await operatorToken(app(), 'tem-audit-finance', 'finance');
    const saved = await app().app.inject({
      method: 'PUT',
      url: '/api/admin/team/earnings/settings',
      headers: { authorization: finance, lang: 'EN', 'x-request-id': 'tem-audit-request' },
      remoteAddress: '10.77.0.9',
      payload: { arrivalDelayDays: 3 },
    });
    expect(saved.json()).toMatchObject({ code: 200, data: { arrivalDelayDays: 3 } });
    const rows = await queryRows<Record<string, unknown>>(
      app().testDatabase.database.db,
      sql`select o.username, l.action, l.target_type, l.target_id, l.before, l.after, l.ip
          from audit_log l join operators o on o.id = l.operator_id where l.action = 'team.earnings_settings_saved'`,
    );
    expect(rows).toEqual([
      {
        username: 'tem-audit-finance',
        action: 'team.earnings_settings_saved',
        target_type: 'setting',
        target_id: 'team_earnings',
        before: { arrivalDelayDays: 1 },
        after: { arrivalDelayDays: 3 },
        ip: '10.77.0.9',
      },
    ]);
  }, 60_000);
});
