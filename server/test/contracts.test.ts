import { ContractTicksRepository } from '../src/modules/contracts/ticks.repository.js';
import { ContractOrdersRepository } from '../src/modules/contracts/orders.repository.js';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  money,
  type AdminContractBook,
  type AdminContractOrder,
  type ContractCloseResult,
  type ContractOrder,
  type ContractPendingInfo,
  type ContractPendingList,
  type ContractProducts,
} from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { ContractsService, contractsRepositories } from '../src/modules/contracts/contracts.service.js';
import { createLogger } from '../src/lib/logger.js';
import {
  EURUSD_SETTINGS,
  USDJPY_SETTINGS,
  XAUUSD_SETTINGS,
  consoleCall,
  contractProduct,
  memberCall,
  setQuote,
} from './support/contracts.js';
import { operatorToken } from './support/members.js';
import { openStream } from './support/sse.js';
import { seedTraders, type Trader } from './support/otc.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { trackBalances } from './support/balances.js';

let t: TestApp;
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let finance: string;
let support: string;
let traders: Trader[];
let eurusd: string;
let usdjpy: string;
let xauusd: string;
let gbpusd: string;
let nextTrader = 0;

function trader(): Trader {
  const next = traders[nextTrader++];
  if (!next) throw new Error('out of traders');
  return next;
}

