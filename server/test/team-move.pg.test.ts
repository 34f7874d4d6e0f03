import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostingPlan } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Moves racing custody changes and registrations on PostgreSQL: R ─┬─ A ── B ── C, R ── F; B (with C
 * below) moves between A and F while A, B, C and F open custody and members join under C. Every figure
 * stays equal to a full recompute.
 */

let t: TestApp;
let superAdmin: string;
let plans: HostingPlan[];
const tokens = new Map<string, string>();
const accounts = new Map<string, string>();

type Envelope<T = unknown> = { code: number; message: string; data: T };

function post<T = unknown>(url: string, as: string, payload: object) {
  return t.app
    .inject({ method: 'POST', url, headers: { authorization: as, lang: 'EN' }, payload })
    .then((response) => response.json<Envelope<T>>());
}

async function inviteCodeOf(name: string): Promise<string> {
  const [row] = await queryRows<{ invite_code: string }>(
    t.testDatabase.database.db,
    sql`select invite_code from accounts where id = ${accounts.get(name)!}::uuid`,
  );
  return row!.invite_code;
}

async function join(name: string, inviter?: string): Promise<void> {
  const token = await registerMember(
    t,
    `mv-${name}@example.com`,
    'member-password',
    inviter ? await inviteCodeOf(inviter) : undefined,
  );
  tokens.set(name, token);
  accounts.set(name, await accountIdOf(t, token));
}

async function open(name: string, amount: string): Promise<void> {
  const body = await post('/api/hosting/create', tokens.get(name)!, {
    planId: plans.find((plan) => plan.periodDays === 30)!.id,
    amount,
    autoRenew: false,
    tradePassword: 'trade-pass-1',
    idempotencyKey: randomUUID(),
  });
  expect(body.code, body.message).toBe(200);
}

async function node(name: string) {
  const [row] = await queryRows<{ team_performance: string; team_count: number; valid_team_count: number }>(
    t.testDatabase.database.db,
    sql`select team_performance::text, team_count, valid_team_count from team_nodes where account_id = ${accounts.get(name)!}::uuid`,
  );
  return row!;
}

beforeAll(async () => {
  t = await createTestApp();
  await join('r');
  await join('a', 'r');
  await join('b', 'a');
  await join('c', 'b');
  await join('f', 'r');
  plans = (
    await t.app
      .inject({ method: 'GET', url: '/api/hosting/config', headers: { authorization: tokens.get('a')! } })
      .then((response) => response.json<Envelope<{ plans: HostingPlan[] }>>())
  ).data.plans;
  for (const name of ['a', 'b', 'c', 'f']) {
    await setTradePassword(t, tokens.get(name)!);
    await fund(t, accounts.get(name)!, 'USDT', '10000');
  }
  superAdmin = `${await operatorToken(t, 'mv-super', 'super_admin')}`;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('moving a member while custody and registrations go on (PostgreSQL)', () => {
  it('keeps every figure equal to a full recompute through 6 moves, each racing four custody orders and a registration', async () => {
    const balances = await trackBalances(
      t,
      Object.fromEntries(['r', 'a', 'b', 'c', 'f'].map((name) => [name, accounts.get(name)!])),
    );
    for (let round = 0; round < 6; round += 1) {
      const target = round % 2 === 0 ? 'mv-f@example.com' : 'mv-a@example.com';
      const [moved] = await Promise.all([
        post('/api/admin/team/move', superAdmin, { accountId: accounts.get('b'), inviter: target }),
        open('a', '100'),
        open('b', '150'),
        open('c', '250'),
        open('f', '500'),
        registerMember(t, `mv-new-${round}@example.com`, 'member-password', await inviteCodeOf('c')),
      ]);
      expect(moved, JSON.stringify(moved)).toMatchObject({ code: 200 });
      expect(await t.services.team.differences()).toEqual([]);
    }
    // After an even number of moves B is back under A. Custody: A 600, B 900, C 1500, F 3000 (all valid from
    // their second or first order); R's team is everyone: 6000, 4 + 6 new members, 4 valid.
    expect(await node('r')).toEqual({ team_performance: '6000.0000', team_count: 10, valid_team_count: 4 });
    expect(await node('a')).toEqual({ team_performance: '2400.0000', team_count: 8, valid_team_count: 2 });
    expect(await node('f')).toEqual({ team_performance: '0.0000', team_count: 0, valid_team_count: 0 });
    expect(await node('b')).toEqual({ team_performance: '1500.0000', team_count: 7, valid_team_count: 1 });
    // Only the 24 custody orders moved money, each from the member's cash into their custody; a move pays nobody.
    await balances.expectChanges({
      'a:USDT:available': '-600.0000',
      'a:USDT:custody': '600.0000',
      'b:USDT:available': '-900.0000',
      'b:USDT:custody': '900.0000',
      'c:USDT:available': '-1500.0000',
      'c:USDT:custody': '1500.0000',
      'f:USDT:available': '-3000.0000',
      'f:USDT:custody': '3000.0000',
    });
  });

  it("gives a member who joins while their inviter's subtree is being moved the depth after the move", async () => {
    // B (with C below) sits under A: R 0, A 1, B 2, C 3. The move puts B straight under R (C at 2), and is
    // held open while D registers under C; D's node must say 3 (the depth after the move), not 4.
    const balances = await trackBalances(t);
    const mover = new pg.Client({ connectionString: t.testDatabase.url });
    await mover.connect();
    try {
      await mover.query('begin');
      const { rows } = await mover.query<{ result: string }>('select team_move($1::uuid, $2::uuid) as result', [
        accounts.get('b'),
        accounts.get('r'),
      ]);
      expect(rows[0]!.result).toBe('moved');
      const joining = registerMember(t, 'mv-d@example.com', 'member-password', await inviteCodeOf('c'));
      // Wait until the registration is held up by the move's lock (state, not time), then let the move commit.
      for (;;) {
        const waiting = await mover.query<{ n: number }>(
          "select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation where not l.granted and c.relname = 'team_nodes'",
        );
        if (waiting.rows[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await mover.query('commit');
      const token = await joining;
      const account = await accountIdOf(t, token);
      const [depths] = await queryRows<{ depth: number; closure_depth: number }>(
        t.testDatabase.database.db,
        sql`select n.depth, (select max(c.depth) from team_closure c where c.descendant_seq = n.seq) as closure_depth
            from team_nodes n where n.account_id = ${account}::uuid`,
      );
      expect(depths).toEqual({ depth: 3, closure_depth: 3 });
      expect(await t.services.team.differences()).toEqual([]);
      await balances.expectChanges({});
    } finally {
      await mover.end();
    }
  });
});
