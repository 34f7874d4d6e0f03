import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ContractCloseResult, ContractOrder } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { createLogger } from '../src/lib/logger.js';
import { ContractsRepository } from '../src/modules/contracts/contracts.repository.js';
import { ContractsService } from '../src/modules/contracts/contracts.service.js';
import { EURUSD_SETTINGS, contractProduct, memberCall, setQuote } from './support/contracts.js';
import { operatorToken } from './support/members.js';
import { seedTraders, type Trader } from './support/otc.js';
import { createTestApp, type TestApp } from './support/test-app.js';

// Races on real PostgreSQL connections (docs/decisions/034-contracts.md): opens against one account's
// free margin, retried keys, and members closing while two instances walk a burst of ticks.
let t: TestApp;
const nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let finance: string;
let eurusd: string;
let second: ContractsService;

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
  // A second instance over the same database: its own watcher, its own stop-out sweep.
  second = new ContractsService(
    t.testDatabase.database.db,
    new ContractsRepository(t.testDatabase.database.db),
    t.services.ledger,
    t.services.settings,
    t.services.audit,
    t.services.memberEvents,
    { timeZone: 'Asia/Shanghai', clock, logger: createLogger('silent') },
  );
}, 120_000);
afterEach(async () => {
  await Promise.all([t.services.contracts.idle(), second.idle()]);
  expect(await t.services.contracts.marginProblems()).toEqual([]);
  expect((await t.services.ledger.verify()).problems).toEqual([]);
});
afterAll(async () => {
  await second.stop();
  await t.services.contracts.stop();
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
            t.services.contracts.ingestTicks([ticks[index]!], 'replay'),
            second.ingestTicks([ticks[index + 1]!], 'replay'),
          ]);
        }
      })(),
    ]);
    await Promise.all([t.services.contracts.idle(), second.idle()]);
    await Promise.all([t.services.contracts.watchAll(), second.watchAll()]);
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
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  });
});