async function balances(who: Trader): Promise<{ available: string; held: string }> {
  const map = await t.services.ledger.balancesOf([who.accountId]);
  return {
    available: money.formatMoney(map.get(`${who.accountId}:USDT:available`) ?? money.ZERO),
    held: money.formatMoney(map.get(`${who.accountId}:USDT:held`) ?? money.ZERO),
  };
}
async function bookBalance(): Promise<string> {
  const [row] = await queryRows<{ balance: string }>(
    t.testDatabase.database.db,
    sql`select balance::text as balance from ledger_accounts where platform_code = 'contracts_book' and asset = 'USDT'`,
  );
  return row!.balance;
}
async function orderCount(who: Trader): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as count from contract_orders where account_id = ${who.accountId}::uuid`,
  );
  return row!.count;
}
function open(who: Trader, body: Record<string, unknown>, lang = 'EN') {
  return memberCall<ContractOrder>(t, 'POST', '/api/contracts/open', who.token, { idempotencyKey: randomUUID(), ...body }, lang);
}
function close(who: Trader, orderId: string, lots?: string) {
  return memberCall<ContractCloseResult>(t, 'POST', '/api/contracts/close', who.token, {
    orderId,
    idempotencyKey: randomUUID(),
    ...(lots ? { lots } : {}),
  });
}
async function orderRow(id: string) {
  const [row] = await queryRows<{ state: string; close_reason: string | null; pnl: string | null; close_price: string | null }>(
    t.testDatabase.database.db,
    sql`select state, close_reason, pnl::text as pnl, close_price::text as close_price from contract_orders where id = ${id}::uuid`,
  );
  return row!;
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  finance = await operatorToken(t, 'contracts-finance', 'finance');
  support = await operatorToken(t, 'contracts-support', 'support');
  traders = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts', 24);
  eurusd = await contractProduct(t, finance, 'EUR/USD', EURUSD_SETTINGS, 1);
  usdjpy = await contractProduct(t, finance, 'USD/JPY', USDJPY_SETTINGS, 2);
  xauusd = await contractProduct(t, finance, 'XAU/USD', XAUUSD_SETTINGS, 3);
  gbpusd = await contractProduct(t, finance, 'GBP/USD', { ...EURUSD_SETTINGS, minLots: '0.10', lotStep: '0.05' }, 4);
  await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  await setQuote(t, finance, usdjpy, '150.110', '150.123');
  await setQuote(t, finance, xauusd, '2350.20', '2350.45');
  await setQuote(t, finance, gbpusd, '1.26500', '1.26515');
}, 120_000);
afterEach(async () => {
  await t.services.contracts.watcher.idle();
  // Every open order holds exactly its margin, and the ledger's invariants hold, after every test.
  expect(await t.services.contracts.admin.marginProblems()).toEqual([]);
  expect((await t.services.ledger.verify()).problems).toEqual([]);
});
afterAll(async () => {
  await t.services.contracts.watcher.stop();
  await t.close();
});

describe('products', () => {
  it('lists the contract products with bid, ask, settings and a USDT conversion', async () => {
    const who = trader();
    const answer = await memberCall<ContractProducts>(t, 'GET', '/api/contracts/products', who.token);
    expect(answer.code).toBe(200);
    const eur = answer.data.items.find((item) => item.id === eurusd)!;
    expect(eur).toMatchObject({
      symbol: 'EUR/USD',
      bid: '1.08500',
      ask: '1.08512',
      spreadPoints: 12,
      digits: 5,
      contractSize: '100000',
      leverages: [10, 50, 100, 200],
      minLots: '0.01',
      canOpen: true,
      stale: false,
      conversion: { op: 'mul', rate: '1' },
    });
    const jpy = answer.data.items.find((item) => item.id === usdjpy)!;
    expect(jpy).toMatchObject({ bid: '150.110', ask: '150.123', quoteCurrency: 'JPY', conversion: { op: 'div' } });
  });

  it('streams live bid and ask: the current quotes first, then each new tick', async () => {
    const who = trader();
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openStream(baseUrl, who.token, undefined, '/api/contracts/quotes');
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toContain('text/event-stream');
      const seen = new Map<string, { bid: string; ask: string }>();
      while (seen.size < 4) {
        const frame = await stream.next();
        expect(frame.event).toBe('quote');
        const data = JSON.parse(frame.data) as { productId: string; bid: string; ask: string };
        seen.set(data.productId, { bid: data.bid, ask: data.ask });
      }
      expect(seen.get(eurusd)).toEqual({ bid: '1.08500', ask: '1.08512' });
      expect(seen.get(usdjpy)).toEqual({ bid: '150.110', ask: '150.123' });
      await setQuote(t, finance, eurusd, '1.08520', '1.08532');
      for (;;) {
        const data = JSON.parse((await stream.next()).data) as { productId: string; bid: string; ask: string };
        if (data.productId !== eurusd) continue;
        expect(data).toMatchObject({ bid: '1.08520', ask: '1.08532' });
        break;
      }
    } finally {
      stream.close();
      await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    }
  });

  it('marks the spread up by whole points', async () => {
    const saved = await consoleCall(t, 'PUT', `/api/admin/contracts/products/${gbpusd}`, finance, {
      ...EURUSD_SETTINGS,
      minLots: '0.10',
      lotStep: '0.05',
      spreadMarkupPoints: 3,
    });
    expect(saved.code).toBe(200);
    // The console's list carries the settings back as saved (leverages in order).
    const listed = await consoleCall<{
      items: { id: string; settings: { spreadMarkupPoints: number; leverages: number[] } | null }[];
    }>(t, 'GET', '/api/admin/contracts/products', finance);
    expect(listed.code).toBe(200);
    expect(listed.data.items.find((item) => item.id === gbpusd)?.settings).toMatchObject({
      spreadMarkupPoints: 3,
      leverages: [...EURUSD_SETTINGS.leverages].sort((a, b) => a - b),
    });
    const answer = await memberCall<ContractProducts>(t, 'GET', '/api/contracts/products', trader().token);
    // 1.26500 − 1 point, 1.26515 + 2 points.
    expect(answer.data.items.find((item) => item.id === gbpusd)).toMatchObject({
      bid: '1.26499',
      ask: '1.26517',
      spreadPoints: 18,
    });
    await consoleCall(t, 'PUT', `/api/admin/contracts/products/${gbpusd}`, finance, {
      ...EURUSD_SETTINGS,
      minLots: '0.10',
      lotStep: '0.05',
    });
  });
});

describe('open and close', () => {
  it('holds the margin, pays a profit from the book on close, and shows both lists', async () => {
    const who = trader();
    const bookBefore = await bookBalance();
    const opened = await open(who, { productId: eurusd, side: 'buy', lots: '1', leverage: 100 });
    expect(opened.code).toBe(200);
    // 1 × 100 000 × 1.08512 ÷ 100 = 1 085.12; spread 0.00012 × 100 000 = 12.
    expect(opened.data).toMatchObject({
      state: 'open',
      openPrice: '1.08512',
      margin: '1085.1200',
      spreadCost: '12.0000',
      lots: '1.00',
    });
    expect(await balances(who)).toEqual({ available: '8914.8800', held: '1085.1200' });

    await setQuote(t, finance, eurusd, '1.08700', '1.08712');
    const pending = await memberCall<ContractPendingList>(t, 'GET', '/api/contracts/pending_list', who.token);
    // Buy closes at bid: (1.08700 − 1.08512) × 100 000 = 188.
    expect(pending.data.items).toEqual([expect.objectContaining({ id: opened.data.id, closePrice: '1.08700', pnl: '188.0000' })]);
    const info = await memberCall<ContractPendingInfo>(t, 'GET', '/api/contracts/pending_info', who.token);
    expect(info.data).toMatchObject({
      freeMargin: '8914.8800',
      usedMargin: '1085.1200',
      floatingPnl: '188.0000',
      equity: '1273.1200',
      // 1 273.12 ÷ 1 085.12 × 100 = 117.325… → 117.32.
      marginLevel: '117.32',
      openOrders: 1,
    });

    const closed = await close(who, opened.data.id);
    expect(closed.code).toBe(200);
    expect(closed.data.closed).toMatchObject({ state: 'closed', closePrice: '1.08700', pnl: '188.0000', closeReason: 'member' });
    expect(closed.data.remaining).toBeNull();
    expect(await balances(who)).toEqual({ available: '10188.0000', held: '0.0000' });
    expect(money.subtract(money.parseMoney(await bookBalance()), money.parseMoney(bookBefore))).toBe(money.parseMoney('-188'));
    const list = await memberCall<{ items: ContractOrder[]; total: number }>(t, 'GET', '/api/contracts/closed_list', who.token);
    expect(list.data.total).toBe(1);
    expect(list.data.items[0]).toMatchObject({ orderNo: opened.data.orderNo, pnl: '188.0000', closeReason: 'member' });
    const events = await queryRows<{ kind: string; state: string }>(
      t.testDatabase.database.db,
      sql`select kind, payload->>'state' as state from member_events where member_id = ${who.memberId}::uuid order by id`,
    );
    expect(events).toEqual([
      { kind: 'contracts.order', state: 'open' },
      { kind: 'contracts.order', state: 'closed' },
    ]);
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  });

  it('settles a sell on a JPY pair in USDT at the close price, the loss going to the book', async () => {
    const who = trader();
    const opened = await open(who, { productId: usdjpy, side: 'sell', lots: '0.5', leverage: 50 });
    // A USD-based pair: 0.5 × 100 000 ÷ 50 = 1 000 USDT whatever the price; spread 650 JPY ÷ 150.110 = 4.33015… → 4.3302.
    expect(opened.data).toMatchObject({ openPrice: '150.110', margin: '1000.0000', spreadCost: '4.3302' });
    await setQuote(t, finance, usdjpy, '150.610', '150.623');
    const closed = await close(who, opened.data.id);
    // (150.110 − 150.623) × 50 000 = −25 650 JPY ÷ 150.623 = −170.2928 (rounded away from the member).
    expect(closed.data.closed).toMatchObject({ closePrice: '150.623', pnl: '-170.2928' });
    expect(await balances(who)).toEqual({ available: '9829.7072', held: '0.0000' });
    await setQuote(t, finance, usdjpy, '150.110', '150.123');
  });

  it('closes part of a gold order: a new closed row with its share of the margin, the rest stays open', async () => {
    const who = trader();
    const opened = await open(who, { productId: xauusd, side: 'buy', lots: '0.10', leverage: 20 });
    // 0.1 × 100 × 2 350.45 ÷ 20 = 1 175.225.
    expect(opened.data).toMatchObject({ openPrice: '2350.45', margin: '1175.2250' });
    await setQuote(t, finance, xauusd, '2360.20', '2360.45');
    const partial = await close(who, opened.data.id, '0.04');
    expect(partial.code).toBe(200);
    // 0.04 × 100 × (2 360.20 − 2 350.45) = 39; margin share 1 175.225 × 0.04 ÷ 0.10 = 470.09.
    expect(partial.data.closed).toMatchObject({
      lots: '0.04',
      margin: '470.0900',
      pnl: '39.0000',
      parentOrderNo: opened.data.orderNo,
    });
    expect(partial.data.remaining).toMatchObject({ id: opened.data.id, lots: '0.06', margin: '705.1350', state: 'open' });
    expect(await balances(who)).toEqual({ available: '9333.8650', held: '705.1350' });
    const tooMany = await close(who, opened.data.id, '0.07');
    expect(tooMany).toMatchObject({ code: 400, message: 'You can close at most 0.06 lots of this order' });
    const rest = await close(who, opened.data.id);
    expect(rest.data.closed).toMatchObject({ lots: '0.06', pnl: '58.5000' });
    expect(await balances(who)).toEqual({ available: '10097.5000', held: '0.0000' });
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
  });

  it('answers a retried open with the first order and refuses the same key with other details', async () => {
    const who = trader();
    const key = randomUUID();
    const first = await open(who, { productId: eurusd, side: 'sell', lots: '0.10', leverage: 100, idempotencyKey: key });
    const again = await open(who, { productId: eurusd, side: 'sell', lots: '0.10', leverage: 100, idempotencyKey: key });
    expect(again.data.id).toBe(first.data.id);
    const other = await open(who, { productId: eurusd, side: 'sell', lots: '0.20', leverage: 100, idempotencyKey: key });
    expect(other).toMatchObject({
      code: 409,
      message: 'This request was already sent with different details; please start again',
    });
    expect(await orderCount(who)).toBe(1);
    await close(who, first.data.id);
  });
});

describe('take-profit and stop-loss', () => {
  it('fire exactly once, at the first tick that reaches them, under a fast burst of ticks', async () => {
    const buyer = trader();
    const seller = trader();
    const buy = await open(buyer, {
      productId: eurusd,
      side: 'buy',
      lots: '0.10',
      leverage: 100,
      takeProfit: '1.08600',
      stopLoss: '1.08300',
    });
    const sell = await open(seller, {
      productId: eurusd,
      side: 'sell',
      lots: '0.10',
      leverage: 100,
      takeProfit: '1.08300',
      stopLoss: '1.08610',
    });
    expect(buy.code).toBe(200);
    expect(sell.code).toBe(200);
    expect([buy.data.margin, sell.data.margin]).toEqual(['108.5120', '108.5000']);
    const balances = await trackBalances(t, { buyer: buyer.accountId, seller: seller.accountId });
    // 60 ticks one after another without waiting for the watcher: bids climb a point a tick from 1.08550.
    const at = clock.now();
    const price = (points: number) => `1.${String(points).padStart(5, '0')}`;
    for (let index = 0; index < 60; index += 1) {
      await t.services.contracts.watcher.ingestTicks(
        [{ productId: eurusd, bid: price(8550 + index), ask: price(8562 + index), observedAt: at }],
        'replay',
      );
    }
    await t.services.contracts.watcher.idle();
    // The buy's take-profit at the first bid ≥ 1.08600: (1.08600 − 1.08512) × 10 000 = 8.8.
    expect(await orderRow(buy.data.id)).toEqual({
      state: 'closed',
      close_reason: 'take_profit',
      pnl: '8.8000',
      close_price: '1.08600000',
    });
    // The sell's stop-loss at the first ask ≥ 1.08610: (1.08500 − 1.08610) × 10 000 = −11.
    expect(await orderRow(sell.data.id)).toEqual({
      state: 'closed',
      close_reason: 'stop_loss',
      pnl: '-11.0000',
      close_price: '1.08610000',
    });
    // The buyer's margin back and the profit from the book; the seller's margin back less the loss, to the book.
    await balances.expectChanges({
      'buyer:USDT:available': '117.3120',
      'buyer:USDT:held': '-108.5120',
      'seller:USDT:available': '97.5000',
      'seller:USDT:held': '-108.5000',
      'platform:contracts_book:USDT': '2.2000',
    });
    // Walking again (another instance, a repeated job) changes nothing.
    await t.services.contracts.watcher.watchAll();
    await balances.expectChanges({});
    const [entries] = await queryRows<{ count: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as count from journal_entries where reference_id in (${buy.data.id}, ${sell.data.id}) and kind <> 'hold'`,
    );
    // Buy: release + profit; sell: one capture split.
    expect(entries!.count).toBe(3);
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  });

  it('fire on the platform’s quote (the raw price to the product’s digits, marked up), to the point, on two products in one walk', async () => {
    // Three points of mark-up: bid − 1 point, ask + 2 (after the raw bid is floored and the raw ask ceiled to 5 places).
    const marked = { ...EURUSD_SETTINGS, minLots: '0.10', lotStep: '0.05', spreadMarkupPoints: 3 };
    expect((await consoleCall(t, 'PUT', `/api/admin/contracts/products/${gbpusd}`, finance, marked)).code).toBe(200);
    try {
      const who = trader();
      const buy = await open(who, { productId: gbpusd, side: 'buy', lots: '0.10', leverage: 100, takeProfit: '1.26529' });
      const sell = await open(who, { productId: gbpusd, side: 'sell', lots: '0.10', leverage: 100, stopLoss: '1.26544' });
      const euro = await open(who, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 100, takeProfit: '1.08530' });
      expect([buy.code, sell.code, euro.code]).toEqual([200, 200, 200]);
      // A point short of each: 1.265299 → 1.26529 − 1 point; 1.265409 → 1.26541 + 2 points; 1.08529.
      await t.services.contracts.watcher.ingestTicks(
        [
          { productId: gbpusd, bid: '1.265299', ask: '1.265409' },
          { productId: eurusd, bid: '1.08529', ask: '1.08541' },
        ],
        'replay',
      );
      await t.services.contracts.watcher.idle();
      for (const order of [buy, sell, euro]) expect((await orderRow(order.data.id)).state).toBe('open');
      // Each reached exactly: 1.265300 → 1.26529; 1.265411 → 1.26542 + 2 points = 1.26544; 1.08530.
      await t.services.contracts.watcher.ingestTicks(
        [
          { productId: gbpusd, bid: '1.265300', ask: '1.265411' },
          { productId: eurusd, bid: '1.08530', ask: '1.08542' },
        ],
        'replay',
      );
      await t.services.contracts.watcher.idle();
      expect(await orderRow(buy.data.id)).toMatchObject({
        state: 'closed',
        close_reason: 'take_profit',
        close_price: '1.26529000',
      });
      expect(await orderRow(sell.data.id)).toMatchObject({
        state: 'closed',
        close_reason: 'stop_loss',
        close_price: '1.26544000',
      });
      expect(await orderRow(euro.data.id)).toMatchObject({
        state: 'closed',
        close_reason: 'take_profit',
        close_price: '1.08530000',
      });
    } finally {
      await consoleCall(t, 'PUT', `/api/admin/contracts/products/${gbpusd}`, finance, { ...marked, spreadMarkupPoints: 0 });
      await setQuote(t, finance, gbpusd, '1.26500', '1.26515');
      await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    }
  });

  it('ticks stored while no instance walked them are walked by the next one, each order closed once', async () => {
    const who = trader();
    const buy = await open(who, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 100, takeProfit: '1.08530' });
    // Ticks written straight to the table (the instance that took them stopped before walking them).
    const repository = new ContractTicksRepository(t.testDatabase.database.db);
    await t.testDatabase.database.db.transaction(async (tx) => {
      await repository.insertTicks(
        tx,
        [
          { productId: eurusd, bid: '1.08531', ask: '1.08543', observedAt: clock.now() },
          { productId: eurusd, bid: '1.08400', ask: '1.08412', observedAt: clock.now() },
        ],
        'replay',
      );
    });
    expect((await orderRow(buy.data.id)).state).toBe('open');
    const restarted = new ContractsService(
      t.testDatabase.database.db,
      contractsRepositories(t.testDatabase.database.db),
      t.services.ledger,
      t.services.settings,
      t.services.audit,
      t.services.memberEvents,
      { timeZone: 'Asia/Shanghai', clock, logger: createLogger('silent') },
    );
    await Promise.all([restarted.watcher.watchAll(), t.services.contracts.watcher.watchAll()]);
    await restarted.watcher.stop();
    // Closed at the tick that reached it, although the price has since fallen back.
    expect(await orderRow(buy.data.id)).toEqual({
      state: 'closed',
      close_reason: 'take_profit',
      pnl: '1.9000',
      close_price: '1.08531000',
    });
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  });

  it('a take-profit set on an open order acts only on ticks stored after it was set', async () => {
    const who = trader();
    const balances = await trackBalances(t, { member: who.accountId });
    const buy = await open(who, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 100 });
    expect(buy.data.margin).toBe('108.5120');
    // Two ticks stored but not walked yet: one up to 1.08600, then back to 1.08400.
    const repository = new ContractTicksRepository(t.testDatabase.database.db);
    await t.testDatabase.database.db.transaction(async (tx) => {
      await repository.insertTicks(
        tx,
        [
          { productId: eurusd, bid: '1.08600', ask: '1.08612', observedAt: clock.now() },
          { productId: eurusd, bid: '1.08400', ask: '1.08412', observedAt: clock.now() },
        ],
        'replay',
      );
    });
    const set = await memberCall<ContractOrder>(t, 'POST', '/api/contracts/set_targets', who.token, {
      orderId: buy.data.id,
      takeProfit: '1.08550',
      stopLoss: null,
    });
    expect(set.code).toBe(200);
    await t.services.contracts.watcher.watchAll();
    await t.services.contracts.watcher.idle();
    // The 1.08600 tick came before the take-profit existed: it does not close the order.
    expect((await orderRow(buy.data.id)).state).toBe('open');
    await setQuote(t, finance, eurusd, '1.08560', '1.08572');
    expect(await orderRow(buy.data.id)).toEqual({
      state: 'closed',
      close_reason: 'take_profit',
      // A manual tick fills a target at the target (decision 050): (1.08550 − 1.08512) × 10 000 = 3.80.
      pnl: '3.8000',
      close_price: '1.08550000',
    });
    await balances.expectChanges({ 'member:USDT:available': '3.8000', 'platform:contracts_book:USDT': '-3.8000' });
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  });

  it('a close whose settlement failed is settled by the next sweep, once: the order is closed at its tick meanwhile', async () => {
    const who = trader();
    const before = await balances(who);
    const buy = await open(who, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 100, takeProfit: '1.08530' });
    await t.services.contracts.watcher.idle();
    // An instance whose ledger fails every settlement (a crash between the close and the settlement).
    const repository = new ContractTicksRepository(t.testDatabase.database.db);
    const failingLedger = Object.create(t.services.ledger) as typeof t.services.ledger;
    failingLedger.settleHolds = () => Promise.reject(new Error('the ledger is unreachable'));
    const failing = new ContractsService(
      t.testDatabase.database.db,
      contractsRepositories(t.testDatabase.database.db),
      failingLedger,
      t.services.settings,
      t.services.audit,
      t.services.memberEvents,
      { timeZone: 'Asia/Shanghai', clock, logger: createLogger('silent') },
    );
    await t.testDatabase.database.db.transaction((tx) =>
      repository.insertTicks(tx, [{ productId: eurusd, bid: '1.08531', ask: '1.08543', observedAt: clock.now() }], 'replay'),
    );
    // Its walk closes the order; its settlements fail (the sweep's own, or the one the walk started).
    await failing.watcher.watchAll().catch((error: unknown) => expect(String(error)).toMatch('the ledger is unreachable'));
    await failing.watcher.stop();
    const [pending] = await queryRows<{ state: string; awaiting_settlement: boolean }>(
      t.testDatabase.database.db,
      sql`select o.state, exists (select 1 from contract_settlements_due d where d.order_id = o.id) as awaiting_settlement
          from contract_orders o where o.id = ${buy.data.id}::uuid`,
    );
    expect(pending).toEqual({ state: 'closed', awaiting_settlement: true });
    // The margin is still held, as the checker expects of a close awaiting its settlement.
    expect((await balances(who)).held).toBe(buy.data.margin);
    expect(await t.services.contracts.admin.marginProblems()).toEqual([]);

    await t.services.contracts.watcher.watchAll();
    await t.services.contracts.watcher.watchAll();
    expect(await orderRow(buy.data.id)).toEqual({
      state: 'closed',
      close_reason: 'take_profit',
      pnl: '1.9000',
      close_price: '1.08531000',
    });
    expect(await balances(who)).toEqual({
      available: money.formatMoney(money.add(money.parseMoney(before.available), money.parseMoney('1.9000'))),
      held: '0.0000',
    });
    const [told] = await queryRows<{ count: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as count from member_events where member_id = ${who.memberId}::uuid
          and payload->>'orderId' = ${buy.data.id} and payload->>'state' = 'closed'`,
    );
    expect(told!.count).toBe(1);
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  });

  it('refuses a take-profit or stop-loss on the wrong side, and edits them on an open order', async () => {
    const who = trader();
    const wrong = await open(who, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 100, takeProfit: '1.08400' });
    expect(wrong).toMatchObject({
      code: 400,
      message: 'Take-profit must be above the current price for a buy and below it for a sell',
    });
    const opened = await open(who, { productId: eurusd, side: 'sell', lots: '0.10', leverage: 100 });
    const edited = await memberCall<ContractOrder>(t, 'POST', '/api/contracts/set_targets', who.token, {
      orderId: opened.data.id,
      takeProfit: '1.08000',
      stopLoss: '1.09000',
    });
    expect(edited.data).toMatchObject({ takeProfit: '1.08000', stopLoss: '1.09000' });
    const badStop = await memberCall(t, 'POST', '/api/contracts/set_targets', who.token, {
      orderId: opened.data.id,
      takeProfit: null,
      stopLoss: '1.08000',
    });
    expect(badStop).toMatchObject({
      code: 400,
      message: 'Stop-loss must be below the current price for a buy and above it for a sell',
    });
    const digits = await memberCall(t, 'POST', '/api/contracts/set_targets', who.token, {
      orderId: opened.data.id,
      takeProfit: '1.080001',
      stopLoss: null,
    });
    expect(digits).toMatchObject({ code: 400, message: 'EUR/USD prices have at most 5 decimal places' });
    await close(who, opened.data.id);
  });
});

describe('swap', () => {
  it('charges one night per rollover at the mid price, and settles it with the P&L', async () => {
    const who = trader();
    const gbp = { ...EURUSD_SETTINGS, minLots: '0.10', lotStep: '0.05' };
    await consoleCall(t, 'PUT', `/api/admin/contracts/products/${gbpusd}`, finance, { ...gbp, swapEnabled: true });
    const opened = await open(who, { productId: gbpusd, side: 'buy', lots: '0.10', leverage: 100 });
    expect(opened.data.openPrice).toBe('1.26515');
    nowMs += 86_400_000;
    try {
      // 0.1 × 100 000 × mid 1.26508 × −0.01 % = −1.26508 → −1.2651; a second run the same night charges nothing.
      await t.services.contracts.swap.chargeSwap();
      await t.services.contracts.swap.chargeSwap();
    } finally {
      nowMs -= 86_400_000;
    }
    const info = await memberCall<ContractOrder>(t, 'GET', `/api/contracts/order_info?id=${opened.data.id}`, who.token);
    expect(info.data.swap).toBe('-1.2651');
    await setQuote(t, finance, gbpusd, '1.26500', '1.26515');
    const closed = await close(who, opened.data.id);
    // (1.26500 − 1.26515) × 10 000 = −1.5, with the swap −2.7651.
    expect(closed.data.closed).toMatchObject({ pnl: '-2.7651', swap: '-1.2651' });
    expect(await balances(who)).toEqual({ available: '9997.2349', held: '0.0000' });
    await consoleCall(t, 'PUT', `/api/admin/contracts/products/${gbpusd}`, finance, gbp);
  });
});

describe('stop-out', () => {
  it('closes the biggest loser first, and only until the margin level is back above the stop-out level', async () => {
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-stopout', 1, '2000');
    const a = await open(who!, { productId: eurusd, side: 'buy', lots: '0.50', leverage: 100 });
    const b = await open(who!, { productId: eurusd, side: 'buy', lots: '0.30', leverage: 100 });
    const c = await open(who!, { productId: eurusd, side: 'sell', lots: '0.20', leverage: 100 });
    expect([a.data.margin, b.data.margin, c.data.margin]).toEqual(['542.5600', '325.5360', '217.0000']);
    // Bid 1.07500: A −506, B −303.6, C +197.6; equity 1 085.096 − 612 = 473.096 → 43.59 % < 50 %.
    await setQuote(t, finance, eurusd, '1.07500', '1.07512');
    await t.services.contracts.stopOut.stopOutSweep();
    await t.services.contracts.watcher.idle();
    expect(await orderRow(a.data.id)).toMatchObject({ state: 'closed', close_reason: 'stop_out', pnl: '-506.0000' });
    // Without A: 542.536 − 303.6 + 197.6 = 436.536 → 80.46 %: B and C stay.
    expect((await orderRow(b.data.id)).state).toBe('open');
    expect((await orderRow(c.data.id)).state).toBe('open');
    const info = await memberCall<ContractPendingInfo>(t, 'GET', '/api/contracts/pending_info', who!.token);
    expect(info.data.marginLevel).toBe('80.46');
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await close(who!, b.data.id);
    await close(who!, c.data.id);
  });

  it('asks the database for the accounts that may be below, and never leaves one out (USD, JPY and gold quotes, both sides)', async () => {
    const members = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-near', 5, '2000');
    const orders: { who: Trader; id: string }[] = [];
    const place = async (who: Trader, body: Record<string, unknown>) => {
      const opened = await open(who, body);
      expect(opened.code).toBe(200);
      orders.push({ who, id: opened.data.id });
    };
    await place(members[0]!, { productId: eurusd, side: 'buy', lots: '0.50', leverage: 100 });
    await place(members[1]!, { productId: usdjpy, side: 'sell', lots: '0.40', leverage: 100 });
    await place(members[2]!, { productId: xauusd, side: 'buy', lots: '0.30', leverage: 50 });
    await place(members[3]!, { productId: eurusd, side: 'sell', lots: '0.30', leverage: 200 });
    await place(members[3]!, { productId: usdjpy, side: 'buy', lots: '0.20', leverage: 50 });
    await place(members[4]!, { productId: xauusd, side: 'sell', lots: '0.10', leverage: 20 });
    await place(members[4]!, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 50 });
    // Moves that leave every level above the stop-out level (50 %), at different distances.
    await setQuote(t, finance, eurusd, '1.08200', '1.08212');
    await setQuote(t, finance, usdjpy, '150.500', '150.513');
    await setQuote(t, finance, xauusd, '2340.00', '2340.25');
    const levels = await Promise.all(
      members.map(async (who) => {
        const info = await memberCall<ContractPendingInfo>(t, 'GET', '/api/contracts/pending_info', who.token);
        return { accountId: who.accountId, level: Number(info.data.marginLevel) };
      }),
    );
    expect(new Set(levels.map((item) => item.level)).size).toBe(levels.length);
    // Close prices as the sweep builds them: buys at bid, sells at ask; USD/JPY converts by its own price.
    const closes = [
      { productId: eurusd, side: 'buy' as const, closePrice: '1.08200', conversion: { op: 'mul' as const, rate: '1' } },
      { productId: eurusd, side: 'sell' as const, closePrice: '1.08212', conversion: { op: 'mul' as const, rate: '1' } },
      { productId: usdjpy, side: 'buy' as const, closePrice: '150.500', conversion: { op: 'div' as const, rate: '150.500' } },
      { productId: usdjpy, side: 'sell' as const, closePrice: '150.513', conversion: { op: 'div' as const, rate: '150.513' } },
      { productId: xauusd, side: 'buy' as const, closePrice: '2340.00', conversion: { op: 'mul' as const, rate: '1' } },
      { productId: xauusd, side: 'sell' as const, closePrice: '2340.25', conversion: { op: 'mul' as const, rate: '1' } },
    ];
    const repository = new ContractOrdersRepository(t.testDatabase.database.db);
    const thresholds = levels.flatMap(({ level }) => [level - 0.01, level, level + 0.01, level + 0.5]);
    for (const threshold of thresholds) {
      const near = new Set(await repository.accountsNearStopOut(closes, threshold.toFixed(2)));
      for (const { accountId, level } of levels) {
        // Every account whose exact level is below is asked for; none more than a point above it.
        if (level < threshold) expect(near.has(accountId), `${level} < ${threshold}`).toBe(true);
        if (near.has(accountId)) expect(level).toBeLessThan(threshold + 1);
      }
    }
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, usdjpy, '150.110', '150.123');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
    for (const { who, id } of orders) expect((await close(who, id)).code).toBe(200);
  });

  it('counts accrued swap: an account whose swap takes it below the level is found and stopped out', async () => {
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-stopout-swap', 1, '2000');
    const opened = await open(who!, { productId: eurusd, side: 'buy', lots: '0.50', leverage: 100 });
    expect(opened.data.margin).toBe('542.5600');
    // Nights of swap accrued on the order (as `chargeSwap` adds them): −200.
    await t.testDatabase.database.db.execute(sql`update contract_orders set swap = -200 where id = ${opened.data.id}::uuid`);
    const balances = await trackBalances(t, { member: who!.accountId });
    // Bid 1.08300: P&L −106. Without the swap the level would be 436.56 ÷ 542.56 = 80.46 %; with it 236.56 ÷ 542.56 = 43.60 %.
    await t.services.settings.set(
      'contracts',
      { ...(await t.services.contracts.admin.adminSettings()), stopOutLevelPct: '0' },
      null,
    );
    await setQuote(t, finance, eurusd, '1.08300', '1.08312');
    const info = await memberCall<ContractPendingInfo>(t, 'GET', '/api/contracts/pending_info', who!.token);
    expect(info.data.marginLevel).toBe('43.60');
    const closes = [
      { productId: eurusd, side: 'buy' as const, closePrice: '1.08300', conversion: { op: 'mul' as const, rate: '1' } },
    ];
    const repository = new ContractOrdersRepository(t.testDatabase.database.db);
    expect(await repository.accountsNearStopOut(closes, '43.61')).toContain(who!.accountId);
    expect(await repository.accountsNearStopOut(closes, '50.00')).toContain(who!.accountId);
    expect(await repository.accountsNearStopOut(closes, '43.00')).not.toContain(who!.accountId);
    await t.services.settings.set(
      'contracts',
      { ...(await t.services.contracts.admin.adminSettings()), stopOutLevelPct: '50' },
      null,
    );
    await t.services.contracts.stopOut.stopOutSweep();
    await t.services.contracts.watcher.idle();
    expect(await orderRow(opened.data.id)).toMatchObject({ state: 'closed', close_reason: 'stop_out', pnl: '-306.0000' });
    await balances.expectChanges({
      'member:USDT:available': '236.5600',
      'member:USDT:held': '-542.5600',
      'platform:contracts_book:USDT': '306.0000',
    });
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  });

  it('a gap beyond the margin is paid from the account’s available USDT (cross margin, decision 049)', async () => {
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-gap', 1, '1000');
    const balances = await trackBalances(t, { member: who!.accountId });
    const opened = await open(who!, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 200 });
    // 0.1 × 100 000 × 1.08512 ÷ 200 = 54.256.
    expect(opened.data.margin).toBe('54.2560');
    await balances.expectChanges({ 'member:USDT:available': '-54.2560', 'member:USDT:held': '54.2560' });
    // A gap to 1.03000: a loss of 551.2 USDT, ten times the margin; the account has 945.744 more.
    await setQuote(t, finance, eurusd, '1.03000', '1.03012');
    await t.services.contracts.stopOut.stopOutSweep();
    await t.services.contracts.watcher.idle();
    expect(await orderRow(opened.data.id)).toMatchObject({ state: 'closed', close_reason: 'stop_out', pnl: '-551.2000' });
    await balances.expectChanges({
      'member:USDT:available': '-496.9440',
      'member:USDT:held': '-54.2560',
      'platform:contracts_book:USDT': '551.2000',
    });
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
  });
});

describe('cross margin: only the account is floored at zero (decision 049)', () => {
  it('a buy and a sell of the same product cost the member the spread, whichever closes first', async () => {
    for (const loserFirst of [true, false]) {
      const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, `contracts-hedge-${loserFirst}`, 1);
      const balances = await trackBalances(t, { member: who!.accountId });
      const buy = await open(who!, { productId: eurusd, side: 'buy', lots: '1', leverage: 100 });
      const sell = await open(who!, { productId: eurusd, side: 'sell', lots: '1', leverage: 100 });
      // Buy at ask 1.08512 (margin 1 085.12), sell at bid 1.08500 (margin 1 085.00).
      expect([buy.data.margin, sell.data.margin]).toEqual(['1085.1200', '1085.0000']);
      await balances.expectChanges({ 'member:USDT:available': '-2170.1200', 'member:USDT:held': '2170.1200' });
      // A 4 % fall: the buy loses 4 352 (four times its margin), the sell wins 4 328; the level stays ≈ 98.9 %.
      await setQuote(t, finance, eurusd, '1.04160', '1.04172');
      await t.services.contracts.stopOut.stopOutSweep();
      expect((await orderRow(buy.data.id)).state).toBe('open');
      const closeBuy = async () => {
        const closed = await close(who!, buy.data.id);
        expect(closed.data.closed).toMatchObject({ state: 'closed', pnl: '-4352.0000' });
        // The margin goes to the book and the rest of the loss comes out of the available balance.
        await balances.expectChanges({
          'member:USDT:available': '-3266.8800',
          'member:USDT:held': '-1085.1200',
          'platform:contracts_book:USDT': '4352.0000',
        });
      };
      const closeSell = async () => {
        const closed = await close(who!, sell.data.id);
        expect(closed.data.closed).toMatchObject({ state: 'closed', pnl: '4328.0000' });
        await balances.expectChanges({
          'member:USDT:available': '5413.0000',
          'member:USDT:held': '-1085.0000',
          'platform:contracts_book:USDT': '-4328.0000',
        });
      };
      if (loserFirst) {
        await closeBuy();
        await closeSell();
      } else {
        await closeSell();
        await closeBuy();
      }
      // Net: the two spreads (12 + 12), nothing more, nothing less.
      expect(await balances.balance('member:USDT:available')).toBe('9976.0000');
      expect(await balances.balance('member:USDT:held')).toBe('0.0000');
      await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    }
  });

  it('a gap beyond the whole account closes its other orders and nets them; only what is still missing is the book’s', async () => {
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-wipe', 1, '1000');
    const balances = await trackBalances(t, { member: who!.accountId });
    const eur = await open(who!, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 200 });
    const gold = await open(who!, { productId: xauusd, side: 'sell', lots: '0.01', leverage: 50 });
    // 0.1 × 100 000 × 1.08512 ÷ 200 = 54.256; 0.01 × 100 × 2 350.20 ÷ 50 = 47.004.
    expect([eur.data.margin, gold.data.margin]).toEqual(['54.2560', '47.0040']);
    await balances.expectChanges({ 'member:USDT:available': '-101.2600', 'member:USDT:held': '101.2600' });
    // Gold falls (the sell wins (2 350.20 − 2 340.25) × 1 = 9.95), then EUR/USD gaps to 0.98000: a loss of 1 051.2.
    await setQuote(t, finance, xauusd, '2340.00', '2340.25');
    await setQuote(t, finance, eurusd, '0.98000', '0.98012');
    await t.services.contracts.stopOut.stopOutSweep();
    await t.services.contracts.watcher.idle();
    // The account had 898.74 available + 9.95 + 47.004 from the gold order: 955.694 of the 996.944 beyond
    // the margin is paid, 41.25 is written off. The member ends at zero, never below.
    expect(await orderRow(gold.data.id)).toMatchObject({ state: 'closed', close_reason: 'stop_out', pnl: '9.9500' });
    expect(await orderRow(eur.data.id)).toMatchObject({ state: 'closed', close_reason: 'stop_out', pnl: '-1009.9500' });
    await balances.expectChanges({
      'member:USDT:available': '-898.7400',
      'member:USDT:held': '-101.2600',
      'platform:contracts_book:USDT': '1000.0000',
    });
    expect(await balances.balance('member:USDT:available')).toBe('0.0000');
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
  });

  it('a stop-loss the watcher fills beyond the margin settles from the balance too, and beyond the account closes its other orders', async () => {
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-sl-gap', 1, '300');
    const balances = await trackBalances(t, { member: who!.accountId });
    const eur = await open(who!, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 200, stopLoss: '1.08000' });
    const gold = await open(who!, { productId: xauusd, side: 'sell', lots: '0.01', leverage: 50 });
    expect([eur.data.margin, gold.data.margin]).toEqual(['54.2560', '47.0040']);
    await balances.expectChanges({ 'member:USDT:available': '-101.2600', 'member:USDT:held': '101.2600' });
    await setQuote(t, finance, xauusd, '2340.00', '2340.25');
    // A market gap (a replay tick: a manual one would fill the stop at its target, decision 050): the
    // stop-loss fills at the gap's tick, 1.05000: (1.05000 − 1.08512) × 10 000 = −351.2, beyond the
    // margin (54.256) and the 198.74 available: the gold sell closes at market (+9.95, margin 47.004 back),
    // the account pays 54.256 + 255.694 = 309.95 and the remaining 41.25 is written off.
    await t.services.contracts.watcher.ingestTicks([{ productId: eurusd, bid: '1.05000', ask: '1.05012' }], 'replay');
    await t.services.contracts.watcher.watchAll();
    await t.services.contracts.watcher.idle();
    expect(await orderRow(eur.data.id)).toMatchObject({ state: 'closed', close_reason: 'stop_loss', pnl: '-309.9500' });
    expect(await orderRow(gold.data.id)).toMatchObject({ state: 'closed', close_reason: 'stop_out', pnl: '9.9500' });
    await balances.expectChanges({
      'member:USDT:available': '-198.7400',
      'member:USDT:held': '-101.2600',
      'platform:contracts_book:USDT': '300.0000',
    });
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
  });
});

describe('bad input moves nothing', () => {
  it('refuses off-step lots, lots out of range, a leverage not offered and too little free margin', async () => {
    const who = trader();
    const before = await balances(who);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ productId: gbpusd, lots: '0.12', leverage: 100 }, 400, 'Lots must go up in steps of 0.05 from 0.10'],
      [{ productId: gbpusd, lots: '0.05', leverage: 100 }, 400, 'Lots must be between 0.10 and 50.00'],
      [{ productId: eurusd, lots: '60', leverage: 100 }, 400, 'Lots must be between 0.01 and 50.00'],
      [{ productId: eurusd, lots: '0.10', leverage: 300 }, 400, 'This leverage is not offered; choose one of 10, 50, 100, 200'],
      [
        { productId: eurusd, lots: '50', leverage: 10 },
        409,
        'Not enough free margin: this order needs 542560.0000 USDT, you have 10000.0000 USDT',
      ],
    ];
    for (const [body, code, message] of cases) {
      expect(await open(who, { side: 'buy', ...body })).toMatchObject({ code, message });
    }
    const threePlaces = await open(who, { productId: eurusd, side: 'buy', lots: '0.015', leverage: 100 });
    expect(threePlaces.code).toBe(400);
    expect(await balances(who)).toEqual(before);
    expect(await orderCount(who)).toBe(0);
  });

  it('refuses outside the trading hours and on a stale price, for opening and closing', async () => {
    const who = trader();
    const opened = await open(who, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 100 });
    const before = await balances(who);
    const today = new Date(nowMs).getUTCDay();
    await consoleCall(t, 'PUT', `/api/admin/contracts/products/${gbpusd}`, finance, {
      ...EURUSD_SETTINGS,
      minLots: '0.10',
      lotStep: '0.05',
      sessions: [{ day: (today + 1) % 7, open: '00:00', close: '24:00' }],
    });
    expect(await open(who, { productId: gbpusd, side: 'buy', lots: '0.10', leverage: 100 })).toMatchObject({
      code: 409,
      message: 'The market for GBP/USD is closed now; try again during its trading hours',
    });
    await consoleCall(t, 'PUT', `/api/admin/contracts/products/${gbpusd}`, finance, {
      ...EURUSD_SETTINGS,
      minLots: '0.10',
      lotStep: '0.05',
    });
    nowMs += 200_000;
    try {
      expect(await open(who, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 100 })).toMatchObject({
        code: 409,
        message: 'The price of EUR/USD is out of date; trading waits for a fresh quote',
      });
      expect(await close(who, opened.data.id)).toMatchObject({
        code: 409,
        message: 'The price of EUR/USD is out of date; trading waits for a fresh quote',
      });
      const products = await memberCall<ContractProducts>(t, 'GET', '/api/contracts/products', who.token);
      expect(products.data.items.find((item) => item.id === eurusd)).toMatchObject({ stale: true, canOpen: false });
    } finally {
      nowMs -= 200_000;
    }
    expect(await balances(who)).toEqual(before);
    expect(await orderCount(who)).toBe(1);
    await close(who, opened.data.id);
  });

  it('answers in the member’s language', async () => {
    const who = trader();
    const refused = await open(who, { productId: eurusd, side: 'buy', lots: '60', leverage: 100 }, 'CN');
    expect(refused).toMatchObject({ code: 400, message: '手数须在 0.01 到 50.00 之间' });
  });
});

describe('members see only their own orders', () => {
  it('member A can neither see, edit nor close member B’s order', async () => {
    const a = trader();
    const b = trader();
    const mine = await open(b, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 100 });
    expect(await memberCall(t, 'GET', `/api/contracts/order_info?id=${mine.data.id}`, a.token)).toMatchObject({ code: 404 });
    expect(await close(a, mine.data.id)).toMatchObject({ code: 404 });
    expect(
      await memberCall(t, 'POST', '/api/contracts/set_targets', a.token, {
        orderId: mine.data.id,
        takeProfit: '1.09000',
        stopLoss: null,
      }),
    ).toMatchObject({ code: 404 });
    const list = await memberCall<ContractPendingList>(t, 'GET', '/api/contracts/pending_list', a.token);
    expect(list.data.items).toEqual([]);
    expect((await orderRow(mine.data.id)).state).toBe('open');
    await close(b, mine.data.id);
  });

  it('of several closes of one order at once, exactly one settles it', async () => {
    const who = trader();
    const opened = await open(who, { productId: eurusd, side: 'sell', lots: '0.20', leverage: 100 });
    // Sold at bid 1.08500: 0.2 × 100 000 × 1.085 ÷ 100 = 217.
    expect(opened.data.margin).toBe('217.0000');
    const tracked = await trackBalances(t, { member: who.accountId });
    const results = await Promise.all(Array.from({ length: 8 }, () => close(who, opened.data.id)));
    expect(results.filter((result) => result.code === 200)).toHaveLength(1);
    for (const result of results.filter((item) => item.code !== 200)) {
      expect(result).toMatchObject({ code: 409, message: 'This order is already closed' });
    }
    // Closed once at ask 1.08512: (1.08500 − 1.08512) × 20 000 = −2.4; the margin back less the loss, once.
    await tracked.expectChanges({
      'member:USDT:available': '214.6000',
      'member:USDT:held': '-217.0000',
      'platform:contracts_book:USDT': '2.4000',
    });
    const [postings] = await queryRows<{ count: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as count from journal_entries where reference_type = 'contract_order'
          and reference_id = ${opened.data.id} and kind <> 'hold'`,
    );
    expect(postings!.count).toBe(1);
  });
});

