import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  HostingOrder,
  HostingPlan,
  TeamInfo,
  TeamLevelInput,
  TeamLevelPreview,
  TeamLevelVersion,
  TeamMember,
} from '@custos/contract';
import { readFileSync } from 'node:fs';
import { queryRows } from '../src/db/client.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The referral team on a hand-built tree of 15 members (A…O). Every figure below is worked out by
 * hand from the tree and the custody each member opens or redeems:
 *
 *   A ─┬─ B ─┬─ D ── H ── L
 *      │     └─ E ── I
 *      ├─ C ─┬─ F ─┬─ J
 *      │     │     └─ K
 *      │     └─ G
 *      └─ M ── N                 O (another tree)
 */

// Friday 2026-11-20, 10:00 in Shanghai.
let now = new Date('2026-11-20T02:00:00Z');
const clock = { now: () => now };

let t: TestApp;
let finance: string;
let support: string;
let plans: HostingPlan[];
const tokens = new Map<string, string>();
const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o'] as const;
type Name = (typeof NAMES)[number];
const INVITER: Partial<Record<Name, Name>> = {
  b: 'a',
  c: 'a',
  m: 'a',
  d: 'b',
  e: 'b',
  h: 'd',
  l: 'h',
  i: 'e',
  f: 'c',
  g: 'c',
  j: 'f',
  k: 'f',
  n: 'm',
};

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, as: string, payload?: object, lang = 'EN') {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

function token(name: Name): string {
  return tokens.get(name)!;
}

async function open(name: Name, amount: string, days = 30, autoRenew = false): Promise<HostingOrder> {
  return openAs(token(name), amount, days, autoRenew);
}

async function openAs(as: string, amount: string, days = 30, autoRenew = false): Promise<HostingOrder> {
  const planId = plans.find((plan) => plan.periodDays === days)!.id;
  const response = await call<HostingOrder>('POST', '/api/hosting/create', as, {
    planId,
    amount,
    autoRenew,
    tradePassword: 'trade-pass-1',
    idempotencyKey: randomUUID(),
  });
  expect(response.body.code).toBe(200);
  return response.body.data;
}

async function info(name: Name): Promise<TeamInfo> {
  const response = await call<TeamInfo>('GET', '/api/user/team_info', token(name));
  expect(response.body.code).toBe(200);
  return response.body.data;
}

async function members(name: Name, query = '') {
  const response = await call<{ items: TeamMember[]; total: number }>('GET', `/api/user/team?${query}`, token(name));
  expect(response.body.code).toBe(200);
  return response.body.data;
}

/** Who a list shows, by the letter in their nickname (`tm-b` → b). */
function letters(items: TeamMember[]): string[] {
  return items.map((item) => item.nickname.replace('tm-', ''));
}

async function expectConsistent(): Promise<void> {
  expect(await t.services.team.differences()).toEqual([]);
}

const LEVELS: TeamLevelInput[] = [
  { level: 0, name: 'V0', minOwnCustody: '0', minValidDirect: 0, minTeamPerformance: '0', minLegs: 0, legsLevel: null },
  { level: 1, name: 'V1', minOwnCustody: '500', minValidDirect: 1, minTeamPerformance: '500', minLegs: 0, legsLevel: null },
  { level: 2, name: 'V2', minOwnCustody: '1000', minValidDirect: 1, minTeamPerformance: '1000', minLegs: 1, legsLevel: 1 },
  { level: 3, name: 'V3', minOwnCustody: '2000', minValidDirect: 2, minTeamPerformance: '100000', minLegs: 0, legsLevel: null },
].map((level) => ({
  ...level,
  directRatePct: '10',
  indirectRatePct: '5',
  indirectGenerations: 3,
  communityRatePct: '1.5',
  managementRatePct: '8',
  dividendRatePct: '2',
  promotionBonus: '100',
}));

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  for (const name of NAMES) {
    const inviter = INVITER[name];
    let code: string | undefined;
    if (inviter) {
      const share = await call<{ inviteCode: string; registerPath: string }>('GET', '/api/user/share', token(inviter));
      code = share.body.data.inviteCode;
      expect(share.body.data.registerPath).toBe(`#/pages/register/register?code=${code}`);
    }
    tokens.set(name, await registerMember(t, `tm-${name}@example.com`, 'member-password', code));
    // Each member names itself `tm-<letter>` (a default nickname is random, so the lists below would be unreadable).
    const named = await call('POST', '/api/user/update_profile', token(name), { nickname: `tm-${name}` });
    expect(named.body.code).toBe(200);
  }
  for (const name of ['a', 'b', 'd', 'e', 'f', 'h', 'j', 'l', 'n'] as const) {
    await setTradePassword(t, token(name));
    await fund(t, await accountIdOf(t, token(name)), 'USDT', '5000');
  }
  finance = await operatorToken(t, 'team-finance', 'finance');
  support = await operatorToken(t, 'team-support', 'support');
  plans = (await call<{ plans: HostingPlan[] }>('GET', '/api/hosting/config', token('a'))).body.data.plans;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('team figures', () => {
  it('counts direct and indirect members from registration', async () => {
    const a = await info('a');
    expect([a.directCount, a.indirectCount, a.validDirectCount, a.validTeamCount]).toEqual([3, 10, 0, 0]);
    expect(a.performance).toEqual({ today: '0.0000', month: '0.0000', total: '0.0000' });
    const b = await info('b');
    expect([b.directCount, b.indirectCount]).toEqual([2, 3]);
    const o = await info('o');
    expect([o.directCount, o.indirectCount]).toEqual([0, 0]);
    await expectConsistent();
  });

  it('moves team performance and valid members with every custody opened and redeemed', async () => {
    await open('a', '1000');
    await open('b', '1000');
    const dOrder = await open('d', '600');
    await open('h', '300');
    await open('l', '500');
    await open('f', '2000');
    await open('j', '400');
    await open('n', '800', 7);

    // A's team: B 1000 + D 600 + H 300 + L 500 + F 2000 + J 400 + N 800 (A's own 1000 is not team performance).
    let a = await info('a');
    expect(a.performance).toEqual({ today: '5600.0000', month: '5600.0000', total: '5600.0000' });
    expect(a.ownCustody).toBe('1000.0000');
    expect([a.isValid, a.validThreshold]).toEqual([true, '500.0000']);
    // Valid (≥ 500): B, D, L (exactly 500), F, N; H 300 and J 400 are not. Direct and valid: B only.
    expect([a.validDirectCount, a.validTeamCount]).toEqual([1, 5]);
    let b = await info('b');
    expect(b.performance.total).toBe('1400.0000');
    expect([b.validDirectCount, b.validTeamCount]).toEqual([1, 2]);
    const d = await info('d');
    expect(d.performance.total).toBe('800.0000');
    expect([d.validDirectCount, d.validTeamCount]).toEqual([0, 1]);
    const c = await info('c');
    expect(c.performance.total).toBe('2400.0000');
    expect([c.validDirectCount, c.validTeamCount]).toEqual([1, 1]);
    await expectConsistent();

    // The next platform day: D redeems early, L adds 200, E opens 500, F adds 200 for 7 days, renewing.
    now = new Date('2026-11-21T02:00:00Z');
    const redeemed = await call('POST', '/api/hosting/sub', token('d'), { orderId: dOrder.id, tradePassword: 'trade-pass-1' });
    expect(redeemed.body.code).toBe(200);
    await open('l', '200');
    await open('e', '500');
    await open('f', '200', 7, true);

    // 5600 − 600 + 200 + 500 + 200; today is what opened today (200 + 500 + 200), the month everything opened.
    a = await info('a');
    expect(a.performance).toEqual({ today: '900.0000', month: '6500.0000', total: '5900.0000' });
    expect([a.validDirectCount, a.validTeamCount]).toEqual([1, 5]);
    b = await info('b');
    // B: H 300 + L 700 + E 500; valid direct E (D left), valid E and L.
    expect(b.performance).toEqual({ today: '700.0000', month: '2100.0000', total: '1500.0000' });
    expect([b.directCount, b.indirectCount, b.validDirectCount, b.validTeamCount]).toEqual([2, 3, 1, 2]);
    await expectConsistent();
  });

  it('lists only the own downline, newest first, direct or all, searchable by nickname', async () => {
    const direct = await members('a', 'scope=direct');
    expect(letters(direct.items)).toEqual(['m', 'c', 'b']);
    expect(direct.total).toBe(3);
    const b = direct.items[2]!;
    expect(b).toMatchObject({
      maskedEmail: 't***b@example.com',
      generation: 1,
      level: 0,
      levelName: 'V0',
      isValid: true,
      ownCustody: '1000.0000',
      teamPerformance: '1500.0000',
    });

    const all = await members('a', 'scope=all&pageSize=5');
    expect(letters(all.items)).toEqual(['n', 'm', 'l', 'k', 'j']);
    expect(all.total).toBe(13);
    const second = await members('a', 'scope=all&pageSize=5&page=3');
    expect(letters(second.items)).toEqual(['d', 'c', 'b']);
    // A page past the end is empty and still carries the total.
    expect(await members('a', 'scope=all&pageSize=5&page=4')).toEqual({ items: [], total: 13, page: 4, pageSize: 5 });
    expect(all.items[2]).toMatchObject({ generation: 4, isValid: true, ownCustody: '700.0000', teamPerformance: '0.0000' });

    const found = await members('a', 'query=TM-L');
    expect(letters(found.items)).toEqual(['l']);
    expect(found.total).toBe(1);

    // Nobody above or beside: B sees D, E and below only; O (another tree) sees no one, and A never sees O.
    expect(letters((await members('b')).items)).toEqual(['l', 'i', 'h', 'e', 'd']);
    expect(await members('o')).toEqual({ items: [], total: 0, page: 1, pageSize: 20 });
    expect(letters((await members('a', 'query=tm-o')).items)).toEqual([]);
    expect(letters((await members('l')).items)).toEqual([]);
    // A member's session opens none of the console's team calls.
    expect((await call('GET', '/api/admin/team/levels', token('a'))).body.code).toBe(401);
    const unauthenticated = await t.app.inject({ method: 'GET', url: '/api/user/team' });
    expect(unauthenticated.json<Envelope>().code).toBe(401);
  });

  it('takes custody that ends at the settlement off the team, and keeps a renewed order once', async () => {
    // N's 7-day order from 2026-11-20 ends on 2026-11-27; F's 200 from 2026-11-21 renews on 2026-11-28.
    now = new Date('2026-11-29T02:00:00Z');
    for (let day = 20; day <= 28; day += 1) await t.services.settlement.settle(`2026-11-${day}`);
    const a = await info('a');
    // 5900 − 800; the renewal is neither lost custody nor new performance (the month stays 6500).
    expect(a.performance).toEqual({ today: '0.0000', month: '6500.0000', total: '5100.0000' });
    expect(a.validTeamCount).toBe(4);
    expect((await info('c')).performance.total).toBe('2600.0000');
    expect((await info('m')).performance.total).toBe('0.0000');
    await expectConsistent();
  });
});

describe('levels', () => {
  it('refuses rates outside 0–100 %, thresholds that do not rise, a gap, and changes nothing', async () => {
    const before = (await call<TeamLevelVersion[]>('GET', '/api/admin/team/levels', finance)).body.data;
    const rate = await call('PUT', '/api/admin/team/levels', finance, {
      levels: LEVELS.map((level) => (level.level === 2 ? { ...level, directRatePct: '100.5' } : level)),
    });
    expect(rate.status).toBe(400);
    expect(rate.body.message).toBe('direct reward rate: a rate from 0 to 100 % with at most 4 decimal places');
    const negative = await call('PUT', '/api/admin/team/levels', finance, {
      levels: LEVELS.map((level) => (level.level === 1 ? { ...level, communityRatePct: '-1' } : level)),
    });
    expect(negative.body.message).toBe('community reward rate: a rate from 0 to 100 % with at most 4 decimal places');

    const flat = await call('PUT', '/api/admin/team/levels', finance, {
      levels: LEVELS.map((level) => (level.level === 3 ? { ...level, minTeamPerformance: '999' } : level)),
    });
    expect(flat.status).toBe(400);
    expect(flat.body.message).toBe(
      'Each level needs thresholds at least as high as the level below it, and at least one higher: check V3',
    );
    const same = await call('PUT', '/api/admin/team/levels', finance, {
      levels: LEVELS.map((level) => (level.level === 2 ? { ...LEVELS[1]!, level: 2, name: 'V2' } : level)),
    });
    expect(same.body.message).toBe(
      'Each level needs thresholds at least as high as the level below it, and at least one higher: check V2',
    );
    const gap = await call('PUT', '/api/admin/team/levels', finance, { levels: LEVELS.filter((level) => level.level !== 2) });
    expect(gap.body.message).toBe('Levels are numbered V0, V1, V2… without a gap: V2 is missing');
    const gapZh = await call(
      'PUT',
      '/api/admin/team/levels',
      finance,
      { levels: LEVELS.filter((level) => level.level !== 1) },
      'CN',
    );
    expect(gapZh.body.message).toBe('等级须按 V0、V1、V2… 连续编号：缺少 V1');
    const legs = await call('PUT', '/api/admin/team/levels', finance, {
      levels: LEVELS.map((level) => (level.level === 2 ? { ...level, legsLevel: 2 } : level)),
    });
    expect(legs.body.message).toBe('V2: the legs must hold a lower level than V2');
    const forbidden = await call('PUT', '/api/admin/team/levels', support, { levels: LEVELS });
    expect(forbidden.body.code).toBe(403);

    expect((await call<TeamLevelVersion[]>('GET', '/api/admin/team/levels', finance)).body.data).toEqual(before);
    expect(before.map((version) => version.effectiveFrom)).toEqual(['2000-01-01']);
  });

  it('previews who would change level, then applies a saved table from the next platform day', async () => {
    // Today is 2026-11-29. Under the seeded table (V1 needs 10,000 team performance) everyone is V0.
    expect((await info('a')).level).toBe(0);
    const preview = await call<TeamLevelPreview>('POST', '/api/admin/team/levels/preview', finance, { levels: LEVELS });
    // A: own 1000, valid direct B, team 5100, and B meets V1 (own 1000, valid direct E, team 1500) as a leg → V2.
    // B: own 1000, valid direct E, team 1500, but no direct member meets V1 → V1.
    expect(preview.body.data).toEqual({
      effectiveFrom: '2026-11-30',
      changes: 2,
      sample: [
        expect.objectContaining({ email: 'tm-a@example.com', from: 0, to: 2 }),
        expect.objectContaining({ email: 'tm-b@example.com', from: 0, to: 1 }),
      ],
    });

    const saved = await call<TeamLevelVersion>('PUT', '/api/admin/team/levels', finance, { levels: LEVELS });
    expect(saved.body.code).toBe(200);
    expect(saved.body.data.effectiveFrom).toBe('2026-11-30');
    expect(saved.body.data.levels[2]).toMatchObject({
      minLegs: 1,
      legsLevel: 1,
      communityRatePct: '1.5',
      promotionBonus: '100.0000',
    });
    // Still today: the table in force has not changed.
    expect((await info('a')).level).toBe(0);

    now = new Date('2026-11-30T02:00:00Z');
    const a = await info('a');
    expect([a.level, a.levelName]).toEqual([2, 'V2']);
    expect(a.next).toEqual({
      level: 3,
      name: 'V3',
      requires: { ownCustody: '2000.0000', validDirect: 2, teamPerformance: '100000.0000', legs: 0, legsLevel: null },
      missing: { ownCustody: '1000.0000', validDirect: 1, teamPerformance: '94900.0000', legs: 0, legsLevel: null },
    });
    const b = await info('b');
    expect(b.level).toBe(1);
    expect(b.next?.missing).toEqual({ ownCustody: '0.0000', validDirect: 0, teamPerformance: '0.0000', legs: 1, legsLevel: 1 });
    const config = await call<{ effectiveFrom: string; myLevel: number; levels: unknown[] }>(
      'GET',
      '/api/user/team_level_config',
      token('b'),
    );
    expect([config.body.data.effectiveFrom, config.body.data.myLevel, config.body.data.levels.length]).toEqual([
      '2026-11-30',
      1,
      4,
    ]);
    expect(letters((await members('a', 'scope=direct')).items)).toEqual(['m', 'c', 'b']);
    expect((await members('a', 'scope=direct')).items[2]).toMatchObject({ level: 1, levelName: 'V1' });

    const audited = await queryRows<{ target_id: string; after: { effectiveFrom: string } }>(
      t.testDatabase.database.db,
      sql`select target_id, after from audit_log where action = 'team.levels_saved'`,
    );
    expect(audited.map((row) => [row.target_id, row.after.effectiveFrom])).toEqual([[saved.body.data.id, '2026-11-30']]);
  });

  it('shows the console a member’s upline and downline with figures', async () => {
    const detail = await call<{ items: { id: string; email: string }[] }>(
      'GET',
      '/api/admin/members?query=tm-d@example.com',
      support,
    );
    const memberId = detail.body.data.items[0]!.id;
    const team = await call<{
      self: { level: number; teamPerformance: string };
      upline: { email: string; generation: number; level: number }[];
      downline: { items: { email: string; generation: number }[]; total: number };
    }>('GET', `/api/admin/members/${memberId}/team`, support);
    expect(team.body.code).toBe(200);
    expect(team.body.data.self).toMatchObject({ level: 0, teamPerformance: '1000.0000' });
    expect(team.body.data.upline.map((node) => [node.email, node.generation, node.level])).toEqual([
      ['tm-b@example.com', -1, 1],
      ['tm-a@example.com', -2, 2],
    ]);
    expect(team.body.data.downline.items.map((node) => [node.email, node.generation])).toEqual([
      ['tm-l@example.com', 2],
      ['tm-h@example.com', 1],
    ]);
  });
});

describe('privacy', () => {
  it('never shows an upline the e-mail of a downline member who kept the default nickname', async () => {
    const localPart = 'satoshi.hidden-name';
    const share = await call<{ inviteCode: string }>('GET', '/api/user/share', token('l'));
    const p = await registerMember(t, `${localPart}@example.com`, 'member-password', share.body.data.inviteCode);
    const own = await call<{ nickname: string }>('GET', '/api/user/info', p);
    // Registered without a language header: the platform's default, Simplified Chinese.
    expect(own.body.data.nickname).toMatch(/^会员 [A-Z2-9]{6}$/);
    const tag = own.body.data.nickname.slice(-6);

    // L (its inviter) and A (five generations up), direct and every generation, and a search for it.
    for (const [name, query] of [
      ['l', 'scope=direct'],
      ['l', 'scope=all'],
      ['a', 'scope=all&pageSize=1'],
      ['a', `query=${tag}`],
    ] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/user/team?${query}`,
        headers: { authorization: token(name) },
      });
      const listed = response.json<Envelope<{ items: TeamMember[] }>>().data.items;
      expect(listed.map((item) => [item.nickname, item.maskedEmail])).toContainEqual([
        own.body.data.nickname,
        's***e@example.com',
      ]);
      expect(response.body.toLowerCase()).not.toContain('satoshi');
      expect(response.body.toLowerCase()).not.toContain('hidden');
    }
  });
});

describe('sub-accounts', () => {
  /**
   * P invites Q; Q holds 500 USDT in custody on the main account and 500 on each of two sub-accounts,
   * and R registers with the first sub-account's invitation code. A member is one person in the tree:
   * the sub-accounts are not Q's team, their custody is Q's own, and R is Q's direct member.
   */
  let p: string;
  let q: string;
  const subs: string[] = [];

  async function infoAs(as: string): Promise<TeamInfo> {
    const response = await call<TeamInfo>('GET', '/api/user/team_info', as);
    expect(response.body.code).toBe(200);
    return response.body.data;
  }

  async function switchTo(as: string, accountId: string): Promise<void> {
    expect((await call('POST', '/api/account/switch', as, { accountId })).body.code).toBe(200);
  }

  async function expectFigures(): Promise<void> {
    const qInfo = await infoAs(q);
    // Q: own 500 + 500 + 500; one direct member (R, holding nothing); no team performance.
    expect(qInfo.ownCustody).toBe('1500.0000');
    expect([qInfo.directCount, qInfo.indirectCount, qInfo.validDirectCount, qInfo.validTeamCount]).toEqual([1, 0, 0, 0]);
    expect(qInfo.performance.total).toBe('0.0000');
    // Counting the sub-accounts as members would give Q two valid direct members and 1000 team performance: V1.
    expect(qInfo.level).toBe(0);
    expect(qInfo.next!.missing.validDirect).toBe(qInfo.next!.requires.validDirect);
    const listed = await call<{ items: TeamMember[]; total: number }>('GET', '/api/user/team?scope=all', q);
    expect(listed.body.data.items.map((item) => item.nickname)).toEqual(['tm-r']);
    expect(listed.body.data.total).toBe(1);
    expect((await call<{ items: TeamMember[] }>('GET', '/api/user/team?query=q-sub', q)).body.data.items).toEqual([]);

    // P: one direct member, Q, valid on the 1500 Q holds in all its accounts; R below it.
    const pInfo = await infoAs(p);
    expect([pInfo.directCount, pInfo.indirectCount, pInfo.validDirectCount, pInfo.validTeamCount]).toEqual([1, 1, 1, 1]);
    expect(pInfo.performance).toEqual({ today: '1500.0000', month: '1500.0000', total: '1500.0000' });
    const pList = await call<{ items: TeamMember[]; total: number }>('GET', '/api/user/team?scope=all', p);
    expect(pList.body.data.items.map((item) => [item.nickname, item.generation, item.ownCustody, item.isValid])).toEqual([
      ['tm-r', 2, '0.0000', false],
      ['tm-q', 1, '1500.0000', true],
    ]);
    await expectConsistent();
  }

  it('keeps a member’s own sub-accounts out of the team and counts their custody as the member’s', async () => {
    p = await registerMember(t, 'tm-p@example.com');
    const pCode = (await call<{ inviteCode: string }>('GET', '/api/user/share', p)).body.data.inviteCode;
    q = await registerMember(t, 'tm-q@example.com', 'member-password', pCode);
    for (const [as, nickname] of [
      [p, 'tm-p'],
      [q, 'tm-q'],
    ] as const) {
      expect((await call('POST', '/api/user/update_profile', as, { nickname })).body.code).toBe(200);
    }
    await setTradePassword(t, q);
    const main = await accountIdOf(t, q);
    await fund(t, main, 'USDT', '500');
    await openAs(q, '500');
    for (const nickname of ['q-sub-1', 'q-sub-2']) {
      const created = await call<{ id: string }>('POST', '/api/account/create_sub', q, { nickname });
      expect(created.body.code).toBe(200);
      subs.push(created.body.data.id);
      await fund(t, created.body.data.id, 'USDT', '500');
      await switchTo(q, created.body.data.id);
      await openAs(q, '500');
    }
    await switchTo(q, subs[0]!);
    // On a sub-account the Team tab is the member's: the same figures as on the main account.
    expect((await infoAs(q)).ownCustody).toBe('1500.0000');
    const subCode = (await call<{ inviteCode: string }>('GET', '/api/user/share', q)).body.data.inviteCode;
    const r = await registerMember(t, 'tm-r@example.com', 'member-password', subCode);
    expect((await call('POST', '/api/user/update_profile', r, { nickname: 'tm-r' })).body.code).toBe(200);
    await switchTo(q, main);
    await expectFigures();

    // The console's downline of P lists the same people.
    const found = await call<{ items: { id: string }[] }>('GET', '/api/admin/members?query=tm-p@example.com', support);
    const team = await call<{ downline: { items: { email: string; generation: number }[]; total: number } }>(
      'GET',
      `/api/admin/members/${found.body.data.items[0]!.id}/team`,
      support,
    );
    expect(team.body.data.downline.items.map((node) => [node.email, node.generation])).toEqual([
      ['tm-r@example.com', 2],
      ['tm-q@example.com', 1],
    ]);
    expect(team.body.data.downline.total).toBe(2);
  });

  it('corrects a tree that held the sub-accounts as members (the migration’s backfill)', async () => {
    const db = t.testDatabase.database.db;
    // The tree as the first team migration built it: each sub-account a node of its own under Q.
    await db.execute(sql`
      with q as (select n.seq, n.depth from team_nodes n join accounts a on a.id = n.account_id join members m on m.id = a.member_id
                 where m.email = 'tm-q@example.com' and a.kind = 'main'),
      added as (
        insert into team_nodes (account_id, inviter_seq, depth, own_custody, joined_at)
        select a.id, q.seq, q.depth + 1, 500, a.created_at from accounts a, q where a.id in (${subs[0]!}::uuid, ${subs[1]!}::uuid)
        returning seq, inviter_seq)
      insert into team_closure (ancestor_seq, descendant_seq, depth)
        select added.inviter_seq, added.seq, 1 from added
        union all select c.ancestor_seq, added.seq, c.depth + 1 from added join team_closure c on c.descendant_seq = added.inviter_seq`);
    expect((await t.services.team.differences()).filter((row) => row.field === 'node')).toHaveLength(2);

    const migration = readFileSync(new URL('../drizzle/0027_team_person.sql', import.meta.url), 'utf8');
    const backfill = migration.slice(migration.indexOf('-- Backfill')).split('--> statement-breakpoint');
    expect(backfill).toHaveLength(8);
    for (const statement of backfill) await db.execute(sql.raw(statement));
    await expectFigures();
  });
});
