import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { createServices } from '../src/container.js';
import { DEMO_MEMBER, DEMO_OPERATOR, DEMO_TEAM, seedDemo } from '../src/demo/seed.js';
import { createLogger } from '../src/lib/logger.js';
import { formatLogLine } from '../src/lib/log-format.js';
import { AppError } from '../src/http/app-error.js';
import { loginMember, loginOperator, operatorCode } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let t: TestApp;

/** Every table's row count: a second seed must leave each one as it was. */
async function rowCounts(): Promise<Record<string, number>> {
  const db = t.testDatabase.database.db;
  const tables = await queryRows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
    counts[table] = row!.n;
  }
  return counts;
}

/** Every non-zero balance of the member's accounts, keyed `nickname:asset:purpose`. */
async function balancesOf(email: string): Promise<Record<string, string>> {
  const found = await t.services.auth.memberByEmail(email);
  const accounts = await t.services.accounts.list({ sessionId: '', member: found!.member, account: found!.account });
  const balances = await t.services.ledger.balancesOf(accounts.map((account) => account.id));
  const out: Record<string, string> = {};
  for (const account of accounts) {
    for (const [key, value] of balances) {
      if (!key.startsWith(`${account.id}:`) || value === money.ZERO) continue;
      out[`${account.nickname}:${key.slice(account.id.length + 1)}`] = money.formatMoney(value);
    }
  }
  return out;
}

beforeAll(async () => {
  t = await createTestApp({}, { demo: true });
  await seedDemo(t.services, { demo: true });
});
afterAll(async () => {
  await t.close();
});

describe('demo seed', () => {
  it('adds nothing when run again', async () => {
    const before = await rowCounts();
    const balancesBefore = await balancesOf(DEMO_MEMBER.email);
    expect(before.members).toBe(1 + DEMO_TEAM.length);
    const summary = await seedDemo(t.services, { demo: true });
    expect(await rowCounts()).toEqual(before);
    expect(await balancesOf(DEMO_MEMBER.email)).toEqual(balancesBefore);
    expect(summary.member.email).toBe('demo@custos.example');
    // No chain configured in this test: no deposit address to print.
    expect(summary.depositAddress).toBeNull();
  });

  it('leaves the demo member and its team with exact balances, records and a clean ledger', async () => {
    const nickname = DEMO_MEMBER.email.split('@')[0]!;
    expect(await balancesOf(DEMO_MEMBER.email)).toEqual({
      // 10,000 credited − 4,500 custody − 100 machine − 500 for 1,000 RAB + 100 for 200 RAB − 800 to
      // Savings − 300 held for the withdrawal; both exchange fees (0.5 %: 2.5 and 0.5) paid in FUEL.
      [`${nickname}:USDT:available`]: '3900.0000',
      [`${nickname}:USDT:custody`]: '4500.0000',
      [`${nickname}:USDT:held`]: '300.0000',
      [`${nickname}:RAB:available`]: '700.0000',
      [`${nickname}:FUEL:available`]: '97.0000',
      [`${nickname}:TICKET:available`]: '200.0000',
      [`${nickname}:TICKET:used`]: '100.0000',
      'Savings:USDT:available': '800.0000',
      'Savings:RAB:available': '100.0000',
    });
    for (const email of DEMO_TEAM) {
      const teamNickname = email.split('@')[0]!;
      expect(await balancesOf(email)).toEqual({
        [`${teamNickname}:USDT:available`]: '500.0000',
        [`${teamNickname}:USDT:custody`]: '1000.0000',
      });
    }
    const reader = await t.services.auth.memberByEmail(DEMO_MEMBER.email);
    const context = { sessionId: '', member: reader!.member, account: reader!.account };
    expect((await t.services.hosting.orders(context, undefined, 1, 10)).total).toBe(2);
    expect((await t.services.machines.index(context, undefined, 1, 10)).machines.total).toBe(2);
    expect((await t.services.exchange.list(context, 1, 10)).total).toBe(2);
    expect((await t.services.transfers.list(context, 1, 10)).total).toBe(2);
    const withdrawals = await t.services.withdraw.list(context, undefined, 1, 10);
    expect(withdrawals.items.map((item) => [item.status, item.amount])).toEqual([['pending', '300.0000']]);
    const report = await t.services.ledger.verify();
    expect(report.problems).toEqual([]);
    expect(report.clean).toBe(true);
  });

  it('lets the demo member log in with the printed password', async () => {
    const response = await loginMember(t, DEMO_MEMBER.email, DEMO_MEMBER.password);
    expect(response.json()).toMatchObject({ code: 200 });
  });

  it('lets the demo operator log in with the printed password and code under --demo only', async () => {
    const code = operatorCode(t, DEMO_OPERATOR.totpSecret);
    const response = await loginOperator(t, DEMO_OPERATOR.username, DEMO_OPERATOR.password, code);
    expect(response.json()).toMatchObject({ code: 200, data: { operator: { username: 'demo', role: 'super_admin' } } });
    const token = response.json<{ data: { token: string } }>().data.token;

    // The same database served without --demo: the log-in answers as a wrong password, the session is gone.
    const plain = createServices(t.testDatabase.database, { ...t.config, demo: false }, createLogger('silent'), t.clock);
    const origin = { ip: '10.77.0.1', userAgent: null, requestId: 'demo-test' };
    const refused = await plain.operators
      .login({ username: DEMO_OPERATOR.username, password: DEMO_OPERATOR.password, googleCode: code }, origin)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).messageKey).toBe('operator.login_failed_code');
    const stale = await plain.operators.authenticate(token).catch((error: unknown) => error);
    expect((stale as AppError).messageKey).toBe('session_expired');
    await expect(t.services.operators.authenticate(token)).resolves.toMatchObject({ operator: { username: 'demo' } });
    await expect(plain.operators.ensureDemoOperator(DEMO_OPERATOR)).rejects.toThrow(/only under --demo/);
    await expect(seedDemo(plain, { demo: false })).rejects.toThrow(/only with --demo/);
  });

  it('prints the same authenticator secret from `npm run demo:code`', () => {
    const script = readFileSync(path.join(repoRoot, 'scripts', 'demo-code.mjs'), 'utf8');
    expect(script).toContain(`DEMO_OPERATOR_TOTP_SECRET = '${DEMO_OPERATOR.totpSecret}'`);
  });
});

describe('terminal log format', () => {
  it('shows a pino line as time, level, message and fields, and passes other text through', () => {
    const time = new Date(2026, 0, 2, 7, 8, 9, 45).getTime();
    const line = JSON.stringify({
      level: 30,
      time,
      pid: 1,
      hostname: 'h',
      reqId: 'req-1',
      req: { method: 'GET', url: '/api/x' },
      msg: 'incoming request',
    });
    expect(formatLogLine(line, false)).toBe('07:08:09.045 INFO   incoming request  reqId=req-1 req="GET /api/x"\n');
    expect(formatLogLine('not json', false)).toBe('not json\n');
    const error = formatLogLine(JSON.stringify({ level: 50, time, msg: 'boom', err: { stack: 'Error: x\n    at y' } }), false);
    expect(error).toBe('07:08:09.045 ERROR  boom\n    Error: x\n        at y\n');
  });
});
