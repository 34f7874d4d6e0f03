import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminMemberTeam,
  AdminTeamChildren,
  HostingPlan,
  TeamMoveResult,
  TeamRecompute,
  TeamRepair,
} from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Moving a member and their downline under another inviter, and the recompute and repair of the
 * stored figures. The tree (custody in brackets), with a chain of 30 members C1…C30 under B:
 *
 *   R ─┬─ A [1000] ─┬─ B [600] ── C1 ── C2 ── … ── C30 ── D [800]
 *      │            └─ E [300]
 *      └─ F [500] ── G
 */

let t: TestApp;
let superAdmin: string;
let finance: string;
const tokens = new Map<string, string>();
const accounts = new Map<string, string>();
const memberIds = new Map<string, string>();
let plans: HostingPlan[];
const CHAIN = 30;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST', url: string, as: string, payload?: object, lang = 'EN') {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

async function inviteCodeOf(accountId: string): Promise<string> {
  const [row] = await queryRows<{ invite_code: string }>(
    t.testDatabase.database.db,
    sql`select invite_code from accounts where id = ${accountId}::uuid`,
  );
  return row!.invite_code;
}

async function join(name: string, inviter?: string): Promise<void> {
  const code = inviter ? await inviteCodeOf(accounts.get(inviter)!) : undefined;
  const token = await registerMember(t, `ops-${name}@example.com`, 'member-password', code);
  tokens.set(name, token);
  accounts.set(name, await accountIdOf(t, token));
  const [row] = await queryRows<{ member_id: string }>(
    t.testDatabase.database.db,
    sql`select member_id from accounts where id = ${accounts.get(name)!}::uuid`,
  );
  memberIds.set(name, row!.member_id);
}

/** A chain member written straight into the tables (the triggers keep the tree, as for any insert). */
async function insertChainMember(name: string, inviter: string): Promise<void> {
  const [row] = await queryRows<{ member_id: string; account_id: string }>(
    t.testDatabase.database.db,
    sql`with m as (insert into members (email, password_hash) values (${`ops-${name}@example.com`}, 'x') returning id),
        a as (insert into accounts (member_id, kind, invite_code, nickname, inviter_account_id)
              select m.id, 'main', ${`OPS${name.toUpperCase()}`}, ${name}, ${accounts.get(inviter)!}::uuid from m returning id, member_id)
        select member_id, id as account_id from a`,
  );
  accounts.set(name, row!.account_id);
  memberIds.set(name, row!.member_id);
}

async function open(name: string, amount: string): Promise<void> {
  const response = await call('POST', '/api/hosting/create', tokens.get(name)!, {
    planId: plans.find((plan) => plan.periodDays === 30)!.id,
    amount,
    autoRenew: false,
    tradePassword: 'trade-pass-1',
    idempotencyKey: randomUUID(),
  });
  expect(response.body.code, response.body.message).toBe(200);
}

async function team(name: string): Promise<AdminMemberTeam> {
  const response = await call<AdminMemberTeam>('GET', `/api/admin/members/${memberIds.get(name)!}/team?pageSize=100`, finance);
  expect(response.body.code).toBe(200);
  return response.body.data;
}

function figures(node: AdminMemberTeam['self']) {
  return [node.ownCustody, node.teamPerformance, node.directCount, node.teamCount, node.validTeamCount];
}

function move(accountId: string, inviter: string, as = superAdmin, lang = 'EN') {
  return call<TeamMoveResult>('POST', '/api/admin/team/move', as, { accountId, inviter }, lang);
}

