import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money, type TeamInfo, type TeamMember } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { createServices } from '../src/container.js';
import { DEMO_MEMBER, DEMO_OPERATOR, DEMO_TEAM, seedDemo } from '../src/demo/seed.js';
import { DEMO_OTC_TRADERS } from '../src/demo/otc.js';
import { DEMO_CONTRACT_TRADER } from '../src/demo/contracts.js';
import { DEMO_CHAT } from '../src/demo/support-chat.js';
import { DEMO_TEAM_TREE } from '../src/demo/team.js';
import { createLogger } from '../src/lib/logger.js';
import { formatLogLine } from '../src/lib/log-format.js';
import { AppError } from '../src/http/app-error.js';
import { loginMember, loginOperator, operatorCode } from './support/members.js';
import { RELEASE_TEST_SIGNING_KEY } from './support/release-test-key.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// A running clock from 10:00 in Shanghai on 2026-11-20, so "today" of the team figures is one known day.
const startedAtMs = Date.now();
const clock = { now: () => new Date(Date.parse('2026-11-20T02:00:00Z') + Date.now() - startedAtMs) };
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

/** Every non-zero balance of the member's accounts, keyed `nickname:asset:purpose` (`main:…` for the main account). */
async function balancesOf(email: string): Promise<Record<string, string>> {
  const found = await t.services.auth.memberByEmail(email);
  const accounts = await t.services.accounts.list({ sessionId: '', member: found!.member, account: found!.account });
  const balances = await t.services.ledger.balancesOf(accounts.map((account) => account.id));
  const out: Record<string, string> = {};
  for (const account of accounts) {
    for (const [key, value] of balances) {
      if (!key.startsWith(`${account.id}:`) || value === money.ZERO) continue;
      const name = account.kind === 'main' ? 'main' : account.nickname;
      out[`${name}:${key.slice(account.id.length + 1)}`] = money.formatMoney(value);
    }
  }
  return out;
}

/** The member's Team tab and whole downline, read through the team service (no session: no rows added). */
async function teamOf(email: string): Promise<{ info: TeamInfo; members: TeamMember[] }> {
  const found = await t.services.auth.memberByEmail(email);
  const context = { sessionId: '', member: found!.member, account: found!.account };
  const info = await t.services.team.info(context);
  const { items } = await t.services.team.members(context, { scope: 'all' }, 1, 50);
  return { info, members: items };
}

beforeAll(async () => {
  // The release key, as a demo with in-app updates needs (decision 057); the committed test one here.
  t = await createTestApp({ RELEASE_SIGNING_KEY: RELEASE_TEST_SIGNING_KEY }, { demo: true, clock });
  await seedDemo(t.services, { demo: true });
});
afterAll(async () => {
  await t.close();
});

