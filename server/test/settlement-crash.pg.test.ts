import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { LedgerRepository } from '../src/modules/ledger/ledger.repository.js';
import { LedgerService } from '../src/modules/ledger/ledger.service.js';
import { trackBalances } from './support/balances.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

// The settlement as a real process (`npm run settle`) on real PostgreSQL, killed with SIGKILL part-way
// through a day, then run again: every order is paid for the day exactly once.
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// A past day: the process reads the real clock and settles only days that have ended.
const DAY = '2026-03-02';
const ORDERS = 3_000;

let database: TestDatabase;

function settleProcess(day = DAY) {
  return spawn(process.execPath, ['--import', 'tsx', 'src/settle.ts', '--day', day, '--chunk', '25'], {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: database.url!, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  return (await queryRows<{ n: number }>(database.database.db, query))[0]!.n;
}

/**
 * Every member's USDT cash, grouped: each holds orders of 101 to 110 USDT at 0.0012 a day, so
 * 0.0012 × 1055 = 1.2660 a day (each order's interest, 0.1212 to 0.1320, is exact to 4 places).
 */
function cashByMember(): Promise<{ balance: string; members: number }[]> {
  return queryRows<{ balance: string; members: number }>(
    database.database.db,
    sql`select coalesce(l.balance, 0)::text as balance, count(*)::int as members from accounts a
        left join ledger_accounts l on l.owner_account_id = a.id and l.asset = 'USDT' and l.purpose = 'available'
        group by 1 order by 1`,
  );
}

/** The day's dividend shares: how many, their total, and the smallest and largest share and custody. */
async function dividendOf(day: string) {
  return (
    await queryRows<{ shares: number; total: string; low: string; high: string; custody: string }>(
      database.database.db,
      sql`select count(*)::int as shares, coalesce(sum(amount), 0)::text as total, min(amount)::text as low,
            max(amount)::text as high, min(custody)::text || '-' || max(custody)::text as custody
          from dividend_allocations where day = ${day}::date`,
    )
  )[0];
}

/**
 * crash-1's team earnings of a day with the seeded table: 299 valid direct members and 315,445 of
 * performance make it V1 (direct 10 %, management 5 %, bonus 50). Each member earns 1.2660 a day:
 * direct 299 × 0.1266 = 37.8534, management 299 × 0.0633 = 18.9267; the V1 bonus once.
 */
const LEADER_EARNINGS = [
  { type: 'direct', amount: '37.8534' },
  { type: 'management', amount: '18.9267' },
  { type: 'promotion', amount: '50.0000' },
];

function teamEarningsOf(day: string) {
  return queryRows<{ type: string; amount: string; status: string }>(
    database.database.db,
    sql`select e.type, e.amount::text as amount, e.status from team_earnings e join accounts a on a.id = e.account_id
        join members m on m.id = a.member_id where e.day = ${day}::date and m.email = 'crash-1@example.com' order by e.type`,
  );
}

/**
 * The exact change of every ledger account over a day: each member's cash up by its day's interest
 * (1.2660) from the interest account, crash-1's by `leaderExtra` more from the rewards account.
 */
async function dayOfInterest(leaderExtra: string | null): Promise<Record<string, string>> {
  const accounts = await queryRows<{ id: string; email: string }>(
    database.database.db,
    sql`select a.id, m.email from accounts a join members m on m.id = a.member_id`,
  );
  expect(accounts).toHaveLength(300);
  const changes: Record<string, string> = { 'platform:interest:USDT': '-379.8000' }; // 300 × 1.2660
  for (const { id, email } of accounts) {
    changes[`account:${id}:USDT:available`] = email === 'crash-1@example.com' && leaderExtra ? leaderExtra : '1.2660';
  }
  if (leaderExtra) changes['platform:rewards:USDT'] = '-106.7801';
  return changes;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.database;
  // 300 members with 10 custody orders each, all due on DAY.
  await db.execute(
    sql`insert into members (email, password_hash) select 'crash-' || g || '@example.com', 'x' from generate_series(1, 300) g`,
  );
  // One team: crash-1 invited the other 299 (the team's earnings below, decision 024).
  await db.execute(
    sql`insert into accounts (member_id, kind, invite_code, nickname)
        select id, 'main', 'C00000000001', 'crash' from members where email = 'crash-1@example.com'`,
  );
  await db.execute(
    sql`insert into accounts (member_id, kind, invite_code, nickname, inviter_account_id)
        select m.id, 'main', 'C' || lpad((1 + row_number() over (order by m.email))::text, 11, '0'), 'crash', leader.id
        from members m cross join (select a.id from accounts a) leader where m.email <> 'crash-1@example.com'`,
  );
  await db.execute(
    sql`insert into hosting_orders (id, member_id, account_id, plan_id, plan_name, amount, period_days, daily_rate, early_penalty_rate, start_date, end_date)
        select gen_random_uuid(), a.member_id, a.id, p.id, p.name, 100 + g, p.period_days, p.daily_rate, p.early_penalty_rate,
          ${DAY}::date - 1, ${DAY}::date - 1 + p.period_days
        from accounts a cross join generate_series(1, 10) g cross join (select * from hosting_plans where period_days = 30) p`,
  );
  // Days settle in order: the orders' start day (nothing due on it) is settled already.
  await db.execute(sql`insert into settlement_runs (day, status, finished_at) values (${DAY}::date - 1, 'completed', now())`);
  // An AI dividend pool on both days: every member holds 1055 at the end of each (valid), 316,500 in
  // all, so 3165 shares out as 10.5500 each, exactly.
  await db.execute(sql`insert into dividend_pools (day, amount) values (${DAY}::date, 3165), (${DAY}::date + 1, 3165)`);
}, 120_000);

afterAll(async () => {
  await database?.dispose();
});

describe('the settlement killed part-way', () => {
  it('pays every order exactly once after SIGKILL and a second run', async () => {
    expect(await count(sql`select count(*)::int as n from hosting_orders`)).toBe(ORDERS);
    const balances = await trackBalances({ testDatabase: database });
    const first = settleProcess();
    const deadline = Date.now() + 90_000;
    // Kill it once some chunks, but not all, have committed.
    for (;;) {
      const accrued = await count(sql`select count(*)::int as n from hosting_accruals where day = ${DAY}::date`);
      if (accrued > 0 && accrued < ORDERS) break;
      if (first.exitCode !== null) throw new Error(`the settlement ended before it could be killed (accrued ${accrued})`);
      if (Date.now() > deadline) throw new Error('the settlement did not start paying');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const partial = await count(sql`select count(*)::int as n from hosting_accruals where day = ${DAY}::date`);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(ORDERS);
    expect(await count(sql`select count(*)::int as n from settlement_runs where day = ${DAY}::date and status = 'running'`)).toBe(
      1,
    );

    // The day is run again (as the job or the console would): it finishes, nothing paid twice.
    const second = settleProcess();
    const exitCode = await new Promise((resolve) => second.once('exit', resolve));
    expect(exitCode).toBe(0);
    expect(await count(sql`select count(*)::int as n from hosting_accruals where day = ${DAY}::date`)).toBe(ORDERS);
    expect(await count(sql`select count(*)::int as n from hosting_orders where days_accrued <> 1`)).toBe(0);
    expect(
      await count(sql`select count(*)::int as n from hosting_orders o
                      where o.interest_total <> trunc(o.amount * o.daily_rate, 4)`),
    ).toBe(0);
    const [run] = await queryRows<{ status: string; orders_accrued: number }>(
      database.database.db,
      sql`select status, orders_accrued from settlement_runs where day = ${DAY}::date`,
    );
    expect(run).toEqual({ status: 'completed', orders_accrued: ORDERS });
    expect(await cashByMember()).toEqual([{ balance: '1.2660', members: 300 }]);
    // Every account: the day's interest once, nothing else (the dividend is claimable, the team's earnings to arrive).
    await balances.expectChanges(await dayOfInterest(null));
    // The team's earnings of DAY, computed once (whichever process got to them), to arrive with the next day.
    expect(await teamEarningsOf(DAY)).toEqual(LEADER_EARNINGS.map((row) => ({ ...row, status: 'to_arrive' })));
    // The dividend step ran once, in the second process, from each member's custody at the end of DAY.
    expect(await dividendOf(DAY)).toEqual({
      shares: 300,
      total: '3165.0000',
      low: '10.5500',
      high: '10.5500',
      custody: '1055.0000-1055.0000',
    });
    const report = await new LedgerService(database.database.db, new LedgerRepository(database.database.db)).verify();
    expect(report.problems).toEqual([]);
  }, 180_000);

  it('two settlement processes on the same day at once pay every order exactly once', async () => {
    const nextDay = '2026-03-03';
    const balances = await trackBalances({ testDatabase: database });
    const processes = [settleProcess(nextDay), settleProcess(nextDay)];
    const exits = await Promise.all(processes.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    // Both end well: the one that finds the day completed (or its ranges paid) has nothing to do.
    expect(exits).toEqual([0, 0]);
    expect(await count(sql`select count(*)::int as n from hosting_accruals where day = ${nextDay}::date`)).toBe(ORDERS);
    expect(await count(sql`select count(*)::int as n from hosting_orders where days_accrued <> 2`)).toBe(0);
    expect(
      await count(sql`select count(*)::int as n from hosting_orders o
                      where o.interest_total <> 2 * trunc(o.amount * o.daily_rate, 4)`),
    ).toBe(0);
    // crash-1's earnings of DAY arrived once, though both processes ran the arrival: 2.5320 + 106.7801.
    expect(await cashByMember()).toEqual([
      { balance: '109.3121', members: 1 },
      { balance: '2.5320', members: 299 },
    ]);
    // The next day's interest once, and crash-1's earnings of DAY (37.8534 + 18.9267 + 50) from rewards.
    await balances.expectChanges(await dayOfInterest('108.0461'));
    expect(await teamEarningsOf(DAY)).toEqual(LEADER_EARNINGS.map((row) => ({ ...row, status: 'arrived' })));
    expect(await teamEarningsOf(nextDay)).toEqual(
      LEADER_EARNINGS.filter((row) => row.type !== 'promotion').map((row) => ({ ...row, status: 'to_arrive' })),
    );
    expect(await count(sql`select count(*)::int as n from journal_entries where kind = 'team_earning'`)).toBe(3);
    expect(await dividendOf(nextDay)).toEqual({
      shares: 300,
      total: '3165.0000',
      low: '10.5500',
      high: '10.5500',
      custody: '1055.0000-1055.0000',
    });
    expect(
      await count(sql`select count(*)::int as n from settlement_runs where day = ${nextDay}::date and status = 'completed'`),
    ).toBe(1);
    const report = await new LedgerService(database.database.db, new LedgerRepository(database.database.db)).verify();
    expect(report.problems).toEqual([]);
  }, 180_000);
});