describe('console', () => {
  it('shows the book and orders to contracts.read, and lets contracts.manage close an order with a reason (audited)', async () => {
    const who = trader();
    const opened = await open(who, { productId: eurusd, side: 'buy', lots: '0.30', leverage: 100 });
    const book = await consoleCall<AdminContractBook>(t, 'GET', '/api/admin/contracts/book', support);
    expect(book.code).toBe(200);
    const exposure = book.data.exposure.find((item) => item.productId === eurusd)!;
    expect(exposure).toMatchObject({ longLots: '0.30', shortLots: '0.00', netLots: '0.30', openOrders: 1 });
    const orders = await consoleCall<{ items: AdminContractOrder[] }>(
      t,
      'GET',
      `/api/admin/contracts/orders?state=open&query=${encodeURIComponent(who.email)}`,
      support,
    );
    expect(orders.data.items.map((item) => item.id)).toEqual([opened.data.id]);
    expect(
      await consoleCall(t, 'POST', `/api/admin/contracts/orders/${opened.data.id}/close`, support, { reason: 'risk' }),
    ).toMatchObject({
      code: 403,
    });
    expect(
      await consoleCall(t, 'PUT', '/api/admin/contracts/settings', support, {
        enabled: false,
        stopOutLevelPct: '50',
        marginCallLevelPct: '100',
        priceStaleAfterS: 60,
        maxOpenOrders: 10,
      }),
    ).toMatchObject({ code: 403 });
    const closed = await consoleCall<AdminContractOrder>(
      t,
      'POST',
      `/api/admin/contracts/orders/${opened.data.id}/close`,
      finance,
      {
        reason: 'Account under review',
      },
    );
    expect(closed.data).toMatchObject({
      state: 'closed',
      closeReason: 'operator',
      closeNote: 'Account under review',
      email: who.email,
    });
    const [audit] = await queryRows<{ action: string }>(
      t.testDatabase.database.db,
      sql`select action from audit_log where target_id = ${opened.data.id} order by id desc limit 1`,
    );
    expect(audit).toEqual({ action: 'contracts.order_closed' });
    expect(await balances(who)).toMatchObject({ held: '0.0000' });
  });

  it('turns trading off for new orders', async () => {
    const who = trader();
    const off = await consoleCall(t, 'PUT', '/api/admin/contracts/settings', finance, {
      enabled: false,
      stopOutLevelPct: '50',
      marginCallLevelPct: '100',
      priceStaleAfterS: 120,
      maxOpenOrders: 200,
    });
    expect(off.code).toBe(200);
    expect(await open(who, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 100 })).toMatchObject({
      code: 409,
      message: 'Contract trading is closed at the moment',
    });
    await consoleCall(t, 'PUT', '/api/admin/contracts/settings', finance, {
      enabled: true,
      stopOutLevelPct: '50',
      marginCallLevelPct: '100',
      priceStaleAfterS: 120,
      maxOpenOrders: 200,
    });
  });
});