describe('demo seed', () => {
  it('adds nothing when run again', async () => {
    const before = await rowCounts();
    const balancesBefore = await balancesOf(DEMO_MEMBER.email);
    expect(before.members).toBe(1 + DEMO_TEAM.length + DEMO_TEAM_TREE.length + DEMO_OTC_TRADERS.length + 1);
    const teamBefore = await teamOf(DEMO_MEMBER.email);
    const summary = await seedDemo(t.services, { demo: true });
    expect(await rowCounts()).toEqual(before);
    expect(await balancesOf(DEMO_MEMBER.email)).toEqual(balancesBefore);
    expect(await teamOf(DEMO_MEMBER.email)).toEqual(teamBefore);
    expect(await t.services.team.differences()).toEqual([]);
    expect(summary.member.email).toBe('demo@custos.example');
    expect(summary.teamBelow).toEqual(DEMO_TEAM_TREE.map((member) => member.email));
    // No chain configured in this test: no deposit address to print.
    expect(summary.depositAddress).toBeNull();
  });

  it('leaves the demo member and its team with exact balances, records and a clean ledger', async () => {
    const nickname = 'main';
    expect(await balancesOf(DEMO_MEMBER.email)).toEqual({
      // 10,000 credited − 4,500 custody − 100 machine − 500 for 1,000 RAB + 100 for 200 RAB − 800 to
      // Savings − 300 held for the withdrawal; both exchange fees (0.5 %: 2.5 and 0.5) paid in FUEL.
      [`${nickname}:USDT:available`]: '3900.0000',
      [`${nickname}:USDT:custody`]: '4500.0000',
      [`${nickname}:USDT:held`]: '300.0000',
      // RAB: 1,000 + 200 exchanged − 100 to Savings − 400 … as before (700), plus the 50 of the arrived airdrop.
      [`${nickname}:RAB:available`]: '750.0000',
      [`${nickname}:FUEL:available`]: '97.0000',
      [`${nickname}:TICKET:available`]: '200.0000',
      [`${nickname}:TICKET:used`]: '100.0000',
      'Savings:USDT:available': '800.0000',
      'Savings:RAB:available': '100.0000',
    });
    for (const email of DEMO_TEAM) {
      expect(await balancesOf(email)).toEqual({
        'main:USDT:available': '500.0000',
        'main:USDT:custody': '1000.0000',
        'main:RAB:available': '50.0000',
      });
    }
    // Below them: funded with exactly the custody each opened, or nothing.
    for (const { email, custody } of DEMO_TEAM_TREE) {
      expect(await balancesOf(email)).toEqual(custody === null ? {} : { 'main:USDT:custody': custody });
    }
    const reader = await t.services.auth.memberByEmail(DEMO_MEMBER.email);
    const context = { sessionId: '', member: reader!.member, account: reader!.account };
    expect((await t.services.hosting.orders(context, undefined, 1, 10)).total).toBe(2);
    expect((await t.services.machines.index(context, undefined, 1, 10)).machines.total).toBe(2);
    expect((await t.services.exchange.list(context, 1, 10)).total).toBe(2);
    expect((await t.services.transfers.list(context, 1, 10)).total).toBe(2);
    const withdrawals = await t.services.withdraw.list(context, undefined, 1, 10);
    expect(withdrawals.items.map((item) => [item.status, item.amount])).toEqual([['pending', '300.0000']]);
    const feedback = await t.services.feedback.list(context, 1, 10);
    expect(feedback.items.map((item) => [item.title, item.status])).toEqual([
      ['Withdrawal window', 'awaiting_reply'],
      ['Deposit arrival time', 'replied'],
    ]);
    // Customer service (decision 029): the demo member's question and the agent's answer, unread.
    const chat = await t.services.supportChat.memberHistory(context, undefined, 10);
    expect(chat.items.map((item) => [item.sender, item.text])).toEqual([
      ['member', DEMO_CHAT.question],
      ['agent', DEMO_CHAT.answer],
    ]);
    expect(await t.services.supportChat.memberUnread(context)).toBe(1);
    // Content (decision 026): banners and news in English, one market article falling back to the default (zh-Hans).
    expect((await t.services.content.bannersFor('en')).map((banner) => banner.title)).toEqual([
      'Platform news and announcements',
      'Mining machines: daily output',
    ]);
    const market = await t.services.content.newsList(reader!.member.id, 'en', 'market', 1, 10);
    expect(market.items.map((item) => [item.title, item.locale])).toEqual([
      ['USDT supply passes a new high', 'en'],
      ['比特币算力稳步上升', 'zh-Hans'],
    ]);
    expect(await t.services.content.unread(reader!.member.id, 'en')).toEqual({ announcements: 2 });
    // Airdrops: the welcome one arrived (the demo member and its three direct members), the V1 one is scheduled.
    const airdrops = await t.services.airdrops.campaigns(1, 10);
    expect(airdrops.items.map((item) => [item.name, item.status, item.recipients, item.paid, item.total])).toEqual([
      ['V1 holiday airdrop', 'scheduled', 1, 0, '20.0000'],
      ['Welcome airdrop', 'arrived', 4, 4, '200.0000'],
    ]);
    const income = await t.services.earnings.income(context, 'airdrop', 1, 10);
    expect(income.items.map((item) => [item.source, item.amount, item.state])).toEqual([
      ['V1 holiday airdrop', '20.0000', 'to_arrive'],
      ['Welcome airdrop', '50.0000', 'arrived'],
    ]);
    // Quotes (decision 027): RAB/USDT first, then three manual pairs with a day of history, then the
    // contract pairs (decision 034) at their first tick's mid.
    const quotes = await t.services.quotes.forexProducts();
    expect(quotes.items.map((item) => [item.symbol, item.price, item.changePct24h, item.stale])).toEqual([
      ['RAB/USDT', expect.any(String), expect.any(String), false],
      ['BTC/USDT', '90534.5', '2.88', false],
      ['ETH/USDT', '3104', '-3.00', false],
      ['XAU/USD', '2671.2', '0.80', false],
      ['EUR/USD', '1.085', '0.27', false],
      ['GBP/USD', '1.265', '-0.30', false],
      ['USD/JPY', '150.12', '0.62', false],
    ]);
    const report = await t.services.ledger.verify();
    expect(report.problems).toEqual([]);
    expect(report.clean).toBe(true);
  });

  it('gives the demo member a team over three generations at level V1, with exact figures', async () => {
    const response = await loginMember(t, DEMO_MEMBER.email, DEMO_MEMBER.password);
    const token = response.json<{ data: { token: string } }>().data.token;
    const answer = await t.app.inject({ method: 'GET', url: '/api/user/team_info', headers: { authorization: token } });
    const info = answer.json<{ data: TeamInfo }>().data;
    // Team performance: alice, bob, carol 1000 each + dave 2500 + erin 300 + frank 4000 + grace 800 + ivan 200,
    // all opened on the seed's day. Valid (≥ 500): alice, bob, carol (direct), dave, frank, grace. Direct: those
    // three and judy; the demo member's own sub-account "Savings" is the member, not a team member (decision 020).
    expect(info).toMatchObject({
      level: 1,
      levelName: 'V1',
      ownCustody: '4500.0000',
      isValid: true,
      performance: { today: '10800.0000', month: '10800.0000', total: '10800.0000' },
      directCount: 4,
      indirectCount: 6,
      validDirectCount: 3,
      validTeamCount: 6,
    });
    // V2 (default table): 5 valid direct, 50,000 team performance, two direct members at V1 — none is yet.
    expect(info.next).toEqual({
      level: 2,
      name: 'V2',
      requires: { ownCustody: '1000.0000', validDirect: 5, teamPerformance: '50000.0000', legs: 2, legsLevel: 1 },
      missing: { ownCustody: '0.0000', validDirect: 2, teamPerformance: '39200.0000', legs: 2, legsLevel: 1 },
    });
    // The list, newest first: masked e-mails, generation, validity, own custody and team performance.
    const { members } = await teamOf(DEMO_MEMBER.email);
    expect(members.map((m) => [m.maskedEmail, m.generation, m.isValid, m.ownCustody, m.teamPerformance])).toEqual([
      ['j***y@custos.example', 1, false, '0.0000', '0.0000'],
      ['i***n@custos.example', 2, false, '200.0000', '0.0000'],
      ['h***i@custos.example', 3, false, '0.0000', '0.0000'],
      ['g***e@custos.example', 3, true, '800.0000', '0.0000'],
      ['f***k@custos.example', 2, true, '4000.0000', '800.0000'],
      ['e***n@custos.example', 2, false, '300.0000', '0.0000'],
      ['d***e@custos.example', 2, true, '2500.0000', '0.0000'],
      ['c***l@custos.example', 1, true, '1000.0000', '200.0000'],
      ['b***b@custos.example', 1, true, '1000.0000', '4800.0000'],
      ['a***e@custos.example', 1, true, '1000.0000', '2800.0000'],
    ]);
    expect(members.every((member) => member.level === 0)).toBe(true);
    // Default nicknames, nothing of the e-mail (and no sub-account "Savings").
    expect(members.filter((member) => !/^Member [A-Z2-9]{6}$/.test(member.nickname)).map((member) => member.nickname)).toEqual(
      [],
    );
    expect((await teamOf('bob@custos.example')).info).toMatchObject({
      directCount: 1,
      indirectCount: 2,
      validDirectCount: 1,
      validTeamCount: 2,
      performance: { total: '4800.0000' },
    });
    expect(await t.services.team.differences()).toEqual([]);
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

  it('opens an OTC market with listings on both sides, an order in progress and an appeal in the queue', async () => {
    expect(await t.services.otc.console.escrowProblems()).toEqual([]);
    const viewer = await t.services.auth.memberByEmail(DEMO_MEMBER.email);
    const context = { sessionId: '', member: viewer!.member, account: viewer!.account };
    const sells = await t.services.otc.listings.market(context, { side: 'sell' }, 1, 20);
    const buys = await t.services.otc.listings.market(context, { side: 'buy' }, 1, 20);
    expect(sells.items.map((item) => [item.price, item.available])).toEqual([
      ['7.2000', '900.0000'],
      ['7.2500', '300.0000'],
    ]);
    expect(buys.items.map((item) => [item.price, item.available])).toEqual([['7.1500', '740.0000']]);
    const orders = await t.services.otc.console.adminOrders({}, 1, 20);
    expect(orders.items.map((order) => order.state).sort()).toEqual(['appeal', 'paid']);
    const queue = await t.services.otc.rulings.appealQueue('open', 1, 20);
    expect(queue.items).toHaveLength(1);
    expect(queue.items[0]!.order.seller.email).toBe(DEMO_OTC_TRADERS[2]);
    expect((await t.services.otc.console.getSettings()).releaseWindowMinutes).toBe(15);
  });

  it('publishes the demo hot release 1.0.20 to every member (decision 037)', async () => {
    const version = await t.services.releases.appVersion(null);
    expect(version).toMatchObject({ version: '1.0.20', hot_version_code: 10020 });
    expect(version.hot_package_signature).toMatch(/^[A-Za-z0-9+/]{86}==$/);
    expect(version.release_notes).toContain('Demo release');
    expect(version.hot_package_url).toMatch(/^\/api\/common\/app_package\/[0-9a-f-]{36}\.zip$/);
    expect((await t.services.releases.list()).items).toHaveLength(1);
  });

  it('gives the contract trader open and closed contract orders on the four forex products', async () => {
    expect(await t.services.contracts.admin.marginProblems()).toEqual([]);
    const found = await t.services.auth.memberByEmail(DEMO_CONTRACT_TRADER);
    const context = { sessionId: '', member: found!.member, account: found!.account };
    const open = await t.services.contracts.trading.pendingList(context);
    expect(open.items.map((order) => [order.symbol, order.side, order.lots, order.openPrice])).toEqual([
      ['USD/JPY', 'buy', '0.20', '150.126'],
      ['XAU/USD', 'sell', '0.50', '2671.05'],
      ['EUR/USD', 'buy', '1.00', '1.08507'],
    ]);
    const closed = await t.services.contracts.trading.closedList(context, undefined, 1, 20);
    expect(closed.items.map((order) => [order.symbol, order.lots, order.closeReason]).sort()).toEqual([
      ['EUR/USD', '0.20', 'member'],
      ['GBP/USD', '0.50', 'member'],
      ['USD/JPY', '0.10', 'member'],
      ['XAU/USD', '0.10', 'take_profit'],
    ]);
    const products = await t.services.contracts.catalog.products();
    expect(products.items.map((product) => [product.symbol, product.bid, product.ask, product.canOpen])).toEqual([
      ['XAU/USD', '2671.05', '2671.35', true],
      ['EUR/USD', '1.08493', '1.08507', true],
      ['GBP/USD', '1.26493', '1.26507', true],
      ['USD/JPY', '150.114', '150.126', true],
    ]);
  });
});
