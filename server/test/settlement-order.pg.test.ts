import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostingConfig } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { createLogger } from '../src/lib/logger.js';
import { HostingRepository } from '../src/modules/hosting/hosting.repository.js';
import { SettlementService } from '../src/modules/hosting/settlement.service.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/**
 * The settlement on PostgreSQL: two instances on their own connections settling one day, where one
 * fails after the other completed (a failure never overwrites a completed day), and `npm run settle`
 * as a real process refusing a future or out-of-order day with a one-line message.
 */

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DAY_MS = 86_400_000;

let now = new Date('2026-11-23T02:00:00Z');
const clock = { now: () => now };
let t: TestApp;
let accountId: string;

/** The 1000 in 30-day custody earns 0.12 % a day: 1.2000 a day from the interest account, and nothing else. */
function interestOf(amount: string): Record<string, string> {
  return { 'member:USDT:available': amount, 'platform:interest:USDT': `-${amount}` };
}

/** A settlement instance of its own (as another server would be), with a last step that waits for `gate`. */
function gatedInstance(gate: Promise<void>, reached: () => void, outcome: 'fail' | 'pass'): SettlementService {
  const service = new SettlementService(
    t.testDatabase.database.db,
    new HostingRepository(t.testDatabase.database.db),
    t.services.ledger,
    t.services.audit,
    'Asia/Shanghai',
    clock,
    createLogger('silent'),
  );
  service.addStep({
    name: 'gate',
    run: async () => {
      reached();
      await gate;
      if (outcome === 'fail') throw new Error('this instance lost its connection');
    },
  });
  return service;
}

function barrier() {
  let open!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const atGate = new Promise<void>((resolve) => (reached = resolve));
  return { gate, open, reached, atGate };
}

async function runOf(day: string) {
  const rows = await queryRows<{ status: string; error: string | null }>(
    t.testDatabase.database.db,
    sql`select status, error from settlement_runs where day = ${day}::date`,
  );
  return rows[0];
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  const token = await registerMember(t, 'two-instances@example.com');
  accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  await fund(t, accountId, 'USDT', '1000');
  const plan = (await t.app.inject({ method: 'GET', url: '/api/hosting/config', headers: { authorization: token } }))
    .json<{ data: HostingConfig }>()
    .data.plans.find((item) => item.periodDays === 30)!;
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/hosting/create',
    headers: { authorization: token },
    payload: { planId: plan.id, amount: '1000', autoRenew: false, tradePassword: 'trade-pass-1', idempotencyKey: randomUUID() },
  });
  expect(created.json()).toMatchObject({ code: 200 });
  now = new Date('2026-11-26T02:00:00Z');
  await t.services.settlement.settleDue();
});
afterAll(async () => {
  await t.close();
});

describe('two instances settling one day', () => {
  it('a run that fails after another instance completed the day leaves it completed', async () => {
    const balances = await trackBalances(t, { member: accountId });
    const a = barrier();
    const failing = gatedInstance(a.gate, a.reached, 'fail');
    now = new Date('2026-11-27T02:00:00Z');
    const first = failing.settle('2026-11-26');
    await a.atGate;
    // Meanwhile another instance settles the same day to the end.
    expect(await t.services.settlement.settle('2026-11-26')).toMatchObject({ status: 'completed', ordersAccrued: 1 });
    a.open();
    await expect(first).rejects.toThrow(/lost its connection/);
    expect(await runOf('2026-11-26')).toEqual({ status: 'completed', error: null });
    // 11-26's interest once, although two instances ran the day.
    await balances.expectChanges(interestOf('1.2000'));
    // And the next day may run.
    now = new Date('2026-11-28T02:00:00Z');
    expect((await t.services.settlement.settleDue()).map((run) => run.day)).toEqual(['2026-11-27']);
    await balances.expectChanges(interestOf('1.2000'));
  });

  it('a superseded attempt that fails leaves the current one running, which then completes the day', async () => {
    const balances = await trackBalances(t, { member: accountId });
    const a = barrier();
    const b = barrier();
    const superseded = gatedInstance(a.gate, a.reached, 'fail');
    const current = gatedInstance(b.gate, b.reached, 'pass');
    now = new Date('2026-11-29T02:00:00Z');
    const first = superseded.settle('2026-11-28');
    await a.atGate;
    const second = current.settle('2026-11-28');
    await b.atGate;
    a.open();
    await expect(first).rejects.toThrow(/lost its connection/);
    expect(await runOf('2026-11-28')).toEqual({ status: 'running', error: null });
    b.open();
    expect(await second).toMatchObject({ status: 'completed', ordersAccrued: 1 });
    expect(await runOf('2026-11-28')).toEqual({ status: 'completed', error: null });
    // 11-28's interest once: paid by whichever attempt got there first, never by both.
    await balances.expectChanges(interestOf('1.2000'));
  });
});

describe('npm run settle', () => {
  let database: TestDatabase;
  // The process reads the real clock: days relative to today in the platform's time zone.
  const platformDay = (offsetDays: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() + offsetDays * DAY_MS));

  function settle(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/settle.ts', ...args], {
      cwd: serverDir,
      env: { ...process.env, DATABASE_URL: database.url!, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  }

  async function days(): Promise<string[]> {
    const rows = await queryRows<{ day: string }>(
      database.database.db,
      sql`select day::text as day from settlement_runs order by day`,
    );
    return rows.map((row) => row.day);
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    // Nothing has run yet; a pool four days ago is the first thing the settlement owes.
    await database.database.db.execute(sql`insert into dividend_pools (day, amount) values (${platformDay(-4)}::date, 10)`);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('refuses a day that has not ended and a day out of order, with one line, recording nothing', async () => {
    const balances = await trackBalances({ testDatabase: database });
    const future = await settle('--day', '2099-01-01');
    expect(future).toMatchObject({ code: 1, stdout: '', stderr: 'settle: That day has not ended yet\n' });
    const skipping = await settle('--day', platformDay(-2));
    expect(skipping).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `settle: Days are settled in order: settle ${platformDay(-4)} first\n`,
    });
    expect(await days()).toEqual([]);
    await balances.expectChanges({});

    // Without --day it settles every ended day from the first, oldest first.
    const due = await settle();
    expect(due.code).toBe(0);
    const expected = [platformDay(-4), platformDay(-3), platformDay(-2), platformDay(-1)];
    expect(
      due.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.slice(0, 10)),
    ).toEqual(expected);
    expect(await days()).toEqual(expected);
    // Nobody holds custody: the pool of 10 is shared with no one, so the rewards account pays nothing.
    await balances.expectChanges({});
  }, 240_000);
});
