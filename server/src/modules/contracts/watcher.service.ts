import {
  compareDecimal,
  contractClosePrice,
  contractMid,
  contractPnl,
  contractQuote,
  contractSettledPnl,
  contractTriggered,
  money,
  type ContractCloseReason,
  type ContractSettings,
  type ContractTickSource,
} from '@custos/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { CoalescedRun } from '../../lib/coalesced-run.js';
import type { EntrySpec, HoldSettlement, LedgerService } from '../ledger/ledger.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ContractProductsRepository } from './products.repository.js';
import type { ContractTicksRepository, TickRow } from './ticks.repository.js';
import type { CloseFields, ContractOrdersRepository, OrderRow } from './orders.repository.js';
import { manualCloseAudits, triggeredClosePrice } from './manual-quote-rules.js';
import { ManualQuotesRepository } from './manual-quotes.repository.js';
import { conversionFor, currenciesOf, lots2, needsPriceBook, type IncomingTick, type PriceBook, type Quote } from './model.js';
import type { ContractsCloser } from './order-close.js';
import type { ContractsPricing } from './pricing.js';
import { settlementOf } from './settlement.js';
import type { ContractsStopOutService } from './stop-out.service.js';

/** Ticks the watcher walks per transaction. */
const WATCH_BATCH = 500;
/** A contract product's mid goes to the quotes history at most this often. */
const MARKET_PRICE_EVERY_MS = 1000;
/** Closed orders settled per transaction. */
const SETTLE_BATCH = 500;

/**
 * The price watcher (decisions 034, 043, 046, 050): stores ticks (feed, replay, manual), walks each
 * product's new ticks exactly once and closes every open order a tick reaches by its take-profit or
 * stop-loss, then settles those closes through the ledger in batches. After a walk it asks for a
 * stop-out sweep.
 */
export class ContractsWatcherService {
  /** Each product's walks on this instance, one at a time (a tick during a walk is walked after). */
  private readonly walks = new Map<string, CoalescedRun>();
  /** Where stored ticks are walked when not on this thread (the watcher thread, decision 043). */
  private walker: ((productIds: string[]) => void) | null = null;
  /** The settlement of the watcher's closes on this instance (decision 046). */
  private readonly settlement = new CoalescedRun(() => this.settlePending(), {
    stopped: () => this.stopped,
    // What was not settled is settled by the next walk's request or the watcher's sweep.
    onError: (error) => this.logger.error({ err: error }, 'contracts settlement failed'),
  });
  private stopped = false;
  /** Who entered and approved manual ticks (decision 050); its methods take the walk's transaction. */
  private readonly manualTicks = new ManualQuotesRepository();

