// Tests that kill the mutants the contracts tests left alive (issue 31, docs/mutation/contracts.md).
// The settlement's rules are pure: their answers are asserted whole, to the unit of money, so a
// posting with the wrong sign, account, record type or key, or a boundary moved by one, fails here.
import { ContractTicksRepository } from '../src/modules/contracts/ticks.repository.js';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { money, type ContractCloseResult, type ContractOrder } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { ORDER_HOLD, SettlementMismatchError, resultWithin, settlementOf } from '../src/modules/contracts/settlement.js';
import { EURUSD_SETTINGS, XAUUSD_SETTINGS, contractProduct, memberCall, setQuote } from './support/contracts.js';
import { operatorToken } from './support/members.js';
import { seedTraders, type Trader } from './support/otc.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { trackBalances } from './support/balances.js';

const id = '00000000-0000-4000-8000-0000000000c1';
const accountId = '00000000-0000-4000-8000-0000000000a1';
const available = { ownerAccountId: accountId, asset: 'USDT', purpose: 'available' };
const book = { platformCode: 'contracts_book', asset: 'USDT' };
const reference = { referenceType: 'contract_order', referenceId: id };
const units = (text: string) => money.parseMoney(text);
const closed = (result: string, margin = '100.0000', held = margin) => ({ id, accountId, margin, result, held: units(held) });

describe('settlementOf', () => {
  it('holds the order margin under reference contract_order / <order id>', () => {
    expect(ORDER_HOLD).toBe('contract_order');
  });

  it('refuses a hold that is not exactly the margin, naming both, and moves nothing', () => {
    const attempt = () => settlementOf(closed('5.0000', '100.0000', '99.9999'));
    expect(attempt).toThrow(SettlementMismatchError);
    let caught: unknown;
    try {
      attempt();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).name).toBe('SettlementMismatchError');
    expect((caught as Error).message).toBe(`contract order ${id}: hold 99.9999 is not its margin 100.0000`);
    // A hold one unit above the margin is refused too.
    expect(() => settlementOf(closed('5.0000', '100.0000', '100.0001'))).toThrow(SettlementMismatchError);
  });

  it('a profit releases the hold and the book pays the profit into available', () => {
    expect(settlementOf(closed('12.3456'))).toEqual({
      settlement: { reference, status: 'released', recordType: 'contract_margin_release' },
      entries: [
        {
          idempotencyKey: `contracts:profit:${id}`,
          kind: 'contract_profit',
          referenceType: 'contract_order',
          referenceId: id,
          postings: [
            { account: available, amount: units('12.3456'), recordType: 'contract_profit' },
            { account: book, amount: units('-12.3456'), recordType: 'contract_profit' },
          ],
        },
      ],
    });
  });

  it('a result of exactly zero releases the hold and posts nothing', () => {
    expect(settlementOf(closed('0.0000'))).toEqual({
      settlement: { reference, status: 'released', recordType: 'contract_margin_release' },
      entries: [],
    });
  });

  it('a loss within the margin captures the hold: the loss to the book, the rest back to available', () => {
    expect(settlementOf(closed('-30.2500'))).toEqual({
      settlement: {
        reference,
        status: 'captured',
        recordType: 'contract_loss',
        destinations: [
          { account: available, amount: units('69.7500'), recordType: 'contract_margin_release' },
          { account: book, amount: units('30.2500'), recordType: 'contract_loss' },
        ],
      },
      entries: [],
    });
  });

  it('a loss of exactly the margin captures all of it to the book, nothing back', () => {
    expect(settlementOf(closed('-100.0000'))).toEqual({
      settlement: {
        reference,
        status: 'captured',
        recordType: 'contract_loss',
        destinations: [{ account: book, amount: units('100.0000'), recordType: 'contract_loss' }],
      },
      entries: [],
    });
  });

  it('a loss one unit beyond the margin takes the margin and that unit from available', () => {
    expect(settlementOf(closed('-100.0001'))).toEqual({
      settlement: {
        reference,
        status: 'captured',
        recordType: 'contract_loss',
        destinations: [{ account: book, amount: units('100.0000'), recordType: 'contract_loss' }],
      },
      entries: [
        {
          idempotencyKey: `contracts:loss:${id}`,
          kind: 'contract_loss',
          referenceType: 'contract_order',
          referenceId: id,
          postings: [
            { account: available, amount: units('-0.0001'), recordType: 'contract_loss' },
            { account: book, amount: units('0.0001'), recordType: 'contract_loss' },
          ],
        },
      ],
    });
  });
});

