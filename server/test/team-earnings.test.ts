import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostingOrder, HostingPlan, TeamLevelInput } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Team earnings (docs/decisions/024-team-earnings.md) on a hand-built tree, over three platform days
 * (2026-11-21, -22, -23) settled with the level table below, in force from 11-21. Every figure is
 * worked out by hand in the comments. Platform time is Asia/Shanghai (UTC+8).
 *
 *   A ─┬─ B ─┬─ D ── H ── L
 *      │     └─ E (and E's sub-account Es)
 *      ├─ C ─┬─ F ─┬─ J
 *      │     │     └─ K
 *      │     └─ G
 *      └─ M ── N                    O (another tree)
 *
 * Custody (30 days at 0.12 % a day unless said), opened on 11-20 so its interest starts on 11-21:
 *   A 2000 (2.4 a day), B 1000 (1.2), C 500 (0.6), D 600 (0.72), H 400 (0.48, not valid), F 1000 (1.2),
 *   J 2000 (2.4), K 1000 (1.2), M 500 (0.6), O 1000 (1.2), Es 500 (0.6: E's own, decision 020);
 *   E 1000 for 7 days at 0.1 % (1.0 a day), opened on 11-14 with auto-renew: its last day is 11-21,
 *   when it renews (the renewal counts once and is not new performance).
 * E as a person earns 1.0 + 0.6 = 1.6 a day. G, L, N hold nothing at first.
 * On 11-22 N opens 1000 (M crosses to V1 that day); at 00:02 on 11-23, before 11-22 is settled,
 * K opens 5000 (it counts from 11-23 on, nothing of 11-22).
 *
 * Levels (thresholds own custody / valid direct / team performance; rates direct / indirect with its
 * generations / community / management / level dividend, in %; promotion bonus in USDT):
 *   V0  0 / 0 / 0                        5 / 0 ×0 / 0 / 0 / 0,   0
 *   V1  500 / 1 / 1000                  10 / 5 ×1 / 1 / 10 / 2, 10
 *   V2  1000 / 2 / 3000                 12 / 5 ×2 / 2 / 20 / 1, 50
 *   V3  2000 / 2 / 8000, 1 leg at V1    15 / 5 ×3 / 3 / 30 / 1, 100
 * (indirect ×N: generations 2 … N + 1.) Every amount is rounded down to 4 places.
 */

const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'o'] as const;
type Name = (typeof NAMES)[number];
const INVITER: Partial<Record<Name, Name>> = {
  b: 'a',
  c: 'a',
  m: 'a',
  d: 'b',
  e: 'b',
  h: 'd',
  l: 'h',
  f: 'c',
  g: 'c',
  j: 'f',
  k: 'f',
  n: 'm',
};

const rates = (direct: string, gens: number, community: string, management: string, dividend: string, bonus: string) => ({
  directRatePct: direct,
  indirectRatePct: gens > 0 ? '5' : '0',
  indirectGenerations: gens,
  communityRatePct: community,
  managementRatePct: management,
  dividendRatePct: dividend,
  promotionBonus: bonus,
});
const LEVELS: TeamLevelInput[] = [
  {
    level: 0,
    name: 'V0',
    minOwnCustody: '0',
    minValidDirect: 0,
    minTeamPerformance: '0',
    minLegs: 0,
    legsLevel: null,
    ...rates('5', 0, '0', '0', '0', '0'),
  },
  {
    level: 1,
    name: 'V1',
    minOwnCustody: '500',
    minValidDirect: 1,
    minTeamPerformance: '1000',
    minLegs: 0,
    legsLevel: null,
    ...rates('10', 1, '1', '10', '2', '10'),
  },
  {
    level: 2,
    name: 'V2',
    minOwnCustody: '1000',
    minValidDirect: 2,
    minTeamPerformance: '3000',
    minLegs: 0,
    legsLevel: null,
    ...rates('12', 2, '2', '20', '1', '50'),
  },
  {
    level: 3,
    name: 'V3',
    minOwnCustody: '2000',
    minValidDirect: 2,
    minTeamPerformance: '8000',
    minLegs: 1,
    legsLevel: 1,
    ...rates('15', 3, '3', '30', '1', '100'),
  },
];

/** The earnings of 11-22 (worked out in the 11-22 test). */
const EARNINGS_OF_11_22: Record<string, string> = {
  'a:community': '30.0000',
  'a:direct': '0.3600',
  'a:indirect': '0.3800',
  'a:level_dividend': '0.2584',
  'a:management': '1.8800',
  'b:direct': '0.2320',
  'b:indirect': '0.0240',
  'b:level_dividend': '0.0544',
  'b:management': '0.2800',
  'c:direct': '0.1200',
  'c:indirect': '0.1800',
  'c:level_dividend': '0.0544',
  'c:management': '0.1200',
  'd:direct': '0.0240',
  'f:direct': '0.4320',
  'f:level_dividend': '0.1224',
  'f:management': '0.7200',
  'm:community': '10.0000',
  'm:level_dividend': '0.0544',
  'm:promotion': '10.0000',
};

/** Each member's interest of 11-21 and of 11-22 (the same custody earns on both days). */
const INTEREST_OF_THE_FIRST_DAYS: Record<string, string> = {
  'a:USDT:available': '2.4000',
  'b:USDT:available': '1.2000',
  'c:USDT:available': '0.6000',
  'd:USDT:available': '0.7200',
  'e:USDT:available': '1.0000',
  'es:USDT:available': '0.6000',
  'h:USDT:available': '0.4800',
  'f:USDT:available': '1.2000',
  'j:USDT:available': '2.4000',
  'k:USDT:available': '1.2000',
  'm:USDT:available': '0.6000',
  'o:USDT:available': '1.2000',
};

let now: Date;
const clock = { now: () => now };
let t: TestApp | undefined;
let finance: string;
let plans: HostingPlan[];
const tokens = new Map<Name, string>();
const ids = new Map<string, Name>();
let subOfE: string;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, as: string, payload?: object) {
  return app()
    .app.inject({ method, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => response.json<Envelope<T>>());
}

async function open(as: string, amount: string, days = 30, autoRenew = false): Promise<HostingOrder> {
  const planId = plans.find((plan) => plan.periodDays === days)!.id;
  const created = await call<HostingOrder>('POST', '/api/hosting/create', as, {
    planId,
    amount,
    autoRenew,
    tradePassword: 'trade-pass-1',
    idempotencyKey: randomUUID(),
  });
  expect(created.code).toBe(200);
  return created.data;
}

async function accountOf(name: Name): Promise<string> {
  return accountIdOf(app(), tokens.get(name)!);
}

/** Every earning of `day` as `name:type amount`, sorted (the to-arrive / arrived rows). */
async function earningsOf(day: string): Promise<Record<string, string>> {
  const rows = await queryRows<{ account_id: string; type: string; amount: string }>(
    app().testDatabase.database.db,
    sql`select account_id, type, amount::text as amount from team_earnings where day = ${day}::date`,
  );
  return Object.fromEntries(
    rows.map((row) => [`${ids.get(row.account_id) ?? row.account_id}:${row.type}`, row.amount] as const).sort(),
  );
}

async function levelsOf(day: string): Promise<Record<string, [number, string, number, string]>> {
  const { levels } = await app().services.teamEarnings.dayFigures(day);
  return Object.fromEntries(
    levels.map((row) => [ids.get(row.account_id)!, [row.level, row.own_custody, row.valid_direct, row.team_performance]]),
  );
}

async function statusOf(day: string): Promise<Record<string, number>> {
  const rows = await queryRows<{ status: string; n: number }>(
    app().testDatabase.database.db,
    sql`select status, count(*)::int as n from team_earnings where day = ${day}::date group by status order by status`,
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

async function entryCount(): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    app().testDatabase.database.db,
    sql`select count(*)::int as n from journal_entries where kind = 'team_earning'`,
  );
  return rows[0]!.n;
}

/**
 * Each test builds its own platform (a fresh database, its own members and clock): the tree, its
 * custody and the level table, every day up to 11-20 settled (nothing earned before 11-21). A test
 * then settles the days it needs itself, so none depends on another's settlement.
 */
async function buildTree(): Promise<TestApp> {
  now = new Date('2026-11-14T02:00:00Z');
  tokens.clear();
  ids.clear();
  mains.clear();
  t = await createTestApp({}, { clock });
  for (const name of NAMES) {
    const inviter = INVITER[name];
    const code = inviter
      ? (await call<{ inviteCode: string }>('GET', '/api/user/share', tokens.get(inviter)!)).data.inviteCode
      : undefined;
    tokens.set(name, await registerMember(app(), `te-${name}@example.com`, 'member-password', code));
    // Named `te-<letter>` (a default nickname is random): the income log lists sources by name.
    expect((await call('POST', '/api/user/update_profile', tokens.get(name)!, { nickname: `te-${name}` })).code).toBe(200);
    ids.set(await accountOf(name), name);
  }
  for (const name of NAMES) {
    await setTradePassword(app(), tokens.get(name)!);
    await fund(app(), await accountOf(name), 'USDT', '10000');
  }
  finance = await operatorToken(app(), 'te-finance', 'finance');
  plans = (await call<{ plans: HostingPlan[] }>('GET', '/api/hosting/config', tokens.get('a')!)).data.plans;
  // 11-14: E's 7-day order, renewing (last day 11-21).
  await open(tokens.get('e')!, '1000', 7, true);
  // E's sub-account, holding 500 of E's custody (opened on 11-20 below).
  const sub = await call<{ id: string }>('POST', '/api/account/create_sub', tokens.get('e')!, { nickname: 'te-e-sub' });
  expect(sub.code).toBe(200);
  subOfE = sub.data.id;
  await fund(app(), subOfE, 'USDT', '500');

  // 11-20: the days before run with the seeded table (nobody reaches its V1: 3 valid direct members
  // and 10,000 of performance), so nothing is earned before 11-21.
  now = new Date('2026-11-20T02:00:00Z');
  for (const day of ['2026-11-14', '2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19']) {
    await app().services.settlement.settle(day);
  }
  const saved = await call('PUT', '/api/admin/team/levels', finance, { levels: LEVELS });
  expect(saved.code).toBe(200);
  for (const [name, amount] of [
    ['a', '2000'],
    ['b', '1000'],
    ['c', '500'],
    ['d', '600'],
    ['h', '400'],
    ['f', '1000'],
    ['j', '2000'],
    ['k', '1000'],
    ['m', '500'],
    ['o', '1000'],
  ] as const) {
    await open(tokens.get(name)!, amount);
  }
  expect((await call('POST', '/api/account/switch', tokens.get('e')!, { accountId: subOfE })).code).toBe(200);
  await open(tokens.get('e')!, '500');
  expect((await call('POST', '/api/account/switch', tokens.get('e')!, { accountId: await accountOfMain('e') })).code).toBe(200);
  now = new Date('2026-11-21T02:00:00Z');
  await app().services.settlement.settle('2026-11-20');
  for (const day of ['2026-11-14', '2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20']) {
    expect(await earningsOf(day)).toEqual({});
  }
  return app();
}

async function settle21(): Promise<void> {
  now = new Date('2026-11-22T02:00:00Z');
  await app().services.settlement.settle('2026-11-21');
}

/** During 11-22 N opens 1000; after midnight, before 11-22 is settled, K opens 5000. */
async function open22(): Promise<void> {
  await open(tokens.get('n')!, '1000');
  now = new Date('2026-11-22T16:02:00Z'); // 00:02 on 11-23
  await open(tokens.get('k')!, '5000');
}

async function settle22(): Promise<void> {
  await app().services.settlement.settle('2026-11-22');
}

async function settle23(): Promise<void> {
  now = new Date('2026-11-24T02:00:00Z');
  await app().services.settlement.settle('2026-11-23');
}

/** Every member of the tree by its letter, and E's sub-account as `es`, for the balance tracker. */
async function accountNames(): Promise<Record<string, string>> {
  const names: Record<string, string> = { es: subOfE };
  for (const name of NAMES) names[name] = await accountOfMain(name);
  return names;
}

function app(): TestApp {
  if (!t) throw new Error('no platform built');
  return t;
}

const mains = new Map<Name, string>();
async function accountOfMain(name: Name): Promise<string> {
  if (!mains.has(name)) mains.set(name, [...ids.entries()].find(([, who]) => who === name)![0]);
  return mains.get(name)!;
}

afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('team earnings over three days', () => {
  it('11-21: levels as the day ended, direct, indirect, management (a higher level below a lower one), promotion, level dividend', async () => {
    await buildTree();
    const balances = await trackBalances(app(), await accountNames());
    await settle21();
    // The day's interest only (the earnings wait for 11-22's settlement), from the interest account:
    // A 2.4, B 1.2, C 0.6, D 0.72, E 1.0 (its 7-day order's last day; the renewal keeps the 1000 in
    // custody), Es 0.6, H 0.48, F 1.2, J 2.4, K 1.2, M 0.6, O 1.2 = 13.6.
    await balances.expectChanges({ ...INTEREST_OF_THE_FIRST_DAYS, 'platform:interest:USDT': '-13.6000' });
    // Own custody / valid direct / team performance at the end of 11-21 (E's renewal counted once: 1000 + Es 500).
    //   A 2000 / 3 (B, C, M) / 8500 = B 1000 + D 600 + H 400 + E 1500 + C 500 + F 1000 + J 2000 + K 1000 + M 500
    //     V3: its leg B meets V1 (1000 / 2 / 2500).
    //   B 1000 / 2 (D, E) / 2500 = 600 + 400 + 1500 → V1 (V2 needs 3000).
    //   C 500 / 1 (F; G holds nothing) / 4000 = 1000 + 2000 + 1000 → V1 (V2 needs own 1000).
    //   F 1000 / 2 (J, K) / 3000 → V2: a V2 below the V1 C.
    //   D 600 / 0 (H 400 not valid) / 400; E 1500 / 0 / 0; M 500 / 0 / 0; J, K, O, H: V0 (not stored).
    expect(await levelsOf('2026-11-21')).toEqual({
      a: [3, '2000.0000', 3, '8500.0000'],
      b: [1, '1000.0000', 2, '2500.0000'],
      c: [1, '500.0000', 1, '4000.0000'],
      f: [2, '1000.0000', 2, '3000.0000'],
    });
    // Static income of 11-21: A 2.4, B 1.2, C 0.6, D 0.72, E 1.0 + 0.6 = 1.6, H 0.48, F 1.2, J 2.4, K 1.2,
    // M 0.6, O 1.2: 13.6 in all.
    // Direct (the inviter's level's rate): A (V3 15 %) on B 1.2, C 0.6, M 0.6 = 0.18 + 0.09 + 0.09 = 0.36;
    //   B (V1 10 %) on D 0.72, E 1.6 = 0.072 + 0.16 = 0.232; D (V0 5 %) on H 0.48 = 0.024;
    //   C (V1 10 %) on F 1.2 = 0.12; F (V2 12 %) on J 2.4, K 1.2 = 0.288 + 0.144 = 0.432.
    // Indirect 5 %, generation 2 … N + 1: A (V3, up to 4) on D 0.72, E 1.6, F 1.2 (gen 2) and H 0.48, J 2.4,
    //   K 1.2 (gen 3) = 0.036 + 0.08 + 0.06 + 0.024 + 0.12 + 0.06 = 0.38; B (V1, gen 2 only) on H = 0.024;
    //   C (V1) on J, K = 0.12 + 0.06 = 0.18. (F is V2, up to gen 3, but has no gen 2 below it.)
    // Management, walking up from each source, each takes its rate less the highest below it:
    //   from B 1.2, C 0.6, M 0.6: A 30 % = 0.36 + 0.18 + 0.18;
    //   from D 0.72: B 10 % = 0.072, A 20 % = 0.144; from E 1.6: B 0.16, A 0.32; from H 0.48 (D is V0):
    //   B 0.048, A 0.096; from F 1.2: C 10 % = 0.12, A 20 % = 0.24;
    //   from J 2.4: F 20 % = 0.48, C nothing (10 % < 20 %), A 10 % = 0.24; from K 1.2: F 0.24, A 0.12.
    //   A = 1.88, B = 0.28, C = 0.12, F = 0.72.
    // Community: nothing opened on 11-21 (the renewal is not new performance).
    // Promotion, every level first reached: A V1 + V2 + V3 = 160, B 10, C 10, F V1 + V2 = 60.
    // Level dividend: pools of 13.6 × 2 % = 0.272 (V1+: A, B, C, F: 0.068 each), × 1 % = 0.136 (V2+: A, F:
    //   0.068 each), × 1 % = 0.136 (V3: A). A = 0.272, B = C = 0.068, F = 0.136.
    expect(await earningsOf('2026-11-21')).toEqual({
      'a:direct': '0.3600',
      'a:indirect': '0.3800',
      'a:level_dividend': '0.2720',
      'a:management': '1.8800',
      'a:promotion': '160.0000',
      'b:direct': '0.2320',
      'b:indirect': '0.0240',
      'b:level_dividend': '0.0680',
      'b:management': '0.2800',
      'b:promotion': '10.0000',
      'c:direct': '0.1200',
      'c:indirect': '0.1800',
      'c:level_dividend': '0.0680',
      'c:management': '0.1200',
      'c:promotion': '10.0000',
      'd:direct': '0.0240',
      'f:direct': '0.4320',
      'f:level_dividend': '0.1360',
      'f:management': '0.7200',
      'f:promotion': '60.0000',
    });
    // Nothing has arrived: the default delay is the next settlement.
    expect(await statusOf('2026-11-21')).toEqual({ to_arrive: 20 });
    expect(await entryCount()).toBe(0);
  }, 180_000);

  it('11-22: a member crossing a level mid-way is that level from that day; earnings of 11-21 arrive', async () => {
    await buildTree();
    await settle21();
    // A's cash: 10000 − 2000 in custody + 11-21's interest 2.4.
    expect(await availableOf(app(), await accountOf('a'), 'USDT')).toBe('8002.4000');
    await open22();
    const balances = await trackBalances(app(), await accountNames());
    await settle22();
    // 11-22's interest (as on 11-21: N's order earns from 11-23, E's renewal the same 1.0) and 11-21's
    // earnings, from the rewards account: A 0.36 + 0.38 + 0.272 + 1.88 + 160 = 162.892,
    // B 0.232 + 0.024 + 0.068 + 0.28 + 10 = 10.604, C 0.12 + 0.18 + 0.068 + 0.12 + 10 = 10.488, D 0.024,
    // F 0.432 + 0.136 + 0.72 + 60 = 61.288: 245.296 in all.
    await balances.expectChanges({
      ...INTEREST_OF_THE_FIRST_DAYS,
      'a:USDT:available': '165.2920',
      'b:USDT:available': '11.8040',
      'c:USDT:available': '11.0880',
      'd:USDT:available': '0.7440',
      'f:USDT:available': '62.4880',
      'platform:interest:USDT': '-13.6000',
      'platform:rewards:USDT': '-245.2960',
    });
    // M: 500 / 1 (N) / 1000 → V1 from 11-22. A's performance 8500 + 1000; K's 5000 counts nowhere yet
    // (F still 3000, C 4000).
    expect(await levelsOf('2026-11-22')).toEqual({
      a: [3, '2000.0000', 3, '9500.0000'],
      b: [1, '1000.0000', 2, '2500.0000'],
      c: [1, '500.0000', 1, '4000.0000'],
      f: [2, '1000.0000', 2, '3000.0000'],
      m: [1, '500.0000', 1, '1000.0000'],
    });
    // Static income as on 11-21 (N's order earns from 11-23; E's renewal takes over with the same 1.0).
    // Direct, indirect and management as on 11-21 (M's own income is A's: M's rate takes nothing of it).
    // Community: N's 1000 opened on 11-22: M (V1 1 %) = 10, A (V3 3 %) = 30. K's 5000 is 11-23's.
    // Promotion: M V1 = 10 (nobody else reaches a new level).
    // Level dividend: 0.272 among A, B, C, F, M = 0.0544 each; 0.136 among A, F = 0.068; 0.136 to A.
    //   A = 0.0544 + 0.068 + 0.136 = 0.2584, F = 0.1224, B = C = M = 0.0544.
    expect(await earningsOf('2026-11-22')).toEqual(EARNINGS_OF_11_22);
    // 11-21's earnings arrived with 11-22's settlement: one entry per member, day and type.
    expect(await statusOf('2026-11-21')).toEqual({ arrived: 20 });
    expect(await statusOf('2026-11-22')).toEqual({ to_arrive: 20 });
    expect(await entryCount()).toBe(20);
    // A: + 11-22's interest 2.4 + 11-21's earnings 0.36 + 0.38 + 0.272 + 1.88 + 160 = 162.892: 8167.692.
    expect(await availableOf(app(), await accountOf('a'), 'USDT')).toBe('8167.6920');
  }, 180_000);

  it('custody opened and redeemed on the same day is not new performance: no community earning on it', async () => {
    await buildTree();
    await settle21();
    const balances = await trackBalances(app(), await accountNames());
    // During 11-22 G (below C, below A) opens 2000 for 30 days and redeems it the same day: 5 % penalty
    // (100) to the fees account, 1900 back to cash.
    const order = await open(tokens.get('g')!, '2000');
    await balances.expectChanges({ 'g:USDT:available': '-2000.0000', 'g:USDT:custody': '2000.0000' });
    const redeemed = await call('POST', '/api/hosting/sub', tokens.get('g')!, {
      orderId: order.id,
      tradePassword: 'trade-pass-1',
    });
    expect(redeemed.code).toBe(200);
    await balances.expectChanges({
      'g:USDT:available': '1900.0000',
      'g:USDT:custody': '-2000.0000',
      'platform:fees:USDT': '100.0000',
    });
    await open22();
    await settle22();
    // G held nothing as 11-22 ended, so its 2000 was never the day's new performance: the day's
    // community earnings are N's 1000 alone (M 10, A 30), nothing for C (1 % would be 20) and nothing
    // more for A (3 % would be 60); every other earning is as in the 11-22 test.
    expect(await earningsOf('2026-11-22')).toEqual(EARNINGS_OF_11_22);
  }, 180_000);

  it('11-23: custody opened after midnight counts from its own day; a re-run pays nothing twice', async () => {
    await buildTree();
    await settle21();
    await open22();
    await settle22();
    const balances = await trackBalances(app(), await accountNames());
    await settle23();
    // 11-23's interest: 13.6 and N's 1.2 (14.8); 11-22's earnings arrive: A 30 + 0.36 + 0.38 + 0.2584 + 1.88
    // = 32.8784, B 0.232 + 0.024 + 0.0544 + 0.28 = 0.5904, C 0.12 + 0.18 + 0.0544 + 0.12 = 0.4744, D 0.024,
    // F 0.432 + 0.1224 + 0.72 = 1.2744, M 10 + 0.0544 + 10 = 20.0544: 55.296 in all.
    await balances.expectChanges({
      ...INTEREST_OF_THE_FIRST_DAYS,
      'a:USDT:available': '35.2784',
      'b:USDT:available': '1.7904',
      'c:USDT:available': '1.0744',
      'd:USDT:available': '0.7440',
      'f:USDT:available': '2.4744',
      'm:USDT:available': '20.6544',
      'n:USDT:available': '1.2000',
      'platform:interest:USDT': '-14.8000',
      'platform:rewards:USDT': '-55.2960',
    });
    // K 6000 / 0 / 0 (V0); F 1000 / 2 / 8000 (V3 needs own 2000: V2); C 500 / 1 / 9000; A 2000 / 3 / 14500.
    expect(await levelsOf('2026-11-23')).toEqual({
      a: [3, '2000.0000', 3, '14500.0000'],
      b: [1, '1000.0000', 2, '2500.0000'],
      c: [1, '500.0000', 1, '9000.0000'],
      f: [2, '1000.0000', 2, '8000.0000'],
      m: [1, '500.0000', 1, '1000.0000'],
    });
    // N's 1000 earns 1.2 from 11-23: M direct 10 % = 0.12, management M 10 % = 0.12 and A 30 − 10 = 20 % = 0.24,
    // A indirect (gen 2) 5 % = 0.06. Static 13.6 + 1.2 = 14.8.
    // Community: K's 5000 opened on 11-23: F (V2 2 %) = 100, C (V1 1 %) = 50, A (V3 3 %) = 150.
    // Level dividend: 14.8 × 2 % = 0.296 / 5 = 0.0592; × 1 % = 0.148 / 2 = 0.074; 0.148 to A.
    //   A = 0.0592 + 0.074 + 0.148 = 0.2812; F = 0.1332; B = C = M = 0.0592.
    expect(await earningsOf('2026-11-23')).toEqual({
      'a:community': '150.0000',
      'a:direct': '0.3600',
      'a:indirect': '0.4400',
      'a:level_dividend': '0.2812',
      'a:management': '2.1200',
      'b:direct': '0.2320',
      'b:indirect': '0.0240',
      'b:level_dividend': '0.0592',
      'b:management': '0.2800',
      'c:community': '50.0000',
      'c:direct': '0.1200',
      'c:indirect': '0.1800',
      'c:level_dividend': '0.0592',
      'c:management': '0.1200',
      'd:direct': '0.0240',
      'f:community': '100.0000',
      'f:direct': '0.4320',
      'f:level_dividend': '0.1332',
      'f:management': '0.7200',
      'm:direct': '0.1200',
      'm:level_dividend': '0.0592',
      'm:management': '0.1200',
    });
    expect(await entryCount()).toBe(40);
    // Running the days' team steps again (a crash and a re-run) computes and pays nothing more: each
    // re-run must succeed and leave the days' figures, earnings and every balance as they were (a step
    // that computed a claimed day again would fail on the day's rows or write its items twice).
    const days = ['2026-11-21', '2026-11-22', '2026-11-23'];
    const stored = await Promise.all(days.map((day) => app().services.teamEarnings.dayFigures(day)));
    const earnings = await Promise.all(days.map((day) => earningsOf(day)));
    await balances.reset();
    for (const day of days) {
      for (const step of app().services.teamEarnings.settlementSteps()) await expect(step.run(day)).resolves.toBeUndefined();
    }
    expect(await Promise.all(days.map((day) => app().services.teamEarnings.dayFigures(day)))).toEqual(stored);
    expect(await Promise.all(days.map((day) => earningsOf(day)))).toEqual(earnings);
    await balances.expectChanges({});
    expect(await entryCount()).toBe(40);
    expect(await statusOf('2026-11-23')).toEqual({ to_arrive: 22 });
  }, 180_000);

  it('the member sees each earning with its source, and totals per type; the console lists them', async () => {
    await buildTree();
    await settle21();
    await open22();
    await settle22();
    await settle23();
    const a = tokens.get('a')!;
    // 11-21 and 11-22 have arrived, 11-23 is to arrive.
    expect((await call('GET', '/api/user/team_earnings', a)).data).toEqual([
      { type: 'direct', toArrive: '0.3600', arrived: '0.7200' },
      { type: 'indirect', toArrive: '0.4400', arrived: '0.7600' },
      { type: 'community', toArrive: '150.0000', arrived: '30.0000' },
      { type: 'management', toArrive: '2.1200', arrived: '3.7600' },
      { type: 'promotion', toArrive: '0.0000', arrived: '160.0000' },
      // 0.272 + 0.2584 arrived.
      { type: 'level_dividend', toArrive: '0.2812', arrived: '0.5304' },
    ]);
    type Income = { items: { type: string; amount: string; state: string; source: string; day: string; team?: object }[] };
    const direct = (await call<Income>('GET', '/api/income/log?type=direct&pageSize=4', a)).data.items;
    // A's direct on 11-23: 15 % of B 1.2, C 0.6, M 0.6.
    expect(direct.slice(0, 3)).toEqual(
      (
        [
          ['b', '1.2000', '0.1800'],
          ['c', '0.6000', '0.0900'],
          ['m', '0.6000', '0.0900'],
        ] as const
      ).map(([who, base, amount]) => ({
        type: 'direct',
        asset: 'USDT',
        amount,
        state: 'to_arrive',
        source: `te-${who}`,
        day: '2026-11-23',
        team: {
          sourceEmail: `t***${who}@example.com`,
          sourceNickname: `te-${who}`,
          generation: 1,
          level: 3,
          base,
          ratePct: '15',
          sharedBy: null,
        },
      })),
    );
    expect(direct[3]).toMatchObject({ source: 'te-b', day: '2026-11-22', state: 'arrived', amount: '0.1800' });
    // Management from J on 11-23: A's 30 % less F's 20 % below it, three generations down.
    const management = (await call<Income>('GET', '/api/income/log?type=management&pageSize=10', a)).data.items;
    expect(management.find((item) => item.source === 'te-j')).toEqual({
      type: 'management',
      asset: 'USDT',
      amount: '0.2400',
      state: 'to_arrive',
      source: 'te-j',
      day: '2026-11-23',
      team: {
        sourceEmail: 't***j@example.com',
        sourceNickname: 'te-j',
        generation: 3,
        level: 3,
        base: '2.4000',
        ratePct: '10',
        sharedBy: null,
      },
    });
    // The level dividend is a dividend: each level's pool of 11-23 (14.8 × 2 %, 1 %, 1 %) and how many shared it.
    const dividend = (await call<Income>('GET', '/api/income/log?type=dividend&pageSize=3', a)).data.items;
    expect(dividend.map((item) => [item.source, item.amount, item.state, item.team])).toEqual([
      [
        'V1',
        '0.0592',
        'to_arrive',
        { sourceEmail: null, sourceNickname: null, generation: null, level: 1, base: '0.2960', ratePct: '2', sharedBy: 5 },
      ],
      [
        'V2',
        '0.0740',
        'to_arrive',
        { sourceEmail: null, sourceNickname: null, generation: null, level: 2, base: '0.1480', ratePct: '1', sharedBy: 2 },
      ],
      [
        'V3',
        '0.1480',
        'to_arrive',
        { sourceEmail: null, sourceNickname: null, generation: null, level: 3, base: '0.1480', ratePct: '1', sharedBy: 1 },
      ],
    ]);
    const promotion = (await call<Income>('GET', '/api/income/log?type=promotion', a)).data.items;
    expect(promotion.map((item) => [item.source, item.amount, item.state, item.day])).toEqual([
      ['V1', '10.0000', 'arrived', '2026-11-21'],
      ['V2', '50.0000', 'arrived', '2026-11-21'],
      ['V3', '100.0000', 'arrived', '2026-11-21'],
    ]);
    const types = (await call<{ type: string; available: boolean }[]>('GET', '/api/income/type_list', a)).data;
    expect(types.filter((item) => item.available).map((item) => item.type)).toEqual([
      'static',
      'mining',
      'dividend',
      'direct',
      'indirect',
      'community',
      'management',
      'promotion',
      'airdrop',
    ]);
    // Another member sees only their own: G earned nothing.
    expect((await call<Income>('GET', '/api/income/log?type=direct', tokens.get('g')!)).data.items).toEqual([]);

    // The console: A's earnings of 11-23 and A's promotions.
    const listed = await call<{ items: { type: string; amount: string; status: string; arriveOn: string }[]; total: number }>(
      'GET',
      '/api/admin/team/earnings?email=te-a@example.com&day=2026-11-23',
      finance,
    );
    expect(listed.data.total).toBe(5);
    expect(listed.data.items.map((item) => [item.type, item.amount, item.status, item.arriveOn])).toEqual([
      ['community', '150.0000', 'to_arrive', '2026-11-24'],
      ['direct', '0.3600', 'to_arrive', '2026-11-24'],
      ['indirect', '0.4400', 'to_arrive', '2026-11-24'],
      ['level_dividend', '0.2812', 'to_arrive', '2026-11-24'],
      ['management', '2.1200', 'to_arrive', '2026-11-24'],
    ]);
    const promotions = await call<{ items: { level: number; day: string; bonus: string }[]; total: number }>(
      'GET',
      '/api/admin/team/promotions?pageSize=100',
      finance,
    );
    expect(promotions.data.items.map((item) => [item.level, item.day, item.bonus])).toEqual([
      [1, '2026-11-22', '10.0000'],
      [3, '2026-11-21', '100.0000'],
      [2, '2026-11-21', '50.0000'],
      [2, '2026-11-21', '50.0000'],
      [1, '2026-11-21', '10.0000'],
      [1, '2026-11-21', '10.0000'],
      [1, '2026-11-21', '10.0000'],
      [1, '2026-11-21', '10.0000'],
    ]);
  }, 180_000);

  it('a past day computed again after the table changed pays exactly the same', async () => {
    await buildTree();
    await settle21();
    await open22();
    await settle22();
    await settle23();
    const stored = await Promise.all(
      ['2026-11-21', '2026-11-22', '2026-11-23'].map((day) => app().services.teamEarnings.dayFigures(day)),
    );
    // The operator halves every threshold and doubles every rate from 11-25 on.
    const changed = LEVELS.map((level) => ({
      ...level,
      minOwnCustody: String(Number(level.minOwnCustody) / 2),
      minTeamPerformance: String(Number(level.minTeamPerformance) / 2),
      directRatePct: String(Number(level.directRatePct) * 2),
      managementRatePct: String(Number(level.managementRatePct) * 2),
      promotionBonus: String(Number(level.promotionBonus) * 2),
    }));
    expect((await call('PUT', '/api/admin/team/levels', finance, { levels: changed })).code).toBe(200);
    for (const [index, day] of ['2026-11-21', '2026-11-22', '2026-11-23'].entries()) {
      expect(await app().services.teamEarnings.recomputeDay(day)).toEqual(stored[index]);
    }
    // And the stored days are untouched by the check (it rolls back).
    expect(await app().services.teamEarnings.dayFigures('2026-11-22')).toEqual(stored[1]);
  }, 180_000);

  it('the arrival delay is an audited setting of team.manage; a day computed later arrives that many days after it', async () => {
    await buildTree();
    await settle21();
    await open22();
    await settle22();
    await settle23();
    const support = await operatorToken(app(), 'te-support', 'support');
    expect(await call('PUT', '/api/admin/team/earnings/settings', support, { arrivalDelayDays: 2 })).toMatchObject({ code: 403 });
    expect(await call('PUT', '/api/admin/team/earnings/settings', finance, { arrivalDelayDays: 31 })).toMatchObject({
      code: 400,
    });
    expect(await call('PUT', '/api/admin/team/earnings/settings', finance, { arrivalDelayDays: 2 })).toMatchObject({
      code: 200,
      data: { arrivalDelayDays: 2 },
    });
    expect((await call('GET', '/api/admin/team/earnings/settings', finance)).data).toEqual({ arrivalDelayDays: 2 });
    const audited = await queryRows<{ before: object; after: object }>(
      app().testDatabase.database.db,
      sql`select before, after from audit_log where action = 'team.earnings_settings_saved'`,
    );
    expect(audited).toEqual([{ before: { arrivalDelayDays: 1 }, after: { arrivalDelayDays: 2 } }]);
    // 11-24 is computed with the new delay: its earnings arrive with 11-26's settlement, not 11-25's.
    now = new Date('2026-11-25T02:00:00Z');
    await app().services.settlement.settle('2026-11-24');
    const arriving = await queryRows<{ arrive_on: string; n: number }>(
      app().testDatabase.database.db,
      sql`select arrive_on::text as arrive_on, count(*)::int as n from team_earnings where day in ('2026-11-23', '2026-11-24')
          group by arrive_on, status order by arrive_on`,
    );
    // 11-23's (22 rows, delay 1) arrived with 11-24's settlement; 11-24's wait for 11-26.
    expect(arriving.map((row) => row.arrive_on)).toEqual(['2026-11-24', '2026-11-26']);
    expect(await statusOf('2026-11-23')).toEqual({ arrived: 22 });
    expect(Object.keys(await statusOf('2026-11-24'))).toEqual(['to_arrive']);
  }, 180_000);
});
