import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { money, type ContractCloseResult, type ContractOrder } from '@custos/contract';
import { openPostgres, queryRows, type Database } from '../src/db/client.js';
import { createLogger } from '../src/lib/logger.js';
import { ContractsService, contractsRepositories } from '../src/modules/contracts/contracts.service.js';
import { EURUSD_SETTINGS, contractProduct, memberCall, setQuote } from './support/contracts.js';
import { operatorToken } from './support/members.js';
import { seedTraders, type Trader } from './support/otc.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { trackBalances } from './support/balances.js';

// Races on real PostgreSQL connections (docs/decisions/034-contracts.md): opens against one account's
// free margin, retried keys, and members closing while two instances walk a burst of ticks.
let t: TestApp;
const nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let finance: string;
let eurusd: string;
let second: ContractsService;
let secondDatabase: Database;

const price = (points: number) => `1.${String(points).padStart(5, '0')}`;

function open(who: Trader, body: Record<string, unknown>) {
  return memberCall<ContractOrder>(t, 'POST', '/api/contracts/open', who.token, {
    idempotencyKey: randomUUID(),
    productId: eurusd,
    ...body,
  });
}
async function heldOf(who: Trader): Promise<string> {
  const [row] = await queryRows<{ balance: string }>(
    t.testDatabase.database.db,
    sql`select balance::text as balance from ledger_accounts where owner_account_id = ${who.accountId}::uuid and asset = 'USDT' and purpose = 'held'`,
  );
  return row!.balance;
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  finance = await operatorToken(t, 'contracts-race-finance', 'finance');
  eurusd = await contractProduct(t, finance, 'EUR/USD', EURUSD_SETTINGS);
  await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  // A second instance over the same database: its own watcher, its own stop-out sweep, on its own
  // pool running generic plans, as the server's watcher thread does (decision 046).
  secondDatabase = await openPostgres(t.testDatabase.url!, 5, { genericPlans: true });
  second = new ContractsService(
    secondDatabase.db,
    contractsRepositories(secondDatabase.db),
    t.services.ledger,
    t.services.settings,
    t.services.audit,
    t.services.memberEvents,
    { timeZone: 'Asia/Shanghai', clock, logger: createLogger('silent') },
  );
}, 120_000);
afterEach(async () => {
  await Promise.all([t.services.contracts.watcher.idle(), second.watcher.idle()]);
  expect(await t.services.contracts.admin.marginProblems()).toEqual([]);
  expect((await t.services.ledger.verify()).problems).toEqual([]);
});
afterAll(async () => {
  await second.watcher.stop();
  await secondDatabase.close();
  await t.services.contracts.watcher.stop();
  await t.close();
});

describe('opening races', () => {
  it('30 opens at once on one account open only what its free margin holds', { timeout: 60_000 }, async () => {
    // 1 000 USDT; each order holds 0.09 × 100 000 × 1.08512 ÷ 100 = 97.6608.
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-race-open', 1, '1000');
    const results = await Promise.all(Array.from({ length: 30 }, () => open(who!, { side: 'buy', lots: '0.09', leverage: 100 })));
    const won = results.filter((result) => result.code === 200);
    // 1 000 ÷ 97.6608 = 10.2: ten fit.
    expect(won).toHaveLength(10);
    for (const result of results.filter((item) => item.code !== 200)) {
      expect(result.message).toMatch(/^Not enough free margin: this order needs 97.6608 USDT, you have \d+\.\d{4} USDT$/);
    }
    expect(await heldOf(who!)).toBe('976.6080');
  });

  it('20 retries of one key at once make one order', { timeout: 60_000 }, async () => {
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-race-key', 1, '1000');
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => open(who!, { side: 'sell', lots: '0.10', leverage: 100, idempotencyKey: key })),
    );
    expect(new Set(results.map((result) => result.data.id))).toHaveProperty('size', 1);
    expect(results.every((result) => result.code === 200)).toBe(true);
    expect(await heldOf(who!)).toBe('108.5000');
  });
});

