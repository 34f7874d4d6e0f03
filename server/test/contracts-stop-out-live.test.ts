import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALWAYS_OPEN_SESSIONS, money, type ContractOrder, type ContractPendingList } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { applyQuote, contractProduct, memberCall } from './support/contracts.js';
import { operatorToken } from './support/members.js';
import { seedTraders } from './support/otc.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { testDatabaseKind } from './support/test-database.js';

// A stop-out as the running server makes it (decision 034): nothing but the operator's quote call
// moves the price, and the watcher it wakes asks for the sweep that closes the order (no test calls
// stopOutSweep here). On embedded PGlite every query shares one connection: a stop-out transaction
// that read the products through the root handle waited for itself, and the server answered no
// request again (the products read outside the stop-out's transaction hung this test).

let t: TestApp;
let finance: string;

beforeAll(async () => {
  t = await createTestApp();
  finance = await operatorToken(t, 'stop-out-live-finance', 'finance');
}, 120_000);
afterAll(async () => {
  await t.services.contracts.watcher.stop();
  await t.close();
});

describe(`a stop-out by the watcher on ${testDatabaseKind()}`, () => {
  it('closes the order after the quote call alone, and the server keeps answering', async () => {
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'stop-out-live', 1, '1000');
    const productId = await contractProduct(t, finance, 'E2EAB12/USD', {
      digits: 5,
      contractSize: '100000',
      leverages: [100],
      minLots: '0.01',
      lotStep: '0.01',
      maxLots: '10.00',
      spreadMarkupPoints: 0,
      sessions: ALWAYS_OPEN_SESSIONS,
      swapEnabled: false,
      swapLongPct: '0',
      swapShortPct: '0',
      tradingEnabled: true,
    });
    // The quote call (and, as decision 050 asks for a price with no independent reference, a second operator's approval).
    const quote = (bid: string, ask: string) => applyQuote(t, finance, productId, bid, ask);
    await quote('1.10000', '1.10020');
    const balances = await trackBalances(t, { member: who!.accountId });
    const opened = await memberCall<ContractOrder>(t, 'POST', '/api/contracts/open', who!.token, {
      productId,
      side: 'buy',
      lots: '0.20',
      leverage: 100,
      idempotencyKey: randomUUID(),
    });
    expect(opened.code).toBe(200);
    // 0.20 × 100 000 × 1.10020 ÷ 100 = 220.04 held.
    expect(opened.data.margin).toBe('220.0400');
    await balances.expectChanges({ 'member:USDT:available': '-220.0400', 'member:USDT:held': '220.0400' });

    // Bid 1.08990: (1.08990 − 1.10020) × 20 000 = −206; equity 14.04 → 6.38 % < 50 %.
    await quote('1.08990', '1.09000');
    // The watcher's walk and the stop-out it asks for end by themselves (no sweep called here).
    await t.services.contracts.watcher.idle();

    const [row] = await queryRows<{ state: string; close_reason: string | null; pnl: string }>(
      t.testDatabase.database.db,
      sql`select state, close_reason, pnl::text as pnl from contract_orders where id = ${opened.data.id}::uuid`,
    );
    expect(row).toMatchObject({ state: 'closed', close_reason: 'stop_out', pnl: '-206.0000' });
    const pending = await memberCall<ContractPendingList>(t, 'GET', '/api/contracts/pending_list', who!.token);
    expect(pending.code).toBe(200);
    expect(pending.data.items).toEqual([]);
    const closed = await memberCall<{ items: ContractOrder[] }>(t, 'GET', '/api/contracts/closed_list', who!.token);
    expect(closed.code).toBe(200);
    expect(closed.data.items.map((item) => [item.id, item.closeReason])).toEqual([[opened.data.id, 'stop_out']]);
    const ledger = await t.services.ledger.balancesOf([who!.accountId]);
    expect(money.formatMoney(ledger.get(`${who!.accountId}:USDT:available`) ?? money.ZERO)).toBe('794.0000');
    // The margin is released; what is left of it after the 206 loss (14.04) comes back, the loss goes to the book.
    await balances.expectChanges({
      'member:USDT:available': '14.0400',
      'member:USDT:held': '-220.0400',
      'platform:contracts_book:USDT': '206.0000',
    });
  });
});