describe('resultWithin', () => {
  it('leaves a profit and a loss within the margin as they are, whatever the account has', () => {
    expect(resultWithin('7.5', '100.0000', units('-50.0000'))).toBe('7.5');
    expect(resultWithin('-99.9999', '100.0000', money.ZERO)).toBe('-99.9999');
    // Exactly the margin is still within it: the result string comes back untouched.
    expect(resultWithin('-100', '100.0000', money.ZERO)).toBe('-100');
  });

  it('a loss beyond the margin is paid in full when the account has it, to the unit', () => {
    expect(resultWithin('-130.0000', '100.0000', units('30.0000'))).toBe('-130.0000');
    expect(resultWithin('-130.0000', '100.0000', units('30.0001'))).toBe('-130.0000');
    expect(resultWithin('-130.0000', '100.0000', units('500.0000'))).toBe('-130.0000');
  });

  it('a loss beyond what the account has settles at the margin plus everything it has', () => {
    expect(resultWithin('-130.0000', '100.0000', units('29.9999'))).toBe('-129.9999');
    expect(resultWithin('-130.0000', '100.0000', units('10.0000'))).toBe('-110.0000');
    expect(resultWithin('-130.0000', '100.0000', money.ZERO)).toBe('-100.0000');
    // An account already below zero pays nothing more: its equity is floored at zero.
    expect(resultWithin('-130.0000', '100.0000', units('-5.0000'))).toBe('-100.0000');
  });
});