describe('closes racing the watchers of two instances', () => {
  it('settle each order exactly once, by its member or its take-profit', { timeout: 120_000 }, async () => {
    const traders = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-race-close', 10, '5000');
    const orders: { who: Trader; id: string }[] = [];
    for (const who of traders) {
      for (let index = 0; index < 4; index += 1) {
        const opened = await open(who, { side: 'buy', lots: '0.10', leverage: 100, takeProfit: price(8520 + index * 5) });
        expect(opened.code).toBe(200);
        orders.push({ who, id: opened.data.id });
      }
    }
    // Each order holds 0.1 × 100 000 × 1.08512 ÷ 100 = 108.512.
    const names = Object.fromEntries(traders.map((who, index) => [`t${index}`, who.accountId]));
    const balances = await trackBalances(t, names);
    // Ticks climb through every take-profit, half stored through each instance, while members close.
    const ticks = Array.from({ length: 40 }, (_, index) => ({
      productId: eurusd,
      bid: price(8505 + index),
      ask: price(8517 + index),
    }));
    const [closes] = await Promise.all([
      Promise.all(
        orders.map(({ who, id }) =>
          memberCall<ContractCloseResult>(t, 'POST', '/api/contracts/close', who.token, {
            orderId: id,
            idempotencyKey: randomUUID(),
          }),
        ),
      ),
      (async () => {
        for (let index = 0; index < ticks.length; index += 2) {
          await Promise.all([
            t.services.contracts.watcher.ingestTicks([ticks[index]!], 'replay'),
            second.watcher.ingestTicks([ticks[index + 1]!], 'replay'),
          ]);
        }
      })(),
    ]);
    await Promise.all([t.services.contracts.watcher.idle(), second.watcher.idle()]);
    await Promise.all([t.services.contracts.watcher.watchAll(), second.watcher.watchAll()]);
    const rows = await queryRows<{ id: string; state: string; close_reason: string }>(
      t.testDatabase.database.db,
      sql`select id::text as id, state, close_reason from contract_orders where id in ${sql`(${sql.join(
        orders.map((order) => sql`${order.id}::uuid`),
        sql`, `,
      )})`}`,
    );
    expect(rows.every((row) => row.state === 'closed')).toBe(true);
    const byMember = rows.filter((row) => row.close_reason === 'member').length;
    const byTarget = rows.filter((row) => row.close_reason === 'take_profit').length;
    expect(byMember + byTarget).toBe(orders.length);
    // A member's close that lost to the take-profit is told so; none answers twice.
    expect(closes.filter((result) => result.code === 200)).toHaveLength(byMember);
    for (const result of closes.filter((item) => item.code !== 200))
      expect(result).toMatchObject({ code: 409, message: 'This order is already closed' });
    // One settlement per order: every margin hold settled once (the checker), no hold left.
    for (const who of traders) expect(await heldOf(who)).toBe('0.0000');
    const [settlements] = await queryRows<{ count: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as count from journal_entries where kind in ('hold_release', 'hold_capture')
          and reference_type = 'contract_order' and reference_id in ${sql`(${sql.join(
            orders.map((order) => sql`${order.id}`),
            sql`, `,
          )})`}`,
    );
    expect(settlements!.count).toBe(orders.length);
    // Every order's result from its own close price ((close − 1.08512) × 10 000), and every account's
    // exact change: its four margins back plus its four results, the book the other side.
    const results = await queryRows<{ account_id: string; close_price: string; pnl: string }>(
      t.testDatabase.database.db,
      sql`select account_id::text as account_id, close_price::text as close_price, pnl::text as pnl from contract_orders
          where id in ${sql`(${sql.join(
            orders.map((order) => sql`${order.id}::uuid`),
            sql`, `,
          )})`}`,
    );
    const expected: Record<string, string> = {};
    let book = money.ZERO;
    for (const [index, who] of traders.entries()) {
      let available = money.ZERO;
      for (const row of results.filter((item) => item.account_id === who.accountId)) {
        const points = BigInt(Math.round(Number(row.close_price) * 100_000));
        const pnl = money.fromUnits((points - 108_512n) * 1000n);
        expect(money.parseMoney(row.pnl)).toBe(pnl);
        available = money.add(available, money.add(money.parseMoney('108.5120'), pnl));
        book = money.subtract(book, pnl);
      }
      expected[`t${index}:USDT:available`] = money.formatMoney(available);
      expected[`t${index}:USDT:held`] = '-434.0480';
    }
    if (book !== 0n) expected['platform:contracts_book:USDT'] = money.formatMoney(book);
    await balances.expectChanges(expected);
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  });
});

describe('a partial close racing a take-profit walk', () => {
  it('the walk closes what is left of the order, with the figures of the row it locked', { timeout: 60_000 }, async () => {
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-race-part', 1);
    const opened = await open(who!, { side: 'buy', lots: '1.50', leverage: 100, takeProfit: '1.08700' });
    expect(opened.data.margin).toBe('1627.6800');
    await Promise.all([t.services.contracts.watcher.idle(), second.watcher.idle()]);
    const balances = await trackBalances(t, { member: who!.accountId });
    const lockWaits = async () => {
      const [row] = await queryRows<{ count: number }>(
        t.testDatabase.database.db,
        sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      return row!.count;
    };
    const waitForLockWaits = async (count: number) => {
      // Polls for the state: that many statements waiting on the order's row lock.
      for (let attempt = 0; (await lockWaits()) < count; attempt += 1) {
        if (attempt > 2000) throw new Error(`never ${count} waiting on the order's lock`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    // A side transaction holds the order's row lock, so the member's close and then the walk queue on it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const side = secondDatabase.db.transaction(async (tx) => {
      await tx.execute(sql`select id from contract_orders where id = ${opened.data.id}::uuid for update`);
      locked();
      await released;
    });
    await isLocked;
    const closing = memberCall<ContractCloseResult>(t, 'POST', '/api/contracts/close', who!.token, {
      orderId: opened.data.id,
      idempotencyKey: randomUUID(),
      lots: '1.49',
    });
    await waitForLockWaits(1);
    // A tick beyond the take-profit: the walk's statement (on the second instance) waits behind the close.
    await second.watcher.ingestTicks([{ productId: eurusd, bid: '1.08711', ask: '1.08723' }], 'replay');
    await waitForLockWaits(2);
    release();
    await side;
    const closed = await closing;
    expect(closed.code).toBe(200);
    // 1.49 lots at bid 1.08500: (1.08500 − 1.08512) × 149 000 = −17.88; its margin 1 627.68 × 1.49 ÷ 1.5 = 1 616.8288.
    expect(closed.data.closed).toMatchObject({ lots: '1.49', pnl: '-17.8800', margin: '1616.8288' });
    await Promise.all([t.services.contracts.watcher.idle(), second.watcher.idle()]);
    await Promise.all([t.services.contracts.watcher.watchAll(), second.watcher.watchAll()]);
    const [rest] = await queryRows<{ state: string; close_reason: string; lots: string; pnl: string }>(
      t.testDatabase.database.db,
      sql`select state, close_reason, lots::text as lots, pnl::text as pnl from contract_orders where id = ${opened.data.id}::uuid`,
    );
    // The 0.01 left closes at its take-profit tick: (1.08711 − 1.08512) × 1 000 = 1.99, not 1.5 lots' 298.50.
    expect(rest).toEqual({ state: 'closed', close_reason: 'take_profit', lots: '0.01', pnl: '1.9900' });
    await balances.expectChanges({
      'member:USDT:available': '1611.7900',
      'member:USDT:held': '-1627.6800',
      'platform:contracts_book:USDT': '15.8900',
    });
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  });
});