  constructor(
    private readonly db: Db,
    private readonly products: ContractProductsRepository,
    private readonly ticks: ContractTicksRepository,
    private readonly orders: ContractOrdersRepository,
    private readonly ledger: LedgerService,
    private readonly settings: SettingsService,
    private readonly memberEvents: MemberEventPublisher,
    private readonly pricing: ContractsPricing,
    private readonly closer: ContractsCloser,
    private readonly stopOut: ContractsStopOutService,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /** Product ids by symbol, for the replay and the feed. */
  async contractProductIds(): Promise<Map<string, string>> {
    const rows = await this.products.allProducts(this.db, this.pricing.dayAgo());
    return new Map(rows.filter((row) => row.configured).map((row) => [row.symbol, row.id]));
  }

  /**
   * Stores ticks (raw bid/ask of configured products) and records each product's mid in the quotes
   * history at most once a second, in one statement; then walks the products' new ticks on this
   * instance. Answers the stored ticks in order (a product without contract settings stores none).
   */
  async ingestTicks(
    ticks: readonly IncomingTick[],
    source: ContractTickSource,
  ): Promise<{ id: string; productId: string; symbol: string }[]> {
    if (ticks.length === 0) return [];
    const now = this.pricing.now();
    const stamped = ticks.map((tick) => ({ ...tick, observedAt: tick.observedAt ?? now }));
    const lastByProduct = new Map<string, (typeof stamped)[number]>();
    for (const tick of stamped) lastByProduct.set(tick.productId, tick);
    const mids = [...lastByProduct.values()].map((tick) => ({
      productId: tick.productId,
      // Eight places: the history's precision; the product's own digits apply when it is shown.
      mid: contractMid(tick.bid, tick.ask, 8),
      observedAt: tick.observedAt,
    }));
    const stored = await this.ticks.insertTicks(this.db, stamped, source, { mids, everyMs: MARKET_PRICE_EVERY_MS });
    this.walkSoon([...new Set(stored.map((tick) => tick.productId))]);
    return stored;
  }

  /** The feed's quotes with a bid and ask become ticks of the configured products (quotes' listener). */
  async ingestFeed(
    quotes: readonly { productId: string; quote: { bidPrice?: string; askPrice?: string; closeTime: Date } }[],
  ): Promise<void> {
    const configured = new Set((await this.contractProductIds()).values());
    const ticks = quotes
      .filter(({ productId, quote }) => configured.has(productId) && quote.bidPrice && quote.askPrice)
      .filter(({ quote }) => compareDecimal(quote.bidPrice!, quote.askPrice!) <= 0)
      .map(({ productId, quote }) => ({ productId, bid: quote.bidPrice!, ask: quote.askPrice!, observedAt: quote.closeTime }));
    await this.ingestTicks(ticks, 'feed');
  }

  /**
   * Stores an operator's bid/ask as a manual tick in the caller's transaction (with its mid in the
   * quotes history); answers the tick, or null when the product has no contract settings. Whether it
   * may apply, who is named with it and its audit are `ManualQuotesService`'s (decision 050); the
   * caller walks it once its transaction has committed (`walkManualTick`).
   */
  async manualQuote(
    tx: Tx,
    productId: string,
    quote: { bid: string; ask: string },
  ): Promise<{ id: string; symbol: string } | null> {
    const observedAt = this.pricing.now();
    const mids = [{ productId, mid: contractMid(quote.bid, quote.ask, 8), observedAt }];
    const [tick] = await this.ticks.insertTicks(tx, [{ productId, bid: quote.bid, ask: quote.ask, observedAt }], 'manual', {
      mids,
      everyMs: MARKET_PRICE_EVERY_MS,
    });
    return tick ?? null;
  }

  /** Walks a product's ticks after a manual tick's transaction committed. */
  walkManualTick(productId: string): void {
    this.walkSoon([productId]);
  }

  // ── The watcher ──

  /**
   * Hands the walking of stored ticks to another thread (the server's watcher thread, decision 043);
   * null walks them here again.
   */
  useWalker(walker: ((productIds: string[]) => void) | null): void {
    this.walker = walker;
  }

  /** Walks products on the watcher thread when there is one, else here. */
  walkSoon(productIds: string[]): void {
    if (productIds.length === 0) return;
    if (this.walker) this.walker(productIds);
    else for (const productId of productIds) this.kick(productId);
  }

  /**
   * Walks a product's new ticks on this instance (coalesced: a walk running takes the new ticks too).
   * Products walk side by side: one product's burst of closes does not hold up another's walk.
   */
  kick(productId: string): void {
    let walk = this.walks.get(productId);
    if (!walk) {
      walk = new CoalescedRun(() => this.walkProducts([productId]), {
        stopped: () => this.stopped,
        // What was not walked is walked by the next tick's walk or the watcher's sweep (every second).
        onError: (error) => this.logger.error({ err: error, productId }, 'contracts watcher failed'),
      });
      this.walks.set(productId, walk);
    }
    walk.request();
  }

  /** Waits for this instance's walks, settlements and stop-out sweep to end (tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      const running = [...this.walks.values(), this.settlement]
        .map((run) => run.current)
        .concat(this.stopOut.current)
        .filter((run) => run !== null);
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopOut.halt();
    await this.idle();
  }

  /** Every product with ticks not walked yet (the safety net after a restart, and on other instances). */
  async watchAll(): Promise<void> {
    await this.walkProducts(await this.ticks.productsBehind());
    // Closes whose settlement a crash or a failure left behind (this instance's or another's).
    if (await this.orders.settlementsDue()) await this.settlePending();
  }

  /** Walks one product's new ticks (see `walkProducts`). */
  async watchProduct(productId: string): Promise<number> {
    return this.walkProducts([productId]);
  }

  /**
   * Walks products' ticks after their cursors, in id order, in batches: each batch is one transaction
   * holding the products' watch rows (skip locked: one walk at a time per product; a product another
   * walk holds is left to it). Every open order a tick of the batch reaches (after the tick it opened
   * on) closes at the first such tick, by its take-profit or stop-loss; the cursors move in the same
   * transaction. A crash rolls the whole batch back, so no order is closed twice and none is missed.
   * Answers the ticks walked.
   */
  async walkProducts(productIds: readonly string[]): Promise<number> {
    let walked = 0;
    let closed = 0;
    let remaining = [...new Set(productIds)];
    while (remaining.length > 0) {
      const batch = await this.db.transaction(async (tx) => {
        const walks = await this.ticks.claimWalks(tx, remaining, WATCH_BATCH);
        const triggered = walks.flatMap((walk) =>
          walk.pricing && walk.candidates.length > 0
            ? this.reachedBy(walk.pricing, walk.earlyTicks, walk.ticks, walk.candidates)
            : [],
        );
        if (triggered.length > 0) {
          // Pairs quoted in USD, and USD/XXX by their own close price, convert without the price book.
          const prices = triggered.some(({ order }) => needsPriceBook(order.symbol))
            ? await this.pricing.priceBook(tx)
            : (new Map() as PriceBook);
          closed += await this.closeTriggered(tx, triggered, prices);
        }
        return walks;
      });
      if (closed > 0) this.requestSettlement();
      walked += batch.reduce((sum, walk) => sum + walk.ticks.length, 0);
      remaining = batch.filter((walk) => walk.ticks.length === WATCH_BATCH).map((walk) => walk.productId);
    }
    if (walked > 0) this.stopOut.request();
    return walked;
  }

  /**
   * Each candidate the batch's ticks reach, with the first tick (after its opening) that reaches it.
   * A new order no walk had seen is checked from its open tick: the ticks walked before it committed
   * (`earlyTicks`), then the batch's.
   */
  private reachedBy(
    { digits, spreadMarkupPoints }: { digits: number; spreadMarkupPoints: number },
    earlyTicks: readonly TickRow[],
    ticks: readonly TickRow[],
    candidates: readonly (OrderRow & { awaiting: boolean })[],
  ): { order: OrderRow; quote: Quote; reason: ContractCloseReason }[] {
    const quoteOf = (tick: TickRow): Quote => ({
      tickId: tick.id,
      ...contractQuote(tick.bid, tick.ask, digits, spreadMarkupPoints),
      at: new Date(tick.observed_at),
    });
    const quotes = ticks.map(quoteOf);
    const sinceOpen = candidates.some((order) => order.awaiting) ? [...earlyTicks.map(quoteOf), ...quotes] : quotes;
    const triggered: { order: OrderRow; quote: Quote; reason: ContractCloseReason }[] = [];
    for (const order of candidates) {
      // Targets act from the tick after the order opened, or after they were last set (issue 31).
      const openTick = BigInt(order.open_tick_id);
      const targetsTick = order.targets_tick_id === null ? openTick : BigInt(order.targets_tick_id);
      const fromTick = targetsTick > openTick ? targetsTick : openTick;
      const targets = { takeProfit: order.take_profit, stopLoss: order.stop_loss };
      for (const quote of order.awaiting ? sinceOpen : quotes) {
        if (BigInt(quote.tickId) <= fromTick) continue;
        const reason = contractTriggered(order.side, contractClosePrice(order.side, quote), targets);
        if (!reason) continue;
        triggered.push({ order, quote, reason });
        break;
      }
    }
    return triggered;
  }

  /**
   * Closes every order a walk's ticks reached, whole, each at the tick that reached it (its price,
   * result and reason fixed in one statement), and leaves the ledger's part to the settlement
   * (decision 046): the walk's transaction takes no member's balance, so a member busy opening
   * another order does not hold up the close.
   */
  private async closeTriggered(
    tx: Tx,
    triggered: readonly { order: OrderRow; quote: Quote; reason: ContractCloseReason }[],
    prices: PriceBook,
  ): Promise<number> {
    const closedAt = this.pricing.now();
    // Targets reached by a manual tick fill at the target, and each such close is audited (decision 050).
    const manual = await this.manualTicks.manualTicks(
      tx,
      triggered.map(({ quote }) => quote.tickId),
    );
    const closes = triggered.map(({ order, quote, reason }) => {
      const closePrice = triggeredClosePrice(order, quote, reason, manual.has(quote.tickId));
      const conversion = conversionFor(order.symbol, closePrice, prices);
      if (!conversion) throw AppError.conflict('contracts.no_conversion', { currency: currenciesOf(order.symbol).quote });
      const pnl = contractPnl({
        side: order.side,
        lots: lots2(order.lots),
        contractSize: order.contract_size,
        openPrice: order.open_price,
        closePrice,
        conversion,
      });
      const fields: CloseFields = {
        closePrice,
        closedAt,
        closeTickId: quote.tickId,
        reason,
        pnl: contractSettledPnl(pnl, order.swap, order.margin),
        swap: order.swap,
        note: null,
        closedBy: null,
        closeKey: null,
        closeHash: null,
      };
      return { id: order.id, lots: order.lots, margin: order.margin, fields };
    });
    const closed = await this.orders.closeOrders(tx, closes, { awaitingSettlement: true });
    if (manual.size > 0) await this.manualTicks.auditCloses(tx, manualCloseAudits(closes, closed, manual));
    return closed.length;
  }

  /**
   * Settles closed orders the watcher left to it, as `settleClose` would (the same entries and
   * events, built by `settlementOf`), but together: every hold and profit through the ledger's batch,
   * every event in one statement. A loss beyond an order's margin is first limited to what its account
   * can pay (`coverLoss`, which may close the account's other orders): those accounts' open orders
   * are all locked before any ledger row. The member hears of the close once the balances show it.
   */
  private async settleClosed(
    tx: Tx,
    orders: readonly (OrderRow & { held: string | null })[],
    settings: ContractSettings,
  ): Promise<void> {
    const beyondMargin = orders.filter((order) => compareDecimal(order.pnl!, `-${order.margin}`) < 0);
    const results = new Map(orders.map((order) => [order.id, order.pnl!]));
    if (beyondMargin.length > 0) {
      const accounts = [...new Set(beyondMargin.map((order) => order.account_id))].sort();
      for (const accountId of accounts) await this.orders.openOrdersOf(tx, accountId, { lock: true });
      const prices = await this.pricing.priceBook(tx);
      const closedOut = new Set<string>();
      for (const order of beyondMargin) {
        const result = await this.closer.coverLoss(tx, order, order.margin, order.pnl!, { prices, settings, closedOut });
        if (result !== order.pnl) await this.orders.setSettledResult(tx, order.id, result);
        results.set(order.id, result);
      }
    }
    const settlements: HoldSettlement[] = [];
    const entries: EntrySpec[] = [];
    for (const order of orders) {
      const { settlement, entries: more } = settlementOf({
        id: order.id,
        accountId: order.account_id,
        margin: order.margin,
        result: results.get(order.id)!,
        held: order.held === null ? money.ZERO : money.parseMoney(order.held),
      });
      settlements.push(settlement);
      entries.push(...more);
    }
    // The events first: the ledger's turn on the book's account (held to the commit) is kept short.
    await this.memberEvents.publishMany(
      tx,
      orders.map((order) => ({
        memberId: order.member_id,
        data: {
          kind: 'contracts.order',
          orderId: order.id,
          orderNo: order.order_no,
          state: 'closed',
          closeReason: order.close_reason,
          pnl: results.get(order.id)!,
        },
      })),
    );
    await this.ledger.settleHolds(tx, settlements, entries);
  }

  /** Settles every closed order awaiting it, in batches (each one transaction); answers how many. */
  async settlePending(): Promise<number> {
    const settings = await this.settings.get('contracts');
    let settled = 0;
    for (;;) {
      const batch = await this.db.transaction(async (tx) => {
        const orders = await this.orders.claimSettlements(tx, SETTLE_BATCH);
        if (orders.length > 0) await this.settleClosed(tx, orders, settings);
        return orders.length;
      });
      settled += batch;
      if (batch < SETTLE_BATCH) return settled;
    }
  }

  /** Asks for the settlement of the watcher's closes on this instance (one run at a time, coalesced). */
  private requestSettlement(): void {
    this.settlement.request();
  }
}
