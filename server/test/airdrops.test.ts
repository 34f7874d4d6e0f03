import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AirdropCampaign, AirdropPreview, HostingPlan, IncomeItem, TeamLevelInput } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Airdrop campaigns: chosen by level (the level table of the campaign's day) or by list, previewed,
 * scheduled, cancelled before they arrive, and paid by the arrival job once per recipient however
 * often it runs. Members: A (root), B and C invited by A; A holds 1000 USDT of custody, B 500, C none.
 */

// Friday 2026-11-20, 10:00 in Shanghai.
let now = new Date('2026-11-20T02:00:00Z');
const clock = { now: () => now };

let t: TestApp;
let finance: string;
let support: string;
const tokens = new Map<string, string>();
const accounts = new Map<string, string>();
const memberIds = new Map<string, string>();

/** A, B and C by name, for the balance tracker. */
function members(): Record<string, string> {
  return Object.fromEntries(['a', 'b', 'c'].map((name) => [name, accounts.get(name)!]));
}

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, as: string, payload?: object, lang = 'EN') {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

async function income(name: string, lang = 'EN'): Promise<IncomeItem[]> {
  const response = await call<{ items: IncomeItem[] }>('GET', '/api/income/log?type=airdrop', tokens.get(name)!, undefined, lang);
  expect(response.body.code).toBe(200);
  return response.body.data.items;
}

async function campaignCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.testDatabase.database.db, sql`select count(*)::int as n from airdrop_campaigns`);
  return row!.n;
}

