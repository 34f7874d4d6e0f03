import { ContractProductsRepository } from '../src/modules/contracts/products.repository.js';
import { ContractTicksRepository } from '../src/modules/contracts/ticks.repository.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALWAYS_OPEN_SESSIONS, contractOpenRequest, money, type Money } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { loadConfig } from '../src/config.js';
import { createServices, type Services } from '../src/container.js';
import { createLogger } from '../src/lib/logger.js';
import { trackBalances } from './support/balances.js';
import { seedTraders, type Trader } from './support/otc.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

// A real server process on real PostgreSQL walks a burst of ticks stored by another instance and is
// killed with SIGKILL in the middle; after a restart every order whose take-profit or stop-loss a
// tick reached is closed exactly once, at the first such tick, and no other (decision 034).
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let database: TestDatabase;
let services: Services;
let server: ChildProcess | undefined;
let traders: Trader[];
let productId: string;

const price = (points: number) => `1.${String(points).padStart(5, '0')}`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startServer(): Promise<ChildProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
    },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during start-up');
    if (Date.now() > deadline) throw new Error('server did not start');
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The members' accounts by the balance tracker's names (`t0`…). */
function names(): Record<string, string> {
  return Object.fromEntries(traders.map((who, index) => [`t${index}`, who.accountId]));
}

async function watched(): Promise<bigint> {
  const [row] = await queryRows<{ watched: string }>(
    database.database.db,
    sql`select watched_tick_id::text as watched from contract_watch where product_id = ${productId}::uuid`,
  );
  return BigInt(row!.watched);
}

/** Closes whose ledger settlement has not happened yet (decision 046). */
async function unsettled(): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    database.database.db,
    sql`select count(*)::int as count from contract_settlements_due`,
  );
  return row!.count;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.database;
  services = createServices(
    database.database,
    { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), demo: false },
    createLogger('silent'),
  );
  await services.settings.ensureDefaults();
  traders = await seedTraders(db, services.ledger, 'contracts-crash', 8, '100000');
  const [product] = await queryRows<{ id: string }>(
    db,
    sql`insert into market_products (symbol, display_name, source) values ('EUR/USD', 'Euro', 'manual') returning id::text as id`,
  );
  productId = product!.id;
  await db.transaction((tx) =>
    new ContractProductsRepository(db).upsertSettings(tx, productId, {
      digits: 5,
      contractSize: '100000',
      leverages: [100],
      minLots: '0.01',
      lotStep: '0.01',
      maxLots: '50.00',
      spreadMarkupPoints: 0,
      sessions: ALWAYS_OPEN_SESSIONS,
      swapEnabled: false,
      swapLongPct: '0',
      swapShortPct: '0',
      tradingEnabled: true,
    }),
  );
  await services.contracts.watcher.ingestTicks([{ productId, bid: price(8500), ask: price(8510) }], 'manual');
  await services.contracts.watcher.idle();
}, 120_000);
afterAll(async () => {
  server?.kill('SIGKILL');
  await services.contracts.watcher.stop();
  await database.dispose();
});