describe('closing through the ledger', () => {
  let t: TestApp;
  const clock = { now: () => new Date() };
  let finance: string;
  let eurusd: string;
  let xauusd: string;

  function open(who: Trader, body: Record<string, unknown>) {
    return memberCall<ContractOrder>(t, 'POST', '/api/contracts/open', who.token, { idempotencyKey: randomUUID(), ...body });
  }
  function close(who: Trader, orderId: string, lots?: string) {
    return memberCall<ContractCloseResult>(t, 'POST', '/api/contracts/close', who.token, {
      orderId,
      idempotencyKey: randomUUID(),
      ...(lots ? { lots } : {}),
    });
  }
  async function orderState(orderId: string) {
    const [row] = await queryRows<{ state: string; close_reason: string | null; pnl: string | null }>(
      t.testDatabase.database.db,
      sql`select state, close_reason, pnl::text as pnl from contract_orders where id = ${orderId}::uuid`,
    );
    return row!;
  }

  beforeAll(async () => {
    t = await createTestApp({}, { clock });
    finance = await operatorToken(t, 'contracts-mutants-finance', 'finance');
    eurusd = await contractProduct(t, finance, 'EUR/USD', EURUSD_SETTINGS, 1);
    xauusd = await contractProduct(t, finance, 'XAU/USD', XAUUSD_SETTINGS, 2);
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
  }, 120_000);
  afterEach(async () => {
    await t.services.contracts.watcher.idle();
    expect(await t.services.contracts.admin.marginProblems()).toEqual([]);
    expect((await t.services.ledger.verify()).problems).toEqual([]);
  });
  afterAll(async () => {
    await t.services.contracts.watcher.stop();
    await t.close();
  });

  it('a loss beyond the margin that the account can pay to the unit closes none of its other orders', async () => {
    // Seeded so that after both opens the account has exactly what the EUR/USD gap takes beyond its margin.
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-mutants-exact', 1, '998.2040');
    const balances = await trackBalances(t, { member: who!.accountId });
    const eur = await open(who!, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 200 });
    const gold = await open(who!, { productId: xauusd, side: 'sell', lots: '0.01', leverage: 50 });
    // 0.1 × 100 000 × 1.08512 ÷ 200 = 54.256; 0.01 × 100 × 2 350.20 ÷ 50 = 47.004.
    expect([eur.data.margin, gold.data.margin]).toEqual(['54.2560', '47.0040']);
    await balances.expectChanges({ 'member:USDT:available': '-101.2600', 'member:USDT:held': '101.2600' });
    // A gap to 0.99000: (0.99000 − 1.08512) × 10 000 = −951.2, of which 896.944 is beyond the margin:
    // exactly the 896.944 the account has. It pays it all; the gold order has no reason to close.
    await setQuote(t, finance, eurusd, '0.99000', '0.99012');
    await t.services.contracts.stopOut.stopOutSweep();
    await t.services.contracts.watcher.idle();
    expect(await orderState(eur.data.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '-951.2000' });
    expect(await orderState(gold.data.id)).toEqual({ state: 'open', close_reason: null, pnl: null });
    await balances.expectChanges({
      'member:USDT:available': '-896.9440',
      'member:USDT:held': '-54.2560',
      'platform:contracts_book:USDT': '951.2000',
    });
    expect(await balances.balance('member:USDT:available')).toBe('0.0000');
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    const closed = await close(who!, gold.data.id);
    expect(closed.data.closed).toMatchObject({ state: 'closed', pnl: '-0.2500' });
    await balances.expectChanges({
      'member:USDT:available': '46.7540',
      'member:USDT:held': '-47.0040',
      'platform:contracts_book:USDT': '0.2500',
    });
  });

  /** A tick stored but not walked: the product's quote moves, and no walk or stop-out sweep runs on it. */
  async function storeTick(productId: string, bid: string, ask: string, observedAt = new Date()): Promise<void> {
    // A walk still running from an earlier quote (and its stop-out sweep) would see this tick: wait for it first.
    await t.services.contracts.watcher.idle();
    const repository = new ContractTicksRepository(t.testDatabase.database.db);
    await t.testDatabase.database.db.transaction((tx) =>
      repository.insertTicks(tx, [{ productId, bid, ask, observedAt }], 'replay'),
    );
  }

  /** An account with a EUR/USD buy and a winning gold sell, then EUR/USD gapped far beyond what it has (not walked). */
  async function gappedAccount(prefix: string) {
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, prefix, 1, '1000');
    const balances = await trackBalances(t, { member: who!.accountId });
    const eur = await open(who!, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 200 });
    const gold = await open(who!, { productId: xauusd, side: 'sell', lots: '0.01', leverage: 50 });
    expect([eur.data.margin, gold.data.margin]).toEqual(['54.2560', '47.0040']);
    await balances.expectChanges({ 'member:USDT:available': '-101.2600', 'member:USDT:held': '101.2600' });
    // The gold sell wins (2 350.20 − 2 340.25) × 1 = 9.95; EUR/USD at 0.98000 loses 1 051.2.
    await setQuote(t, finance, xauusd, '2340.00', '2340.25');
    await storeTick(eurusd, '0.98000', '0.98012');
    return { who: who!, balances, eur: eur.data, gold: gold.data };
  }

  it('a member’s close beyond what the account has closes its other orders first, and stays the member’s close', async () => {
    const { who, balances, eur, gold } = await gappedAccount('contracts-mutants-member-gap');
    const closed = await close(who, eur.id);
    expect(closed.code).toBe(200);
    // 898.74 available + the gold order's 47.004 and 9.95 pay 955.694 of the 996.944 beyond the margin.
    expect(closed.data.closed).toMatchObject({ id: eur.id, state: 'closed', closeReason: 'member', pnl: '-1009.9500' });
    expect(closed.data.remaining).toBeNull();
    expect(await orderState(gold.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '9.9500' });
    await balances.expectChanges({
      'member:USDT:available': '-898.7400',
      'member:USDT:held': '-101.2600',
      'platform:contracts_book:USDT': '1000.0000',
    });
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
  });

  it('covering a loss closes only the account’s orders that can trade now: one on a stale price stays open', async () => {
    const { who, balances, eur, gold } = await gappedAccount('contracts-mutants-stale');
    // Gold's last price is an hour old: stale, so the gold sell cannot be closed to pay for the EUR/USD loss.
    await storeTick(xauusd, '2340.00', '2340.25', new Date(Date.now() - 3_600_000));
    const closed = await close(who, eur.id);
    expect(closed.code).toBe(200);
    // Only the 898.74 available pays beyond the margin: −(54.256 + 898.74) = −952.996.
    expect(closed.data.closed).toMatchObject({ id: eur.id, closeReason: 'member', pnl: '-952.9960' });
    expect(await orderState(gold.id)).toEqual({ state: 'open', close_reason: null, pnl: null });
    await balances.expectChanges({
      'member:USDT:available': '-898.7400',
      'member:USDT:held': '-54.2560',
      'platform:contracts_book:USDT': '952.9960',
    });
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
    // Back at its opening price, the gold sell closes at a loss of the spread, 0.25.
    const last = await close(who, gold.id);
    expect(last.data.closed).toMatchObject({ closeReason: 'member', pnl: '-0.2500' });
    await balances.expectChanges({
      'member:USDT:available': '46.7540',
      'member:USDT:held': '-47.0040',
      'platform:contracts_book:USDT': '0.2500',
    });
  });

  it('an account’s stop-out counts the orders its loss closed besides the one it closed', async () => {
    const { who, balances, eur, gold } = await gappedAccount('contracts-mutants-count');
    const closedCount = await t.services.contracts.stopOut.stopOutAccount(
      who.accountId,
      await t.services.settings.get('contracts'),
    );
    // The EUR/USD buy (the biggest loser), and the gold sell its loss closed.
    expect(closedCount).toBe(2);
    expect(await orderState(eur.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '-1009.9500' });
    expect(await orderState(gold.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '9.9500' });
    await balances.expectChanges({
      'member:USDT:available': '-898.7400',
      'member:USDT:held': '-101.2600',
      'platform:contracts_book:USDT': '1000.0000',
    });
    // Nothing is left to close.
    expect(await t.services.contracts.stopOut.stopOutAccount(who.accountId, await t.services.settings.get('contracts'))).toBe(0);
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
  });

  it('a partial close moves the part’s margin to its own hold in one entry, and tells the member of both rows', async () => {
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-mutants-part', 1);
    const balances = await trackBalances(t, { member: who!.accountId });
    const opened = await open(who!, { productId: xauusd, side: 'buy', lots: '0.10', leverage: 20 });
    expect(opened.data.margin).toBe('1175.2250');
    await balances.expectChanges({ 'member:USDT:available': '-1175.2250', 'member:USDT:held': '1175.2250' });
    await setQuote(t, finance, xauusd, '2360.20', '2360.45');
    const partial = await close(who!, opened.data.id, '0.04');
    expect(partial.code).toBe(200);
    const part = partial.data.closed;
    // 0.04 × 100 × (2 360.20 − 2 350.45) = 39; the part's margin 470.09 comes back with it.
    expect(part).toMatchObject({ lots: '0.04', margin: '470.0900', pnl: '39.0000', closeReason: 'member' });
    await balances.expectChanges({
      'member:USDT:available': '509.0900',
      'member:USDT:held': '-470.0900',
      'platform:contracts_book:USDT': '-39.0000',
    });
    const moves = await queryRows<{ key: string; kind: string; reference: string; memo: string; record: string; amount: string }>(
      t.testDatabase.database.db,
      sql`select e.idempotency_key as key, e.kind, e.reference_type || ':' || e.reference_id as reference, e.memo,
                 p.record_type as record, p.amount::text as amount
          from journal_entries e join postings p on p.entry_id = e.id
          where e.kind = 'hold_move' and e.reference_id = ${part.id}
          order by p.amount`,
    );
    expect(moves).toEqual([
      {
        key: `contracts:split:${part.id}`,
        kind: 'hold_move',
        reference: `contract_order:${part.id}`,
        memo: `from contract_order:${opened.data.id}`,
        record: 'contract_margin',
        amount: '-470.0900',
      },
      {
        key: `contracts:split:${part.id}`,
        kind: 'hold_move',
        reference: `contract_order:${part.id}`,
        memo: `from contract_order:${opened.data.id}`,
        record: 'contract_margin',
        amount: '470.0900',
      },
    ]);
    const events = await queryRows<{ kind: string; payload: Record<string, unknown> }>(
      t.testDatabase.database.db,
      sql`select kind, payload from member_events where member_id = ${who!.memberId}::uuid order by id`,
    );
    expect(events.map((event) => ({ kind: event.kind, ...event.payload }))).toEqual([
      {
        kind: 'contracts.order',
        orderId: opened.data.id,
        orderNo: opened.data.orderNo,
        state: 'open',
        closeReason: null,
        pnl: null,
      },
      {
        kind: 'contracts.order',
        orderId: part.id,
        orderNo: part.orderNo,
        state: 'closed',
        closeReason: 'member',
        pnl: '39.0000',
      },
      {
        kind: 'contracts.order',
        orderId: opened.data.id,
        orderNo: opened.data.orderNo,
        state: 'open',
        closeReason: null,
        pnl: null,
      },
    ]);
    expect(part.orderNo).not.toBe(opened.data.orderNo);
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
    await close(who!, opened.data.id);
    await balances.reset();
  });

  it('covering a loss closes the winners first: a losing other order that comes first by id pays from their profit', async () => {
    // No spread, so a buy and a sell of the same lots have the same margin and opposite results.
    await storeTick(eurusd, '1.08500', '1.08500');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
    // 10 left available after the three margins: 47.004 + 54.25 + 54.25.
    const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'contracts-mutants-winners', 1, '165.5040');
    const balances = await trackBalances(t, { member: who!.accountId });
    const gold = await open(who!, { productId: xauusd, side: 'sell', lots: '0.01', leverage: 50 });
    const buy = await open(who!, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 200 });
    const sell = await open(who!, { productId: eurusd, side: 'sell', lots: '0.10', leverage: 200 });
    expect([gold.data.margin, buy.data.margin, sell.data.margin]).toEqual(['47.0040', '54.2500', '54.2500']);
    await balances.expectChanges({ 'member:USDT:available': '-155.5040', 'member:USDT:held': '155.5040' });
    // The account's orders are locked and priced in id order: EUR/USD moves 0.01 against whichever of the
    // two comes first, so the loser (−100, 45.75 beyond its margin, more than the 10 available) is first.
    const [loser, winner] = buy.data.id < sell.data.id ? [buy.data, sell.data] : [sell.data, buy.data];
    const moved = loser === buy.data ? '1.07500' : '1.09500';
    await storeTick(eurusd, moved, moved);
    // Gold up to 2 500.20: the gold sell loses 150, 102.996 beyond its margin.
    await storeTick(xauusd, '2500.00', '2500.20');
    // The stop-out closes the gold sell, the biggest loser (here, or the watcher's sweep of the stored ticks).
    await t.services.contracts.stopOut.stopOutSweep();
    await t.services.contracts.watcher.idle();
    // The winner closes first (+100 and its margin: 164.25 available), the loser pays its 45.75 from that
    // (118.5), and the gold sell's 102.996 is paid in full: 15.504 left. Losers first would write off 35.75.
    expect(await orderState(gold.data.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '-150.0000' });
    expect(await orderState(winner.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '100.0000' });
    expect(await orderState(loser.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '-100.0000' });
    await balances.expectChanges({
      'member:USDT:available': '5.5040',
      'member:USDT:held': '-155.5040',
      'platform:contracts_book:USDT': '150.0000',
    });
    expect(await balances.balance('member:USDT:available')).toBe('15.5040');
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
  });

  it('covering a loss closes the smaller of two losers first, whichever of them comes first by id', async () => {
    // Twice: once with the bigger of the two losers first by id, once with the smaller one. No spreads.
    for (const firstLosesMore of [true, false]) {
      await storeTick(eurusd, '1.08500', '1.08500');
      await storeTick(xauusd, '2350.00', '2350.00');
      // 20 left available after the margins: 94 and 47 for the gold sells, 54.25 for the EUR/USD buy.
      const prefix = `contracts-mutants-losers-${firstLosesMore ? 'bigger' : 'smaller'}`;
      const [who] = await seedTraders(t.testDatabase.database.db, t.services.ledger, prefix, 1, '215.2500');
      const balances = await trackBalances(t, { member: who!.accountId });
      const main = await open(who!, { productId: xauusd, side: 'sell', lots: '0.02', leverage: 50 });
      const gold = await open(who!, { productId: xauusd, side: 'sell', lots: '0.01', leverage: 50 });
      const eur = await open(who!, { productId: eurusd, side: 'buy', lots: '0.10', leverage: 200 });
      expect([main.data.margin, gold.data.margin, eur.data.margin]).toEqual(['94.0000', '47.0000', '54.2500']);
      await balances.expectChanges({ 'member:USDT:available': '-195.2500', 'member:USDT:held': '195.2500' });
      // Gold up 100: the gold sells lose 200 (106 beyond their margin; the biggest loser, which the stop-out
      // closes) and 100 (53 beyond). EUR/USD down so that its buy loses 150 (95.75 beyond) or 60 (5.75
      // beyond): the one of the other two first by id (the order they are locked and priced in) loses more or less.
      const eurLosesMore = eur.data.id < gold.data.id === firstLosesMore;
      const moved = eurLosesMore ? '1.07000' : '1.07900';
      await storeTick(eurusd, moved, moved);
      await storeTick(xauusd, '2450.00', '2450.00');
      // The stop-out here or the watcher's sweep of the stored ticks: the same closes either way.
      await t.services.contracts.stopOut.stopOutSweep();
      await t.services.contracts.watcher.idle();
      // The smaller loser closes first and pays what it can of its loss beyond its margin from the 20
      // available; the bigger one pays what is left; the biggest then pays nothing beyond its margin.
      expect(await orderState(main.data.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '-94.0000' });
      if (eurLosesMore) {
        // The gold sell pays 20 of its 53: −67; the EUR/USD buy nothing beyond its margin: −54.25.
        expect(await orderState(gold.data.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '-67.0000' });
        expect(await orderState(eur.data.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '-54.2500' });
      } else {
        // The EUR/USD buy pays its 5.75 in full: −60; the gold sell the 14.25 left: −61.25.
        expect(await orderState(eur.data.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '-60.0000' });
        expect(await orderState(gold.data.id)).toEqual({ state: 'closed', close_reason: 'stop_out', pnl: '-61.2500' });
      }
      await balances.expectChanges({
        'member:USDT:available': '-20.0000',
        'member:USDT:held': '-195.2500',
        'platform:contracts_book:USDT': '215.2500',
      });
    }
    await setQuote(t, finance, eurusd, '1.08500', '1.08512');
    await setQuote(t, finance, xauusd, '2350.20', '2350.45');
  });
});