describe('opens racing a fast tick stream', () => {
  it(
    'every order closes at the first tick after its open that reaches a target, and at no other',
    { timeout: 180_000 },
    async () => {
      // Members open orders with targets a few points away while two instances store ticks at once
      // (a zig-zag of one point a tick) and walk them. An order committed after a walk read the open
      // orders, or a tick committed after a later tick was walked, must not let a target slip by.
      const traders = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-race-stream', 12, '100000');
      const base = 8500;
      const spreadPoints = 12;
      let current = base;
      let streaming = true;
      const [before] = await queryRows<{ id: string }>(
        t.testDatabase.database.db,
        sql`select coalesce(max(id), 0)::text as id from contract_ticks`,
      );
      const opened: string[] = [];
      const opener = async (who: Trader, index: number) => {
        for (let n = 0; streaming; n += 1) {
          const side = (index + n) % 2 === 0 ? 'buy' : 'sell';
          const distance = 2 + ((index + n) % 4);
          const close = side === 'buy' ? current : current + spreadPoints;
          const sign = side === 'buy' ? 1 : -1;
          const answer = await open(who, {
            side,
            lots: '0.01',
            leverage: 100,
            takeProfit: price(close + sign * distance),
            stopLoss: price(close - sign * (distance + 1)),
          });
          // The price may have moved past a target between our read and the server's: a refusal is fine.
          if (answer.code === 200) opened.push(answer.data.id);
          else expect(answer.message).toMatch(/take-profit|stop-loss/i);
        }
      };
      const stream = async () => {
        // ±6 points around the base, one point a tick; each step stores one tick through each instance at once.
        for (let step = 0; step < 300; step += 1) {
          const points = [0, 1].map((half) => {
            const phase = (step * 2 + half) % 24;
            return base + (phase < 12 ? phase - 6 : 18 - phase);
          });
          await Promise.all([
            t.services.contracts.watcher.ingestTicks(
              [{ productId: eurusd, bid: price(points[0]!), ask: price(points[0]! + spreadPoints) }],
              'replay',
            ),
            second.watcher.ingestTicks(
              [{ productId: eurusd, bid: price(points[1]!), ask: price(points[1]! + spreadPoints) }],
              'replay',
            ),
          ]);
          current = points[1]!;
        }
        streaming = false;
      };
      await Promise.all([stream(), ...traders.map((who, index) => opener(who, index))]);
      await Promise.all([t.services.contracts.watcher.idle(), second.watcher.idle()]);
      await Promise.all([t.services.contracts.watcher.watchAll(), second.watcher.watchAll()]);
      await Promise.all([t.services.contracts.watcher.idle(), second.watcher.idle()]);

      const ticks = await queryRows<{ id: string; bid: string; ask: string }>(
        t.testDatabase.database.db,
        sql`select t.id::text as id, t.bid::text as bid, t.ask::text as ask from contract_ticks t
          where t.product_id = ${eurusd}::uuid and t.id > ${before!.id}::bigint order by t.id`,
      );
      const points = (value: string) => Math.round(Number(value) * 100_000);
      const orders = await queryRows<{
        id: string;
        side: 'buy' | 'sell';
        take_profit: string;
        stop_loss: string;
        open_tick_id: string;
        state: string;
        close_reason: string | null;
        close_tick_id: string | null;
      }>(
        t.testDatabase.database.db,
        sql`select id::text as id, side, take_profit::text as take_profit, stop_loss::text as stop_loss,
            open_tick_id::text as open_tick_id, state, close_reason, close_tick_id::text as close_tick_id
          from contract_orders where id = any(${`{${opened.join(',')}}`}::uuid[])`,
      );
      expect(orders).toHaveLength(opened.length);
      expect(opened.length).toBeGreaterThan(100);
      const misses: string[] = [];
      let fired = 0;
      for (const order of orders) {
        const tp = points(order.take_profit);
        const sl = points(order.stop_loss);
        let expected: { tick: string; reason: string } | null = null;
        for (const tick of ticks) {
          if (BigInt(tick.id) <= BigInt(order.open_tick_id)) continue;
          const close = order.side === 'buy' ? points(tick.bid) : points(tick.ask);
          const reason =
            order.side === 'buy'
              ? close >= tp
                ? 'take_profit'
                : close <= sl
                  ? 'stop_loss'
                  : null
              : close <= tp
                ? 'take_profit'
                : close >= sl
                  ? 'stop_loss'
                  : null;
          if (reason) {
            expected = { tick: tick.id, reason };
            break;
          }
        }
        if (expected) fired += 1;
        const actual = order.state === 'open' ? null : { tick: order.close_tick_id, reason: order.close_reason };
        if (JSON.stringify(actual) !== JSON.stringify(expected))
          misses.push(
            `${order.id} opened after tick ${order.open_tick_id}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`,
          );
      }
      expect(misses).toEqual([]);
      expect(fired).toBeGreaterThan(50);
      await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    },
  );
});