describe('a restart during a price burst', () => {
  it('closes every order a tick reached exactly once, at the first such tick, and no other', { timeout: 240_000 }, async () => {
    // 8 members × 25 orders: buys with take-profits and stop-losses spread over the burst's range, sells likewise.
    const orders: { id: string; who: number; margin: string; side: 'buy' | 'sell'; tp: number; sl: number }[] = [];
    for (const [index, who] of traders.entries()) {
      const context = await services.auth.authenticate(who.token);
      for (let n = 0; n < 25; n += 1) {
        const side = (index + n) % 2 === 0 ? 'buy' : 'sell';
        const spread = 20 + ((index * 25 + n) % 60);
        const tp = side === 'buy' ? 8500 + spread : 8510 - spread;
        const sl = side === 'buy' ? 8500 - spread - 15 : 8510 + spread + 15;
        const order = await services.contracts.trading.open(
          context,
          contractOpenRequest.parse({
            productId,
            side,
            lots: '0.10',
            leverage: 100,
            takeProfit: price(tp),
            stopLoss: price(sl),
            idempotencyKey: randomUUID(),
          }),
        );
        orders.push({ id: order.id, who: index, margin: order.margin, side, tp, sl });
      }
    }
    const repository = new ContractTicksRepository(database.database.db);
    const balances = await trackBalances({ testDatabase: database }, names());
    const [openTick] = await queryRows<{ id: string }>(database.database.db, sql`select max(id)::text as id from contract_ticks`);

    server = await startServer();
    // A burst stored by another instance (no walking here): a zig-zag swinging ±100 points.
    const burst: { bid: number }[] = [];
    // The first half swings ±40 points (it reaches the nearer targets only), the second ±115: the big
    // store in the middle has orders left to close.
    for (let index = 0; index < 1200; index += 1) {
      const swing = index < 600 ? 30 : 100;
      burst.push({ bid: 8500 + Math.round(swing * Math.sin(index / 37) + (swing / 10 + 5) * Math.sin(index / 5)) });
    }
    const ids: bigint[] = [];
    let killed = false;
    /** Whether a walk holds the product's watch row now (it takes it for its whole transaction). */
    const walking = () =>
      database.database.db
        .transaction(async (tx) => {
          await tx.execute(sql`select 1 from contract_watch where product_id = ${productId}::uuid for update nowait`);
        })
        .then(
          () => false,
          () => true,
        );
    for (let index = 0; index < burst.length;) {
      // At the middle, 400 ticks in one store: one walk of many closes, killed while it runs.
      const size = !killed && index >= 600 ? 400 : 20;
      // Another session holds the open orders' rows while the big store is walked: the walk that
      // reaches them waits on their locks inside its transaction, so the kill lands on it mid-run.
      let holder: pg.Client | null = null;
      if (size === 400) {
        // The server walks what another instance stored on its own schedule (each second): the big
        // store waits until it has walked some of the burst, so the kill lands on a server at work.
        const deadline = Date.now() + 30_000;
        while ((await watched()) <= BigInt(openTick!.id)) {
          if (Date.now() > deadline) throw new Error('the server walked none of the burst');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        holder = new pg.Client({ connectionString: database.url });
        await holder.connect();
        await holder.query('begin');
        const held = await holder.query(`select id from contract_orders where product_id = $1 and state = 'open' for update`, [
          productId,
        ]);
        expect(held.rowCount).toBeGreaterThan(0);
      }
      const chunk = burst.slice(index, index + size);
      const inserted = await database.database.db.transaction((tx) =>
        repository.insertTicks(
          tx,
          chunk.map((tick) => ({ productId, bid: price(tick.bid), ask: price(tick.bid + 10), observedAt: new Date() })),
          'replay',
        ),
      );
      ids.push(...inserted.map((tick) => BigInt(tick.id)));
      index += size;
      if (!killed && size === 400) {
        const firstOfStore = BigInt(inserted[0]!.id);
        const deadline = Date.now() + 30_000;
        while (!(await walking())) {
          if (Date.now() > deadline) throw new Error('no walk was seen running after the big store');
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        server.kill('SIGKILL');
        killed = true;
        await new Promise((resolve) => server!.once('exit', resolve));
        await holder!.query('rollback');
        await holder!.end();
        // The kill landed on a running walk: the server had walked part of the burst, and no walk of
        // the big store committed (the cursor is still before its first tick).
        const after = await watched();
        expect(after).toBeGreaterThan(BigInt(openTick!.id));
        expect(after).toBeLessThan(firstOfStore);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await watched()).toBeLessThan(ids[ids.length - 1]!);
    server = await startServer();
    const deadline = Date.now() + 60_000;
    while (((await watched()) < ids[ids.length - 1]! || (await unsettled()) > 0) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await watched()).toBe(ids[ids.length - 1]!);
    expect(await unsettled()).toBe(0);

    // What should have happened: each order closes at the first tick after its open tick reaching a target.
    const start = BigInt(openTick!.id);
    const rows = await queryRows<{
      id: string;
      state: string;
      close_reason: string | null;
      close_tick_id: string | null;
      pnl: string | null;
    }>(
      database.database.db,
      sql`select id::text as id, state, close_reason, close_tick_id::text as close_tick_id, pnl::text as pnl from contract_orders where product_id = ${productId}::uuid`,
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    let fired = 0;
    const moved = traders.map(() => ({ available: money.ZERO, held: money.ZERO }));
    let book = money.ZERO;
    for (const order of orders) {
      let expected: { tick: bigint; reason: string; pnl: Money } | null = null;
      for (const [index, tick] of burst.entries()) {
        if (ids[index]! <= start) continue;
        const close = order.side === 'buy' ? tick.bid : tick.bid + 10;
        const reason =
          order.side === 'buy'
            ? close >= order.tp
              ? 'take_profit'
              : close <= order.sl
                ? 'stop_loss'
                : null
            : close <= order.tp
              ? 'take_profit'
              : close >= order.sl
                ? 'stop_loss'
                : null;
        if (reason) {
          // Buys open at ask 8510 and close at bid, sells open at bid 8500 and close at ask; 0.1 USDT a point.
          const points = order.side === 'buy' ? close - 8510 : 8500 - close;
          expected = { tick: ids[index]!, reason, pnl: money.fromUnits(BigInt(points) * 1000n) };
          break;
        }
      }
      const row = byId.get(order.id)!;
      if (expected) {
        fired += 1;
        expect(row).toMatchObject({
          state: 'closed',
          close_reason: expected.reason,
          close_tick_id: expected.tick.toString(),
          pnl: money.formatMoney(expected.pnl),
        });
        const margin = money.parseMoney(order.margin);
        moved[order.who]!.available = money.add(moved[order.who]!.available, money.add(margin, expected.pnl));
        moved[order.who]!.held = money.subtract(moved[order.who]!.held, margin);
        book = money.subtract(book, expected.pnl);
      } else {
        expect(row.state).toBe('open');
      }
    }
    expect(fired).toBeGreaterThan(100);
    // Every member's exact change (margins back, results) and the book's, nothing else.
    const expectedChanges: Record<string, string> = {};
    for (const [index, change] of moved.entries()) {
      if (change.available !== 0n) expectedChanges[`t${index}:USDT:available`] = money.formatMoney(change.available);
      if (change.held !== 0n) expectedChanges[`t${index}:USDT:held`] = money.formatMoney(change.held);
    }
    if (book !== 0n) expectedChanges['platform:contracts_book:USDT'] = money.formatMoney(book);
    await balances.expectChanges(expectedChanges);
    // Each closed order settled once; every open order holds its margin; the ledger is clean.
    const [settlements] = await queryRows<{ count: number }>(
      database.database.db,
      sql`select count(*)::int as count from journal_entries where kind in ('hold_release', 'hold_capture') and reference_type = 'contract_order'`,
    );
    expect(settlements!.count).toBe(fired);
    expect(await services.contracts.admin.marginProblems()).toEqual([]);
    expect((await services.ledger.verify()).problems).toEqual([]);
  });
});