beforeAll(async () => {
  t = await createTestApp();
  await join('r');
  await join('a', 'r');
  await join('b', 'a');
  await join('e', 'a');
  await join('f', 'r');
  await join('g', 'f');
  let above = 'b';
  for (let index = 1; index <= CHAIN; index += 1) {
    await insertChainMember(`c${index}`, above);
    above = `c${index}`;
  }
  await join('d', above);
  plans = (await call<{ plans: HostingPlan[] }>('GET', '/api/hosting/config', tokens.get('a')!)).body.data.plans;
  for (const [name, amount] of [
    ['a', '1000'],
    ['b', '600'],
    ['d', '800'],
    ['e', '300'],
    ['f', '500'],
  ] as const) {
    await setTradePassword(t, tokens.get(name)!);
    await fund(t, accounts.get(name)!, 'USDT', amount);
    await open(name, amount);
  }
  superAdmin = await operatorToken(t, 'ops-super', 'super_admin');
  finance = await operatorToken(t, 'ops-finance', 'finance');
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('moving a member to another inviter', () => {
  it('refuses a cycle, the member itself, the same inviter, a sub-account, an unknown inviter and a role without the right, changing nothing', async () => {
    const balances = await trackBalances(t);
    const cycle = await move(accounts.get('a')!, 'ops-d@example.com');
    expect(cycle.body).toMatchObject({
      code: 400,
      message: "The new inviter is in this member's own downline: the move would make a cycle",
    });
    expect((await move(accounts.get('a')!, accounts.get('c7')!, superAdmin, 'CN')).body.message).toBe(
      '新邀请人在该会员自己的下级中：移动会形成循环',
    );
    expect((await move(accounts.get('b')!, 'OPS-B@example.com')).body.message).toBe('A member cannot be their own inviter');
    expect((await move(accounts.get('b')!, memberIds.get('a')!)).body.message).toBe('That member is already the inviter');
    expect((await move(accounts.get('b')!, 'nobody@example.com')).body).toMatchObject({
      code: 400,
      message: 'No member nobody@example.com to move under',
    });
    expect((await move(randomUUID(), 'ops-f@example.com')).body.code).toBe(404);
    const sub = await call<{ id: string }>('POST', '/api/account/create_sub', tokens.get('e')!, { nickname: 'Savings' });
    expect(sub.body.code).toBe(200);
    accounts.set('e-sub', sub.body.data.id);
    expect((await move(sub.body.data.id, 'ops-f@example.com')).body.message).toBe(
      'A sub-account is not in the team: move the main account instead',
    );
    expect((await move(accounts.get('b')!, 'ops-f@example.com', finance)).body.code).toBe(403);
    expect((await move(accounts.get('b')!, 'ops-f@example.com', tokens.get('a'))).body.code).toBe(401);

    // Nothing changed: A's team is B, the chain, D and E.
    expect(figures((await team('a')).self)).toEqual(['1000.0000', '1700.0000', 2, 33, 2]);
    expect(await t.services.team.differences()).toEqual([]);
    await balances.expectChanges({});
  });

  it('moves B with its 31 members below under F: closure, depths and both sides’ figures in one transaction', async () => {
    const balances = await trackBalances(t, { d: accounts.get('d')! });
    const before = await team('d');
    expect(before.upline.map((node) => node.email).slice(-3)).toEqual([
      'ops-b@example.com',
      'ops-a@example.com',
      'ops-r@example.com',
    ]);
    expect(before.upline).toHaveLength(CHAIN + 3);

    const moved = await move(accounts.get('b')!, 'ops-f@example.com');
    expect(moved.body).toMatchObject({
      code: 200,
      data: {
        accountId: accounts.get('b'),
        email: 'ops-b@example.com',
        from: { accountId: accounts.get('a'), email: 'ops-a@example.com' },
        to: { accountId: accounts.get('f'), email: 'ops-f@example.com' },
        moved: CHAIN + 2,
      },
    });
    expect(await t.services.team.differences()).toEqual([]);

    // A keeps E only (300, not valid); F gains B 600 and D 800 (both valid) and 32 members; R is unchanged.
    expect(figures((await team('a')).self)).toEqual(['1000.0000', '300.0000', 1, 1, 0]);
    expect(figures((await team('f')).self)).toEqual(['500.0000', '1400.0000', 2, 33, 2]);
    expect(figures((await team('r')).self)).toEqual(['0.0000', '3200.0000', 2, CHAIN + 6, 4]);
    const d = await team('d');
    expect(d.upline.map((node) => node.email).slice(-3)).toEqual(['ops-b@example.com', 'ops-f@example.com', 'ops-r@example.com']);
    expect(d.upline).toHaveLength(CHAIN + 3);
    expect(d.upline.map((node) => node.generation)).toEqual(Array.from({ length: CHAIN + 3 }, (_, index) => -(index + 1)));
    // F's downline lists B's whole subtree; A's no longer does.
    expect((await team('f')).downline.total).toBe(CHAIN + 3);
    expect((await team('a')).downline.items.map((node) => node.email)).toEqual(['ops-e@example.com']);
    // The member's own view: F's direct members (in join order, newest first), and the inviter the console shows.
    const direct = await call<{ items: { maskedEmail: string }[] }>('GET', '/api/user/team?scope=direct', tokens.get('f')!);
    expect(direct.body.data.items.map((item) => item.maskedEmail)).toEqual(['o***g@example.com', 'o***b@example.com']);
    const [inviter] = await queryRows<{ inviter: string }>(
      t.testDatabase.database.db,
      sql`select inviter_account_id as inviter from accounts where id = ${accounts.get('b')!}::uuid`,
    );
    expect(inviter!.inviter).toBe(accounts.get('f'));

    // A move pays and takes nobody anything.
    await balances.expectChanges({});

    // Custody after the move moves the new upline's figures, and the figures stay consistent.
    await fund(t, accounts.get('d')!, 'USDT', '200');
    await balances.reset();
    await open('d', '200');
    await balances.expectChanges({ 'd:USDT:available': '-200.0000', 'd:USDT:custody': '200.0000' });
    expect(figures((await team('f')).self)).toEqual(['500.0000', '1600.0000', 2, 33, 2]);
    expect(figures((await team('a')).self)).toEqual(['1000.0000', '300.0000', 1, 1, 0]);
    expect(await t.services.team.differences()).toEqual([]);

    // A sub-account named as the new inviter stands for its main account (E): C10 and below move under E.
    const second = await move(accounts.get('c10')!, accounts.get('e-sub')!);
    expect(second.body.data).toMatchObject({ to: { email: 'ops-e@example.com' }, moved: CHAIN - 10 + 2 });
    expect(figures((await team('e')).self)).toEqual(['300.0000', '1000.0000', 1, 22, 1]);
    expect(figures((await team('f')).self)).toEqual(['500.0000', '600.0000', 2, 11, 1]);
    expect(figures((await team('a')).self)).toEqual(['1000.0000', '1300.0000', 1, 23, 1]);
    expect(await t.services.team.differences()).toEqual([]);
    await balances.expectChanges({});

    const audit = await queryRows<{ target_id: string; before: unknown; after: unknown }>(
      t.testDatabase.database.db,
      sql`select target_id, before, after from audit_log where action = 'team.member_moved' order by created_at`,
    );
    expect(audit[0]).toEqual({
      target_id: accounts.get('b'),
      before: { inviterAccountId: accounts.get('a'), inviterEmail: 'ops-a@example.com', depth: 2 },
      after: { inviterAccountId: accounts.get('f'), inviterEmail: 'ops-f@example.com', depth: 2, moved: CHAIN + 2 },
    });
    expect(audit).toHaveLength(2);
  });
});

describe('recompute and repair', () => {
  it('reports a figure corrupted in SQL, and the super admin’s repair sets it back (audited)', async () => {
    const clean = await call<TeamRecompute>('POST', '/api/admin/team/recompute', finance);
    expect(clean.body.data).toMatchObject({ total: 0, differences: [] });

    await t.testDatabase.database.db.execute(
      sql`update team_nodes set team_performance = team_performance + 5, valid_team_count = valid_team_count + 1
          where account_id = ${accounts.get('f')!}::uuid`,
    );
    await t.testDatabase.database.db.execute(
      sql`update team_nodes set own_custody = 1 where account_id = ${accounts.get('g')!}::uuid`,
    );
    const found = await call<TeamRecompute>('POST', '/api/admin/team/recompute', finance);
    expect(found.body.data.total).toBe(3);
    expect(found.body.data.differences).toEqual([
      {
        accountId: accounts.get('f'),
        email: 'ops-f@example.com',
        field: 'team_performance',
        stored: '605.0000',
        computed: '600.0000',
      },
      { accountId: accounts.get('f'), email: 'ops-f@example.com', field: 'valid_team_count', stored: '2', computed: '1' },
      { accountId: accounts.get('g'), email: 'ops-g@example.com', field: 'own_custody', stored: '1.0000', computed: '0' },
    ]);

    expect((await call('POST', '/api/admin/team/repair', finance)).body.code).toBe(403);
    const repaired = await call<TeamRepair>('POST', '/api/admin/team/repair', superAdmin);
    expect(repaired.body.data).toMatchObject({ repaired: 2, remaining: { total: 0, differences: [] } });
    expect(await t.services.team.differences()).toEqual([]);
    expect(figures((await team('f')).self)).toEqual(['500.0000', '600.0000', 2, 11, 1]);
    const [audit] = await queryRows<{ before: { total: number }; after: unknown }>(
      t.testDatabase.database.db,
      sql`select before, after from audit_log where action = 'team.figures_repaired'`,
    );
    expect(audit).toMatchObject({ before: { total: 3 }, after: { repairedMembers: 2 } });
  });
});

describe('the console’s downline tree', () => {
  it('answers a member’s direct members a level at a time, with level, custody, team performance and validity', async () => {
    const children = await call<AdminTeamChildren>('GET', `/api/admin/team/nodes/${accounts.get('f')!}/children`, finance);
    expect(children.body.data.total).toBe(2);
    expect(
      children.body.data.items.map((node) => [
        node.email,
        node.level,
        node.ownCustody,
        node.teamPerformance,
        node.isValid,
        node.directCount,
        node.teamCount,
      ]),
    ).toEqual([
      ['ops-g@example.com', 0, '0.0000', '0.0000', false, 0, 0],
      ['ops-b@example.com', 0, '600.0000', '0.0000', true, 1, 9],
    ]);
    const chain = await call<AdminTeamChildren>('GET', `/api/admin/team/nodes/${accounts.get('c9')!}/children`, finance);
    expect(chain.body.data).toMatchObject({ total: 0, items: [] });
    expect((await call('GET', `/api/admin/team/nodes/${randomUUID()}/children`, finance)).body.code).toBe(404);
    expect((await call('GET', `/api/admin/team/nodes/${accounts.get('f')!}/children`, tokens.get('f')!)).body.code).toBe(401);
  });
});