async function entriesOf(campaignId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as n from journal_entries where kind = 'airdrop' and reference_id = ${campaignId}`,
  );
  return row!.n;
}

const TOMORROW_LEVELS: TeamLevelInput[] = [
  { level: 0, name: 'V0', minOwnCustody: '0' },
  { level: 1, name: 'V1', minOwnCustody: '500' },
  { level: 2, name: 'V2', minOwnCustody: '1000' },
].map((level) => ({
  ...level,
  minValidDirect: 0,
  minTeamPerformance: '0',
  minLegs: 0,
  legsLevel: null,
  directRatePct: '0',
  indirectRatePct: '0',
  indirectGenerations: 0,
  communityRatePct: '0',
  managementRatePct: '0',
  dividendRatePct: '0',
  promotionBonus: '0',
}));

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  for (const name of ['a', 'b', 'c']) {
    const inviter = name === 'a' ? undefined : tokens.get('a')!;
    const code = inviter
      ? (await call<{ inviteCode: string }>('GET', '/api/user/share', inviter)).body.data.inviteCode
      : undefined;
    tokens.set(name, await registerMember(t, `ad-${name}@example.com`, 'member-password', code));
    accounts.set(name, await accountIdOf(t, tokens.get(name)!));
    const [member] = await queryRows<{ member_id: string }>(
      t.testDatabase.database.db,
      sql`select member_id from accounts where id = ${accounts.get(name)!}::uuid`,
    );
    memberIds.set(name, member!.member_id);
  }
  const plans = (await call<{ plans: HostingPlan[] }>('GET', '/api/hosting/config', tokens.get('a')!)).body.data.plans;
  for (const [name, amount] of [
    ['a', '1000'],
    ['b', '500'],
  ] as const) {
    await setTradePassword(t, tokens.get(name)!);
    await fund(t, accounts.get(name)!, 'USDT', amount);
    const opened = await call('POST', '/api/hosting/create', tokens.get(name)!, {
      planId: plans.find((plan) => plan.periodDays === 30)!.id,
      amount,
      autoRenew: false,
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
    });
    expect(opened.body.code).toBe(200);
  }
  finance = await operatorToken(t, 'airdrop-finance', 'finance');
  support = await operatorToken(t, 'airdrop-support', 'support');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('airdrop campaigns by level', () => {
  it('chooses by the level table of the campaign’s day, previews, and pays each recipient once at its time', async () => {
    const balances = await trackBalances(t, members());
    // Today's table (the default) has nobody at V1: it needs 3 valid direct members and 10,000 of team performance.
    const today = { name: 'Today V1', amount: '12.5', selection: 'level', minLevel: 1 };
    const none = await call<AirdropPreview>('POST', '/api/admin/airdrops/preview', finance, today);
    expect(none.body.data).toMatchObject({ day: '2026-11-20', recipients: 0, total: '0.0000', sample: [] });
    const refused = await call('POST', '/api/admin/airdrops', finance, today);
    expect(refused.body).toMatchObject({ code: 400, message: 'No member would receive this airdrop' });
    expect(await campaignCount()).toBe(0);

    // Tomorrow's table (saved today, in force from tomorrow): V1 is 500 of own custody, so A and B.
    expect((await call('PUT', '/api/admin/team/levels', finance, { levels: TOMORROW_LEVELS })).body.code).toBe(200);
    const request = { name: 'Welcome RAB', amount: '12.5', selection: 'level', minLevel: 1, arriveAt: '2026-11-21T02:00:00Z' };
    const preview = await call<AirdropPreview>('POST', '/api/admin/airdrops/preview', finance, request);
    expect(preview.body.data).toEqual({
      day: '2026-11-21',
      arriveAt: '2026-11-21T02:00:00.000Z',
      recipients: 2,
      total: '25.0000',
      sample: [
        { memberId: memberIds.get('a'), email: 'ad-a@example.com', nickname: expect.any(String) as string },
        { memberId: memberIds.get('b'), email: 'ad-b@example.com', nickname: expect.any(String) as string },
      ],
    });
    // V2 tomorrow: A only.
    const v2 = await call<AirdropPreview>('POST', '/api/admin/airdrops/preview', finance, { ...request, minLevel: 2 });
    expect(v2.body.data).toMatchObject({ recipients: 1, total: '12.5000' });
    expect((await call('POST', '/api/admin/airdrops/preview', finance, { ...request, minLevel: 3 })).body).toMatchObject({
      code: 400,
      message: 'V3 is not in the level table of 2026-11-21',
    });

    const created = await call<AirdropCampaign>('POST', '/api/admin/airdrops', finance, request);
    expect(created.body.code).toBe(200);
    const campaign = created.body.data;
    expect(campaign).toMatchObject({
      name: 'Welcome RAB',
      asset: 'RAB',
      amount: '12.5000',
      selection: 'level',
      minLevel: 1,
      day: '2026-11-21',
      arriveAt: '2026-11-21T02:00:00.000Z',
      status: 'scheduled',
      recipients: 2,
      paid: 0,
      total: '25.0000',
      createdBy: 'airdrop-finance',
      cancelledAt: null,
      arrivedAt: null,
    });

    // To arrive: in A's and B's income log, not C's; the job before its time pays nothing.
    const toArrive = {
      type: 'airdrop',
      asset: 'RAB',
      amount: '12.5000',
      state: 'to_arrive',
      source: 'Welcome RAB',
      day: '2026-11-21',
    };
    expect(await income('a')).toEqual([toArrive]);
    expect(await income('b')).toEqual([toArrive]);
    expect(await income('c')).toEqual([]);
    expect(await t.services.airdrops.arriveDue()).toBe(0);
    expect(await availableOf(t, accounts.get('a')!, 'RAB')).toBe('0.0000');
    await balances.expectChanges({});

    // Its time: paid once, however often the job runs.
    now = new Date('2026-11-21T02:00:00Z');
    expect(await t.services.airdrops.arriveDue()).toBe(1);
    expect(await t.services.airdrops.arriveDue()).toBe(0);
    expect(await t.services.airdrops.arrive(campaign.id)).toBe(false);
    expect(await availableOf(t, accounts.get('a')!, 'RAB')).toBe('12.5000');
    expect(await availableOf(t, accounts.get('b')!, 'RAB')).toBe('12.5000');
    expect(await availableOf(t, accounts.get('c')!, 'RAB')).toBe('0.0000');
    expect(await entriesOf(campaign.id)).toBe(2);
    // 12.5 RAB each to A and B, once, out of the rewards account.
    await balances.expectChanges({
      'a:RAB:available': '12.5000',
      'b:RAB:available': '12.5000',
      'platform:rewards:RAB': '-25.0000',
    });
    expect(await income('a')).toEqual([{ ...toArrive, state: 'arrived' }]);
    // Among every type of A's income (custody interest has not been settled yet): the airdrop only.
    const all = await call<{ items: IncomeItem[]; total: number }>('GET', '/api/income/log', tokens.get('a')!);
    expect(all.body).toMatchObject({ code: 200, data: { items: [{ ...toArrive, state: 'arrived' }], total: 1 } });
    const listed = await call<{ items: AirdropCampaign[] }>('GET', '/api/admin/airdrops', finance);
    expect(listed.body.data.items[0]).toMatchObject({
      id: campaign.id,
      status: 'arrived',
      paid: 2,
      arrivedAt: expect.any(String) as string,
    });

    // The member heard of it live, in the transaction that paid.
    const events = await queryRows<{ kind: string; payload: unknown }>(
      t.testDatabase.database.db,
      sql`select kind, payload from member_events where member_id = ${memberIds.get('a')!}::uuid and kind = 'airdrop.arrived'`,
    );
    expect(events).toEqual([
      { kind: 'airdrop.arrived', payload: { campaignId: campaign.id, name: 'Welcome RAB', amount: '12.5000' } },
    ]);

    // Arrived: no cancel any more.
    const late = await call('POST', `/api/admin/airdrops/${campaign.id}/cancel`, finance, {}, 'JP');
    expect(late.body).toMatchObject({
      code: 409,
      message: 'このエアドロップは到着済み、到着中、または取り消し済みのため、取り消せません',
    });
    const recipients = await call<{ items: { email: string; paid: boolean }[] }>(
      'GET',
      `/api/admin/airdrops/${campaign.id}/recipients`,
      support,
    );
    expect(recipients.body.data.items.map((item) => [item.email, item.paid])).toEqual([
      ['ad-a@example.com', true],
      ['ad-b@example.com', true],
    ]);
  });
});

describe('airdrop campaigns by list', () => {
  it('refuses unknown members by name and saves nothing', async () => {
    const balances = await trackBalances(t, members());
    const before = await campaignCount();
    const unknownId = randomUUID();
    const refused = await call('POST', '/api/admin/airdrops', finance, {
      name: 'List',
      amount: '1',
      selection: 'list',
      members: ['ad-b@example.com', 'nobody@example.com', unknownId],
    });
    expect(refused.body).toMatchObject({
      code: 400,
      message: `These members do not exist, nothing was saved: nobody@example.com, ${unknownId}`,
    });
    const chinese = await call(
      'POST',
      '/api/admin/airdrops/preview',
      finance,
      {
        name: 'List',
        amount: '1',
        selection: 'list',
        members: ['ghost@example.com'],
      },
      'CN',
    );
    expect(chinese.body).toMatchObject({ code: 400, message: '以下会员不存在，未保存任何内容：ghost@example.com' });
    expect(await campaignCount()).toBe(before);
    await balances.expectChanges({});
  });

  it('refuses bad input: no level, no members, a time past, a bad amount; and roles without team.manage', async () => {
    const base = { name: 'Bad', amount: '1', selection: 'list', members: ['ad-c@example.com'] };
    const cases: [object, string][] = [
      [{ ...base, selection: 'level', members: undefined }, 'please enter level'],
      [{ ...base, members: [] }, 'please enter members'],
      [{ ...base, amount: '1.23456' }, 'amount: please enter an amount with at most 4 decimal places'],
      [{ ...base, amount: '0' }, 'amount: the amount must be greater than 0'],
      [
        { ...base, arriveAt: '2026-11-21T01:59:00Z' },
        'The arrival time has passed: choose a later time, or leave it empty to arrive now',
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await call('POST', '/api/admin/airdrops', finance, payload);
      expect(response.body.message, JSON.stringify(payload)).toBe(message);
      expect(response.body.code).toBe(400);
    }
    expect((await call('POST', '/api/admin/airdrops', support, base)).body.code).toBe(403);
    expect((await call('POST', '/api/admin/airdrops', tokens.get('a')!, base)).body.code).toBe(401);
  });

  it('pays a list (e-mails in any case, member ids, the same member twice once) arriving now, and cancels before arrival', async () => {
    const balances = await trackBalances(t, members());
    const now1 = await call<AirdropCampaign>('POST', '/api/admin/airdrops', finance, {
      name: 'Thanks',
      amount: '3.3333',
      selection: 'list',
      members: ['AD-C@example.com', memberIds.get('b')!, 'ad-c@example.com'],
    });
    expect(now1.body.data).toMatchObject({ recipients: 2, total: '6.6666', status: 'scheduled', day: '2026-11-21' });
    expect(await t.services.airdrops.arriveDue()).toBe(1);
    expect(await availableOf(t, accounts.get('c')!, 'RAB')).toBe('3.3333');
    expect(await availableOf(t, accounts.get('b')!, 'RAB')).toBe('15.8333');
    // C listed twice is paid once: 2 × 3.3333.
    await balances.expectChanges({
      'b:RAB:available': '3.3333',
      'c:RAB:available': '3.3333',
      'platform:rewards:RAB': '-6.6666',
    });
    expect(await income('c', 'TW')).toEqual([
      { type: 'airdrop', asset: 'RAB', amount: '3.3333', state: 'arrived', source: 'Thanks', day: '2026-11-21' },
    ]);

    const later = await call<AirdropCampaign>('POST', '/api/admin/airdrops', finance, {
      name: 'Later',
      amount: '100',
      selection: 'list',
      members: ['ad-c@example.com'],
      arriveAt: '2026-11-22T04:00:00+08:00',
    });
    expect(later.body.data).toMatchObject({ day: '2026-11-22', arriveAt: '2026-11-21T20:00:00.000Z' });
    expect((await income('c')).map((item) => item.state)).toEqual(['to_arrive', 'arrived']);
    const cancelled = await call<AirdropCampaign>('POST', `/api/admin/airdrops/${later.body.data.id}/cancel`, finance, {});
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(String) as string, paid: 0 });
    expect((await call('POST', `/api/admin/airdrops/${later.body.data.id}/cancel`, finance, {})).body.code).toBe(409);
    now = new Date('2026-11-22T02:00:00Z');
    expect(await t.services.airdrops.arriveDue()).toBe(0);
    expect(await availableOf(t, accounts.get('c')!, 'RAB')).toBe('3.3333');
    expect(await entriesOf(later.body.data.id)).toBe(0);
    await balances.expectChanges({});
    // A cancelled campaign is not in the member's log.
    expect((await income('c')).map((item) => item.source)).toEqual(['Thanks']);
    expect((await call('POST', `/api/admin/airdrops/${randomUUID()}/cancel`, finance, {})).body.code).toBe(404);

    const audit = await queryRows<{ action: string; target_id: string }>(
      t.testDatabase.database.db,
      sql`select action, target_id from audit_log where action like 'airdrop.%' order by created_at, action`,
    );
    expect(audit.map((row) => row.action)).toEqual([
      'airdrop.created',
      'airdrop.created',
      'airdrop.created',
      'airdrop.cancelled',
    ]);
  });
});
