import { randomInt, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  PAR_CONVERSION,
  compareDecimal,
  contractBelowStopOut,
  contractClosePrice,
  contractLotsLeft,
  contractLotsProblem,
  contractMargin,
  contractMarginLevel,
  contractMarketOpen,
  contractMid,
  contractOpenPrice,
  contractPnl,
  contractQuote,
  contractSettledPnl,
  contractShare,
  contractSpreadCost,
  contractStopOutOrder,
  contractSum,
  contractSwap,
  contractTargetsProblem,
  contractTriggered,
  decimalPlaces,
  money,
  roundDecimal,
  type AdminContractBook,
  type AdminContractOrder,
  type AdminContractProduct,
  type ContractCloseReason,
  type ContractCloseResult,
  type ContractConversion,
  type ContractExposure,
  type ContractMemberAtRisk,
  type ContractOrder,
  type ContractPendingInfo,
  type ContractPendingList,
  type ContractProduct,
  type ContractProductSettings,
  type ContractProducts,
  type ContractSettings,
  type ContractTickSource,
  type ContractOrderState,
  type contractCloseRequest,
  type contractOpenRequest,
  type contractSetTargetsRequest,
} from '@custos/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { CoalescedRun } from '../../lib/coalesced-run.js';
import { fingerprint } from '../../lib/fingerprint.js';
import { localDate } from '../../lib/platform-time.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { Clock } from '../../lib/clock.js';
import type { EntrySpec, HoldSettlement, LedgerService } from '../ledger/ledger.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { CloseFields, CloseQuote, ContractsRepository, OrderRow, ProductRow, TickRow } from './contracts.repository.js';
import { manualCloseAudits, triggeredClosePrice } from './manual-quote-rules.js';
import { ManualQuotesRepository } from './manual-quotes.repository.js';
import { ORDER_HOLD, resultWithin, settlementOf } from './settlement.js';

export { ORDER_HOLD };

/** Ticks the watcher walks per transaction. */
const WATCH_BATCH = 500;
/** A contract product's mid goes to the quotes history at most this often. */
const MARKET_PRICE_EVERY_MS = 1000;
/** The stop-out sweep runs at most once a second per instance (it reads every open order). */
const STOP_OUT_MIN_INTERVAL_MS = 1000;
/** Swap rollover: 21:00 UTC (17:00 New York), the forex day's end. */
const ROLLOVER_HOUR_UTC = 21;
const SWAP_BATCH = 500;
/** Closed orders settled per transaction. */
const SETTLE_BATCH = 500;

export interface OperatorActor {
  operatorId: string;
  origin: RequestOrigin;
}

export interface IncomingTick {
  productId: string;
  bid: string;
  ask: string;
  /** When it was observed (the platform's clock when absent). */
  observedAt?: Date;
}

interface Quote {
  tickId: string;
  bid: string;
  ask: string;
  at: Date;
}

/** A contract product as the service uses it: settings and the platform quote (mark-up applied). */
interface Product {
  id: string;
  symbol: string;
  displayName: string;
  enabled: boolean;
  source: string;
  baseCurrency: string;
  quoteCurrency: string;
  settings: ContractProductSettings;
  quote: Quote | null;
  rawMid: string | null;
  dayAgoPrice: string | null;
  tickSource: ContractTickSource | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));
const money4 = (value: string) => roundDecimal(value, 4, 'floor');
const lots2 = (value: string) => roundDecimal(value, 2, 'floor');

function currenciesOf(symbol: string): { base: string; quote: string } {
  const [base = '', quote = ''] = symbol.split('/');
  return { base, quote };
}

function settingsOf(row: ProductRow): ContractProductSettings | null {
  if (!row.configured || row.digits === null) return null;
  return {
    digits: row.digits,
    contractSize: row.contract_size!,
    leverages: [...(row.leverages ?? [])].sort((a, b) => a - b),
    minLots: lots2(row.min_lots!),
    lotStep: lots2(row.lot_step!),
    maxLots: lots2(row.max_lots!),
    spreadMarkupPoints: row.spread_markup_points ?? 0,
    sessions: row.sessions ?? [],
    swapEnabled: row.swap_enabled ?? false,
    swapLongPct: roundDecimal(row.swap_long_pct ?? '0', 4, 'floor'),
    swapShortPct: roundDecimal(row.swap_short_pct ?? '0', 4, 'floor'),
    tradingEnabled: row.trading_enabled ?? false,
  };
}

function productOf(row: ProductRow): Product | null {
  const settings = settingsOf(row);
  if (!settings) return null;
  const { base, quote } = currenciesOf(row.symbol);
  const priced = row.tick_id !== null && row.raw_bid !== null && row.raw_ask !== null && row.quoted_at !== null;
  return {
    id: row.id,
    symbol: row.symbol,
    displayName: row.display_name,
    enabled: row.enabled,
    source: row.source,
    baseCurrency: base,
    quoteCurrency: quote,
    settings,
    quote: priced
      ? {
          tickId: row.tick_id!,
          ...contractQuote(row.raw_bid!, row.raw_ask!, settings.digits, settings.spreadMarkupPoints),
          at: new Date(row.quoted_at!),
        }
      : null,
    rawMid: priced ? contractMid(row.raw_bid!, row.raw_ask!, 8) : null,
    dayAgoPrice: row.day_ago_price,
    tickSource: row.tick_source,
  };
}

function newOrderNo(now: Date, timeZone: string): string {
  const digits = Array.from({ length: 10 }, () => randomInt(10)).join('');
  return `C${localDate(now, timeZone).replace(/-/g, '')}${digits}`;
}

/** The last prices by symbol (tick mid, else the quotes history) for converting quote currencies to USDT. */
type PriceBook = Map<string, string>;

/**
 * How a product's quote currency becomes USDT (decision 034): USD and USDT at par; otherwise through
 * USD/XXX (divide: the product's own price when it is that pair) or XXX/USD, XXX/USDT (multiply).
 */
/** Whether a product's P&L converts to USDT through other products' prices (a cross pair). */
function needsPriceBook(symbol: string): boolean {
  const { quote } = currenciesOf(symbol);
  return quote !== 'USD' && quote !== 'USDT' && symbol !== `USD/${quote}`;
}

/** Lets the event loop run what waits (a walk's answers) between slices of a long computation. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Open orders priced between two turns of the event loop in the stop-out sweep. */
const ORDERS_PER_SLICE = 500;

export function conversionFor(symbol: string, ownPrice: string | null, prices: PriceBook): ContractConversion | null {
  const { quote } = currenciesOf(symbol);
  if (quote === 'USD' || quote === 'USDT') return PAR_CONVERSION;
  if (symbol === `USD/${quote}`) return ownPrice ? { op: 'div', rate: ownPrice } : null;
  const usdPair = prices.get(`USD/${quote}`) ?? prices.get(`USDT/${quote}`);
  if (usdPair) return { op: 'div', rate: usdPair };
  const inverse = prices.get(`${quote}/USD`) ?? prices.get(`${quote}/USDT`);
  if (inverse) return { op: 'mul', rate: inverse };
  return null;
}

/**
 * Contract (settlement) orders (issue 15, docs/decisions/034-contracts.md): products' contract
 * settings, bid/ask ticks, opening and closing with margin held in the ledger, take-profit, stop-loss
 * and stop-out fired exactly once by the price watcher, and the console's book.
 */
export class ContractsService {
  /** Each product's walks on this instance, one at a time (a tick during a walk is walked after). */
  private readonly walks = new Map<string, CoalescedRun>();
  /** Where stored ticks are walked when not on this thread (the watcher thread, decision 043). */
  private walker: ((productIds: string[]) => void) | null = null;
  /** The settlement of the watcher's closes on this instance (decision 046). */
  private readonly settlement = new CoalescedRun(() => this.settlePending(), {
    stopped: () => this.stopped,
    // What was not settled is settled by the next walk's request or the watcher's sweep.
    onError: (error) => this.options.logger.error({ err: error }, 'contracts settlement failed'),
  });
  /** The stop-out sweep on this instance: at most once a second. */
  private readonly stopOut = new CoalescedRun(
    async () => {
      const waitMs = this.lastStopOutMs + STOP_OUT_MIN_INTERVAL_MS - Date.now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      this.lastStopOutMs = Date.now();
      await this.stopOutSweep();
    },
    {
      stopped: () => this.stopped,
      onError: (error) => this.options.logger.error({ err: error }, 'contracts stop-out sweep failed'),
    },
  );
  private lastStopOutMs = 0;
  private stopped = false;
  /** Who entered and approved manual ticks (decision 050); its methods take the walk's transaction. */
  private readonly manualTicks = new ManualQuotesRepository();

  constructor(
    private readonly db: Db,
    private readonly repository: ContractsRepository,
    private readonly ledger: LedgerService,
    private readonly settings: SettingsService,
    private readonly audit: AuditRepository,
    private readonly memberEvents: MemberEventPublisher,
    private readonly options: { timeZone: string; clock: Clock; logger: FastifyBaseLogger },
  ) {}

  private now(): Date {
    return this.options.clock.now();
  }

  private dayAgo(): Date {
    return new Date(this.now().getTime() - 86_400_000);
  }

  // ── Prices ──

  private async priceBook(db: Db | Tx): Promise<PriceBook> {
    const rows = await this.repository.lastPrices(db);
    const book: PriceBook = new Map();
    for (const row of rows) {
      const price = row.bid !== null && row.ask !== null ? contractMid(row.bid, row.ask, 8) : row.price;
      if (price !== null && /[1-9]/.test(price)) book.set(row.symbol, price);
    }
    return book;
  }

  private isStale(quote: Quote | null, settings: ContractSettings): boolean {
    return quote === null || this.now().getTime() - quote.at.getTime() > settings.priceStaleAfterS * 1000;
  }

  /** Refuses trading on a product whose market is closed or whose price is missing or stale. */
  private requireTradable(product: Product, settings: ContractSettings): Quote {
    if (!product.quote) throw AppError.conflict('contracts.no_price', { symbol: product.symbol });
    if (!contractMarketOpen(product.settings.sessions, this.now())) {
      throw AppError.conflict('contracts.market_closed', { symbol: product.symbol });
    }
    if (this.isStale(product.quote, settings)) throw AppError.conflict('contracts.price_stale', { symbol: product.symbol });
    return product.quote;
  }

  private async loadProduct(db: Db | Tx, id: string): Promise<Product | null> {
    const row = await this.repository.product(db, id, this.dayAgo());
    return row ? productOf(row) : null;
  }

  private changePct(product: Product): string | null {
    if (!product.rawMid || !product.dayAgoPrice || !/[1-9]/.test(product.dayAgoPrice)) return null;
    const now = money.parseMoney(roundDecimal(product.rawMid, 4, 'halfUp'));
    const then = money.parseMoney(roundDecimal(product.dayAgoPrice, 4, 'halfUp'));
    if (then <= 0n) return null;
    // (now − then) ÷ then × 100, two places half up.
    const scaled = ((now - then) * 1_000_000n) / then; // percent × 10 000
    const rounded = scaled >= 0n ? (scaled + 50n) / 100n : (scaled - 50n) / 100n;
    const negative = rounded < 0n;
    const abs = negative ? -rounded : rounded;
    return `${negative ? '-' : ''}${(abs / 100n).toString()}.${(abs % 100n).toString().padStart(2, '0')}`;
  }

  private productView(product: Product, settings: ContractSettings, prices: PriceBook): ContractProduct {
    const quote = product.quote;
    const stale = this.isStale(quote, settings);
    const marketOpen = contractMarketOpen(product.settings.sessions, this.now());
    const spreadPoints = quote === null ? null : pointsBetween(quote.bid, quote.ask, product.settings.digits);
    return {
      id: product.id,
      symbol: product.symbol,
      displayName: product.displayName,
      baseCurrency: product.baseCurrency,
      quoteCurrency: product.quoteCurrency,
      ...product.settings,
      bid: quote?.bid ?? null,
      ask: quote?.ask ?? null,
      spreadPoints,
      changePct24h: this.changePct(product),
      quotedAt: quote ? quote.at.toISOString() : null,
      stale,
      marketOpen,
      canOpen: settings.enabled && product.settings.tradingEnabled && marketOpen && !stale,
      conversion: conversionFor(
        product.symbol,
        quote ? contractMid(quote.bid, quote.ask, product.settings.digits) : null,
        prices,
      ),
    };
  }

  /** GET /api/contracts/products */
  async products(): Promise<ContractProducts> {
    const settings = await this.settings.get('contracts');
    const prices = await this.priceBook(this.db);
    const rows = await this.repository.tradedProducts(this.dayAgo());
    const items = rows
      .map(productOf)
      .filter((product): product is Product => product !== null)
      .map((product) => this.productView(product, settings, prices));
    return { items, asOf: this.now().toISOString() };
  }

  /** The platform quote of every traded product (the live quote stream polls it). */
  async latestQuotes(): Promise<{ productId: string; tickId: string; bid: string; ask: string; quotedAt: string }[]> {
    const rows = await this.repository.tradedProducts(this.dayAgo());
    return rows
      .map(productOf)
      .filter((product): product is Product & { quote: Quote } => product?.quote != null)
      .map((product) => ({
        productId: product.id,
        tickId: product.quote.tickId,
        bid: product.quote.bid,
        ask: product.quote.ask,
        quotedAt: product.quote.at.toISOString(),
      }));
  }

  // ── Views ──

  private orderView(row: OrderRow, live: { quote: Quote | null; conversion: ContractConversion | null } | null): ContractOrder {
    const digits = row.digits;
    const price = (value: string | null) => (value === null ? null : roundDecimal(value, digits, 'halfUp'));
    let closePrice = price(row.close_price);
    let pnl = row.pnl === null ? null : money4(row.pnl);
    if (row.state === 'open') {
      closePrice = null;
      pnl = null;
      if (live?.quote) {
        closePrice = contractClosePrice(row.side, live.quote);
        if (live.conversion) {
          pnl = contractPnl({
            side: row.side,
            lots: row.lots,
            contractSize: row.contract_size,
            openPrice: row.open_price,
            closePrice,
            conversion: live.conversion,
          });
        }
      }
    }
    return {
      id: row.id,
      orderNo: row.order_no,
      productId: row.product_id,
      symbol: row.symbol,
      displayName: row.display_name,
      digits,
      contractSize: row.contract_size,
      side: row.side,
      state: row.state,
      lots: lots2(row.lots),
      leverage: row.leverage,
      openPrice: price(row.open_price)!,
      openedAt: iso(row.opened_at),
      margin: money4(row.margin),
      spreadCost: money4(row.spread_cost),
      takeProfit: price(row.take_profit),
      stopLoss: price(row.stop_loss),
      swap: money4(row.swap),
      closePrice,
      closedAt: isoOrNull(row.closed_at),
      closeReason: row.close_reason,
      pnl,
      parentOrderNo: row.parent_order_no,
      closeNote: row.close_note,
    };
  }

  /** Live figures of open orders: each product's quote and conversion, loaded once. */
  private async liveContext(
    db: Db | Tx,
  ): Promise<(productId: string) => { quote: Quote | null; conversion: ContractConversion | null }> {
    return (await this.liveProducts(db)).live;
  }

  /** Each configured product's quote and conversion (`liveContext`), and the products themselves. */
  private async liveProducts(db: Db | Tx): Promise<{
    products: Product[];
    live: (productId: string) => { quote: Quote | null; conversion: ContractConversion | null };
  }> {
    const rows = await this.repository.allProducts(db, this.dayAgo());
    const prices = await this.priceBook(db);
    const products = rows.map(productOf).filter((product): product is Product => product !== null);
    const byId = new Map<string, { quote: Quote | null; conversion: ContractConversion | null; symbol: string }>();
    for (const product of products) byId.set(product.id, { quote: product.quote, conversion: null, symbol: product.symbol });
    const live = (productId: string) => {
      const entry = byId.get(productId);
      if (!entry) return { quote: null, conversion: null };
      if (!entry.quote) return { quote: null, conversion: null };
      // A USD/XXX pair converts its P&L at the price it would close at; others through the price book.
      return { quote: entry.quote, conversion: conversionFor(entry.symbol, null, prices) ?? null };
    };
    return { products, live };
  }

  private liveFor(
    row: Pick<OrderRow, 'side' | 'symbol' | 'product_id'>,
    live: (productId: string) => { quote: Quote | null; conversion: ContractConversion | null },
  ) {
    const entry = live(row.product_id);
    if (!entry.quote) return entry;
    const own = currenciesOf(row.symbol);
    if (row.symbol === `USD/${own.quote}`) {
      return { quote: entry.quote, conversion: { op: 'div' as const, rate: contractClosePrice(row.side, entry.quote) } };
    }
    return entry;
  }

  /** GET /api/contracts/pending_list */
  async pendingList(context: MemberSessionContext): Promise<ContractPendingList> {
    const rows = await this.repository.openOrdersOf(this.db, context.account.id);
    const live = await this.liveContext(this.db);
    return { items: rows.map((row) => this.orderView(row, this.liveFor(row, live))), asOf: this.now().toISOString() };
  }

  /** GET /api/contracts/pending_info */
  async pendingInfo(context: MemberSessionContext): Promise<ContractPendingInfo> {
    const settings = await this.settings.get('contracts');
    const rows = await this.repository.openOrdersOf(this.db, context.account.id);
    const live = await this.liveContext(this.db);
    const views = rows.map((row) => this.orderView(row, this.liveFor(row, live)));
    const balances = await this.ledger.balancesOf([context.account.id]);
    const freeMargin = money.formatMoney(balances.get(`${context.account.id}:USDT:available`) ?? money.ZERO);
    const usedMargin = contractSum(views.map((view) => view.margin));
    const floatingPnl = contractSum(views.flatMap((view) => [view.pnl ?? '0', view.swap]));
    const equity = contractSum([usedMargin, floatingPnl]);
    return {
      freeMargin,
      usedMargin,
      floatingPnl,
      equity,
      marginLevel: contractMarginLevel(equity, usedMargin),
      stopOutLevelPct: settings.stopOutLevelPct,
      marginCallLevelPct: settings.marginCallLevelPct,
      openOrders: views.length,
      enabled: settings.enabled,
      asOf: this.now().toISOString(),
    };
  }

  /** GET /api/contracts/closed_list */
  async closedList(context: MemberSessionContext, productId: string | undefined, page: number, pageSize: number) {
    const { rows, total } = await this.repository.closedOf(context.account.id, productId, page, pageSize);
    return { items: rows.map((row) => this.orderView(row, null)), total, page, pageSize };
  }

  /** GET /api/contracts/order_info: one of the account's own orders (another's answers "not found"). */
  async orderInfo(context: MemberSessionContext, id: string): Promise<ContractOrder> {
    const row = await this.repository.order(this.db, id);
    if (!row || row.account_id !== context.account.id) throw AppError.notFound();
    const live = row.state === 'open' ? this.liveFor(row, await this.liveContext(this.db)) : null;
    return this.orderView(row, live);
  }

  // ── Open ──

  private checkTargetDigits(product: Product, targets: { takeProfit: string | null; stopLoss: string | null }): void {
    for (const value of [targets.takeProfit, targets.stopLoss]) {
      if (
        value !== null &&
        decimalPlaces(value) > product.settings.digits &&
        compareDecimal(roundDecimal(value, product.settings.digits, 'floor'), value) !== 0
      ) {
        throw AppError.badRequest('contracts.price_digits', { symbol: product.symbol, digits: product.settings.digits });
      }
    }
  }

  private normaliseTarget(product: Product, value: string | null): string | null {
    return value === null ? null : roundDecimal(value, product.settings.digits, 'halfUp');
  }

  /** POST /api/contracts/open: a market order; the margin is held in the ledger. */
  async open(context: MemberSessionContext, body: z.output<typeof contractOpenRequest>): Promise<ContractOrder> {
    const memberId = context.member.id;
    const accountId = context.account.id;
    const requestHash = fingerprint({
      productId: body.productId,
      side: body.side,
      lots: lots2(body.lots),
      leverage: String(body.leverage),
      takeProfit: body.takeProfit ?? '',
      stopLoss: body.stopLoss ?? '',
    });
    const replay = (row: OrderRow) => {
      if (row.request_hash !== requestHash) throw AppError.conflict('contracts.idempotency_mismatch');
      return this.orderInfo(context, row.id);
    };
    const earlier = await this.repository.orderByClientKey(this.db, memberId, body.idempotencyKey);
    if (earlier) return replay(earlier);

    const settings = await this.settings.get('contracts');
    if (!settings.enabled) throw AppError.conflict('contracts.disabled');
    const product = await this.loadProduct(this.db, body.productId);
    if (!product || !product.enabled || !product.settings.tradingEnabled)
      throw AppError.conflict('contracts.product_unavailable');
    const quote = this.requireTradable(product, settings);
    const lots = lots2(body.lots);
    const lotsProblem = contractLotsProblem(lots, product.settings);
    if (lotsProblem === 'lots_out_of_range') {
      throw AppError.badRequest('contracts.lots_out_of_range', { min: product.settings.minLots, max: product.settings.maxLots });
    }
    if (lotsProblem === 'lots_off_step') {
      throw AppError.badRequest('contracts.lots_off_step', { step: product.settings.lotStep, min: product.settings.minLots });
    }
    if (!product.settings.leverages.includes(body.leverage)) {
      throw AppError.badRequest('contracts.leverage_not_offered', { leverages: product.settings.leverages.join(', ') });
    }
    this.checkTargetDigits(product, body);
    const targets = {
      takeProfit: this.normaliseTarget(product, body.takeProfit),
      stopLoss: this.normaliseTarget(product, body.stopLoss),
    };
    const targetProblem = contractTargetsProblem(body.side, quote, targets);
    if (targetProblem) throw AppError.badRequest(`contracts.${targetProblem}`);
    const openPrice = contractOpenPrice(body.side, quote);
    const conversion = conversionFor(product.symbol, openPrice, await this.priceBook(this.db));
    if (!conversion) throw AppError.conflict('contracts.no_conversion', { currency: product.quoteCurrency });
    const margin = contractMargin({
      lots,
      contractSize: product.settings.contractSize,
      price: openPrice,
      leverage: body.leverage,
      conversion,
    });
    const spreadCost = contractSpreadCost({
      lots,
      contractSize: product.settings.contractSize,
      bid: quote.bid,
      ask: quote.ask,
      conversion,
    });
    const id = randomUUID();
    const now = this.now();

    try {
      await this.db.transaction(async (tx) => {
        // The account's balances are locked first: its opens (and their count) go one at a time.
        const balanceOf = await this.ledger.lockBalances(tx, [
          { ownerAccountId: accountId, asset: 'USDT', purpose: 'available' },
          { ownerAccountId: accountId, asset: 'USDT', purpose: 'held' },
        ]);
        const winner = await this.repository.orderByClientKey(tx, memberId, body.idempotencyKey);
        if (winner) return;
        const open = await this.repository.countOpen(tx, accountId);
        if (open >= settings.maxOpenOrders)
          throw AppError.conflict('contracts.too_many_open_orders', { count: settings.maxOpenOrders });
        const available = balanceOf({ ownerAccountId: accountId, asset: 'USDT', purpose: 'available' });
        if (available < money.parseMoney(margin)) {
          throw AppError.conflict('contracts.insufficient_margin', { required: margin, available: money.formatMoney(available) });
        }
        await this.repository.insertOrder(tx, {
          id,
          orderNo: newOrderNo(now, this.options.timeZone),
          memberId,
          accountId,
          productId: product.id,
          parentId: null,
          side: body.side,
          lots,
          leverage: body.leverage,
          contractSize: product.settings.contractSize,
          digits: product.settings.digits,
          openPrice,
          openedAt: now,
          openTickId: quote.tickId,
          margin,
          spreadCost,
          takeProfit: targets.takeProfit,
          stopLoss: targets.stopLoss,
          swap: '0',
          clientKey: body.idempotencyKey,
          requestHash,
          awaitingWalk: true,
        });
        await this.ledger.hold(tx, {
          ownerAccountId: accountId,
          asset: 'USDT',
          amount: money.parseMoney(margin),
          referenceType: ORDER_HOLD,
          referenceId: id,
          recordType: 'contract_margin',
        });
        await this.publishOrder(tx, memberId, { id, orderNo: null, state: 'open', closeReason: null, pnl: null });
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.repository.orderByClientKey(this.db, memberId, body.idempotencyKey);
      if (!winner) throw error;
      return replay(winner);
    }
    // The new order is checked at once against the ticks walked while it was being opened.
    this.walkSoon([product.id]);
    const row = await this.repository.orderByClientKey(this.db, memberId, body.idempotencyKey);
    return replay(row!);
  }

  private async publishOrder(
    tx: Tx,
    memberId: string,
    order: {
      id: string;
      orderNo: string | null;
      state: ContractOrderState;
      closeReason: ContractCloseReason | null;
      pnl: string | null;
    },
  ): Promise<void> {
    let orderNo = order.orderNo;
    if (orderNo === null) orderNo = (await this.repository.order(tx, order.id))?.order_no ?? '';
    await this.memberEvents.publish(tx, memberId, {
      kind: 'contracts.order',
      orderId: order.id,
      orderNo,
      state: order.state,
      closeReason: order.closeReason,
      pnl: order.pnl,
    });
  }

  // ── Close ──

  /**
   * Closes `closeLots` of a locked open order at `quote` and settles it through the ledger: the
   * margin comes back, a profit is paid by the book, a loss goes to the book, and a loss beyond the
   * margin is paid from the account's available USDT (decision 049; see `coverLoss`). A partial close
   * first moves the part's share of the hold to the new closed row.
   * Answers the closed row's id; `null` when the order was no longer open (nothing moved).
   */
  private async settleClose(
    tx: Tx,
    order: OrderRow,
    closeLots: string,
    quote: Quote,
    reason: ContractCloseReason,
    extra: {
      note?: string | null;
      closedBy?: string | null;
      closeKey?: string | null;
      closeHash?: string | null;
      prices?: PriceBook;
      /** Needed to close the account's other orders when a loss goes beyond what the account has. */
      settings?: ContractSettings;
      /** Orders `coverLoss` closed besides this one (the stop-out leaves them out of its count). */
      closedOut?: Set<string>;
    },
  ): Promise<string | null> {
    if (order.state !== 'open') return null;
    const closePrice = contractClosePrice(order.side, quote);
    const prices = extra.prices ?? (await this.priceBook(tx));
    const conversion = conversionFor(order.symbol, closePrice, prices);
    if (!conversion) throw AppError.conflict('contracts.no_conversion', { currency: currenciesOf(order.symbol).quote });
    const full = compareDecimal(closeLots, order.lots) >= 0;
    const lots = full ? lots2(order.lots) : closeLots;
    const margin = contractShare(order.margin, lots, order.lots);
    const swap = contractShare(order.swap, lots, order.lots);
    const spreadCost = contractShare(order.spread_cost, lots, order.lots);
    const pnl = contractPnl({
      side: order.side,
      lots,
      contractSize: order.contract_size,
      openPrice: order.open_price,
      closePrice,
      conversion,
    });
    const settled = await this.coverLoss(tx, order, margin, contractSettledPnl(pnl, swap, margin), {
      prices,
      settings: extra.settings ?? null,
      closedOut: extra.closedOut ?? null,
    });
    const closedAt = this.now();
    const fields: CloseFields = {
      closePrice,
      closedAt,
      closeTickId: quote.tickId,
      reason,
      pnl: settled,
      swap,
      note: extra.note ?? null,
      closedBy: extra.closedBy ?? null,
      closeKey: extra.closeKey ?? null,
      closeHash: extra.closeHash ?? null,
    };
    let closedId = order.id;
    if (full) {
      if (!(await this.repository.closeOrder(tx, order.id, fields))) return null;
    } else {
      closedId = randomUUID();
      const left = {
        lots: contractLotsLeft(order.lots, lots),
        margin: contractSum([order.margin, `-${margin}`]),
        spreadCost: contractSum([order.spread_cost, `-${spreadCost}`]),
        swap: contractSum([order.swap, `-${swap}`]),
      };
      if (!(await this.repository.shrinkOrder(tx, order.id, left))) return null;
      await this.repository.insertOrder(tx, {
        id: closedId,
        orderNo: newOrderNo(closedAt, this.options.timeZone),
        memberId: order.member_id,
        accountId: order.account_id,
        productId: order.product_id,
        parentId: order.id,
        side: order.side,
        lots,
        leverage: order.leverage,
        contractSize: order.contract_size,
        digits: order.digits,
        openPrice: order.open_price,
        openedAt: new Date(order.opened_at),
        openTickId: order.open_tick_id,
        margin,
        spreadCost,
        takeProfit: order.take_profit,
        stopLoss: order.stop_loss,
        swap: '0',
        clientKey: null,
        requestHash: null,
        awaitingWalk: false,
      });
      await this.ledger.moveHold(tx, {
        from: { referenceType: ORDER_HOLD, referenceId: order.id },
        to: { referenceType: ORDER_HOLD, referenceId: closedId },
        amount: money.parseMoney(margin),
        idempotencyKey: `contracts:split:${closedId}`,
        recordType: 'contract_margin',
      });
      if (!(await this.repository.closeOrder(tx, closedId, fields))) throw new Error(`closed part ${closedId} was not open`);
    }
    await this.settleLedger(tx, order.account_id, closedId, margin, settled);
    await this.publishOrder(tx, order.member_id, {
      id: closedId,
      orderNo: null,
      state: 'closed',
      closeReason: reason,
      pnl: settled,
    });
    if (!full)
      await this.publishOrder(tx, order.member_id, {
        id: order.id,
        orderNo: order.order_no,
        state: 'open',
        closeReason: null,
        pnl: null,
      });
    return closedId;
  }

  /** The ledger side of one close (`settlementOf`), its hold read under lock and checked against the margin. */
  private async settleLedger(tx: Tx, accountId: string, closedId: string, margin: string, settled: string): Promise<void> {
    const held = await this.ledger.heldFor(tx, { referenceType: ORDER_HOLD, referenceId: closedId });
    const { settlement, entries } = settlementOf({ id: closedId, accountId, margin, result: settled, held });
    await this.ledger.settleHolds(tx, [settlement], entries);
  }

  /**
   * Cross margin with negative-balance protection per account (decision 049). A result within the
   * order's margin settles as it is. A loss beyond it is paid from the account's available USDT; when
   * that is short and `settings` is given, the account's other open orders on tradable products close
   * at market first (winners first, reason `stop_out`) and what they bring pays too. Whatever the
   * account still cannot pay is written off to the book: the answer is then −(margin + everything the
   * account had). The account's open orders are locked here before its ledger rows (the module's lock
   * order); a caller settling several accounts locks them all before any ledger row.
   */
  private async coverLoss(
    tx: Tx,
    order: OrderRow,
    margin: string,
    result: string,
    options: { prices: PriceBook; settings: ContractSettings | null; closedOut: Set<string> | null },
  ): Promise<string> {
    if (compareDecimal(result, `-${margin}`) >= 0) return result;
    const others = options.settings
      ? (await this.repository.openOrdersOf(tx, order.account_id, { lock: true })).filter(
          (other) => other.id !== order.id && !options.closedOut?.has(other.id),
        )
      : [];
    const available = { ownerAccountId: order.account_id, asset: 'USDT' as const, purpose: 'available' as const };
    let payable = (await this.ledger.lockBalances(tx, [available]))(available);
    const beyond = money.subtract(money.negate(money.parseMoney(result)), money.parseMoney(margin));
    if (payable < beyond && others.length > 0 && options.settings) {
      const figures = await this.priceOrders(tx, others, options.settings, options.prices);
      const winnersFirst = figures
        .filter((figure) => figure.tradable && figure.quote)
        .sort((a, b) => compareDecimal(contractSum([b.pnl, b.swap]), contractSum([a.pnl, a.swap])));
      for (const figure of winnersFirst) {
        // Each of these pays its own loss from what the account has at that point, never more.
        await this.settleClose(tx, figure.order, figure.order.lots, figure.quote!, 'stop_out', { prices: options.prices });
        options.closedOut?.add(figure.order.id);
      }
      payable = (await this.ledger.lockBalances(tx, [available]))(available);
    }
    return resultWithin(result, margin, payable);
  }

  private checkCloseLots(order: OrderRow, product: Product, requested: string | undefined): string {
    if (requested === undefined) return lots2(order.lots);
    const lots = lots2(requested);
    if (compareDecimal(lots, order.lots) > 0)
      throw AppError.badRequest('contracts.close_lots_too_large', { lots: lots2(order.lots) });
    if (compareDecimal(lots, order.lots) === 0) return lots;
    const problem = contractLotsProblem(lots, { ...product.settings, maxLots: order.lots });
    if (problem === 'lots_off_step') {
      throw AppError.badRequest('contracts.lots_off_step', { step: product.settings.lotStep, min: product.settings.minLots });
    }
    if (problem === 'lots_out_of_range') {
      throw AppError.badRequest('contracts.lots_out_of_range', { min: product.settings.minLots, max: lots2(order.lots) });
    }
    if (compareDecimal(contractLotsLeft(order.lots, lots), product.settings.minLots) < 0) {
      throw AppError.badRequest('contracts.close_leaves_too_little', { min: product.settings.minLots });
    }
    return lots;
  }

  /** POST /api/contracts/close: at market, all or part. */
  async close(context: MemberSessionContext, body: z.output<typeof contractCloseRequest>): Promise<ContractCloseResult> {
    const memberId = context.member.id;
    const closeHash = fingerprint({ orderId: body.orderId, lots: body.lots === undefined ? 'all' : lots2(body.lots) });
    const replay = async (closed: OrderRow): Promise<ContractCloseResult> => {
      if (closed.close_hash !== closeHash) throw AppError.conflict('contracts.idempotency_mismatch');
      const live = await this.liveContext(this.db);
      const parentId = closed.parent_id ?? null;
      const remainingRow = parentId ? await this.repository.order(this.db, parentId) : undefined;
      const remaining =
        remainingRow && remainingRow.state === 'open' ? this.orderView(remainingRow, this.liveFor(remainingRow, live)) : null;
      return { closed: this.orderView(closed, null), remaining };
    };
    const earlier = await this.repository.orderByCloseKey(this.db, memberId, body.idempotencyKey);
    if (earlier) return replay(earlier);
    const found = await this.repository.order(this.db, body.orderId);
    if (!found || found.account_id !== context.account.id) throw AppError.notFound();
    if (found.state !== 'open') throw AppError.conflict('contracts.order_closed');
    const settings = await this.settings.get('contracts');
    const product = await this.loadProduct(this.db, found.product_id);
    if (!product) throw AppError.conflict('contracts.product_unavailable');
    const quote = this.requireTradable(product, settings);
    const prices = await this.priceBook(this.db);
    let closedId: string;
    try {
      closedId = await this.db.transaction(async (tx) => {
        const order = await this.repository.order(tx, body.orderId, { lock: true });
        if (!order || order.state !== 'open') throw AppError.conflict('contracts.order_closed');
        const lots = this.checkCloseLots(order, product, body.lots);
        const id = await this.settleClose(tx, order, lots, quote, 'member', {
          closeKey: body.idempotencyKey,
          closeHash,
          prices,
          settings,
        });
        if (!id) throw AppError.conflict('contracts.order_closed');
        return id;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.repository.orderByCloseKey(this.db, memberId, body.idempotencyKey);
      if (!winner) throw error;
      return replay(winner);
    }
    const closed = await this.repository.order(this.db, closedId);
    return replay(closed!);
  }

  /** POST /api/contracts/set_targets */
  async setTargets(context: MemberSessionContext, body: z.output<typeof contractSetTargetsRequest>): Promise<ContractOrder> {
    const found = await this.repository.order(this.db, body.orderId);
    if (!found || found.account_id !== context.account.id) throw AppError.notFound();
    if (found.state !== 'open') throw AppError.conflict('contracts.order_closed');
    const product = await this.loadProduct(this.db, found.product_id);
    if (!product) throw AppError.conflict('contracts.product_unavailable');
    if (!product.quote) throw AppError.conflict('contracts.no_price', { symbol: product.symbol });
    this.checkTargetDigits(product, body);
    const targets = {
      takeProfit: this.normaliseTarget(product, body.takeProfit),
      stopLoss: this.normaliseTarget(product, body.stopLoss),
    };
    const problem = contractTargetsProblem(found.side, product.quote, targets);
    if (problem) throw AppError.badRequest(`contracts.${problem}`);
    await this.db.transaction(async (tx) => {
      const order = await this.repository.order(tx, body.orderId, { lock: true });
      if (!order || order.state !== 'open') throw AppError.conflict('contracts.order_closed');
      await this.repository.setTargets(tx, order.id, targets);
      await this.publishOrder(tx, order.member_id, {
        id: order.id,
        orderNo: order.order_no,
        state: 'open',
        closeReason: null,
        pnl: null,
      });
    });
    return this.orderInfo(context, body.orderId);
  }

  // ── Ticks ──

  /** Product ids by symbol, for the replay and the feed. */
  async contractProductIds(): Promise<Map<string, string>> {
    const rows = await this.repository.allProducts(this.db, this.dayAgo());
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
    const now = this.now();
    const stamped = ticks.map((tick) => ({ ...tick, observedAt: tick.observedAt ?? now }));
    const lastByProduct = new Map<string, (typeof stamped)[number]>();
    for (const tick of stamped) lastByProduct.set(tick.productId, tick);
    const mids = [...lastByProduct.values()].map((tick) => ({
      productId: tick.productId,
      // Eight places: the history's precision; the product's own digits apply when it is shown.
      mid: contractMid(tick.bid, tick.ask, 8),
      observedAt: tick.observedAt,
    }));
    const stored = await this.repository.insertTicks(this.db, stamped, source, { mids, everyMs: MARKET_PRICE_EVERY_MS });
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
    const observedAt = this.now();
    const mids = [{ productId, mid: contractMid(quote.bid, quote.ask, 8), observedAt }];
    const [tick] = await this.repository.insertTicks(tx, [{ productId, bid: quote.bid, ask: quote.ask, observedAt }], 'manual', {
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
  private walkSoon(productIds: string[]): void {
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
        onError: (error) => this.options.logger.error({ err: error, productId }, 'contracts watcher failed'),
      });
      this.walks.set(productId, walk);
    }
    walk.request();
  }

  /** Waits for this instance's walks, settlements and stop-out sweep to end (tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      const running = [...this.walks.values(), this.settlement, this.stopOut]
        .map((run) => run.current)
        .filter((run) => run !== null);
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  /** Every product with ticks not walked yet (the safety net after a restart, and on other instances). */
  async watchAll(): Promise<void> {
    await this.walkProducts(await this.repository.productsBehind());
    // Closes whose settlement a crash or a failure left behind (this instance's or another's).
    if (await this.repository.settlementsDue()) await this.settlePending();
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
        const walks = await this.repository.claimWalks(tx, remaining, WATCH_BATCH);
        const triggered = walks.flatMap((walk) =>
          walk.pricing && walk.candidates.length > 0
            ? this.reachedBy(walk.pricing, walk.earlyTicks, walk.ticks, walk.candidates)
            : [],
        );
        if (triggered.length > 0) {
          // Pairs quoted in USD, and USD/XXX by their own close price, convert without the price book.
          const prices = triggered.some(({ order }) => needsPriceBook(order.symbol))
            ? await this.priceBook(tx)
            : (new Map() as PriceBook);
          closed += await this.closeTriggered(tx, triggered, prices);
        }
        return walks;
      });
      if (closed > 0) this.requestSettlement();
      walked += batch.reduce((sum, walk) => sum + walk.ticks.length, 0);
      remaining = batch.filter((walk) => walk.ticks.length === WATCH_BATCH).map((walk) => walk.productId);
    }
    if (walked > 0) this.requestStopOut();
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
    const closedAt = this.now();
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
    const closed = await this.repository.closeOrders(tx, closes, { awaitingSettlement: true });
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
      for (const accountId of accounts) await this.repository.openOrdersOf(tx, accountId, { lock: true });
      const prices = await this.priceBook(tx);
      const closedOut = new Set<string>();
      for (const order of beyondMargin) {
        const result = await this.coverLoss(tx, order, order.margin, order.pnl!, { prices, settings, closedOut });
        if (result !== order.pnl) await this.repository.setSettledResult(tx, order.id, result);
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
        const orders = await this.repository.claimSettlements(tx, SETTLE_BATCH);
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

  // ── Stop-out ──

  /** Asks for a stop-out sweep on this instance (at most one at a time, at most once a second). */
  requestStopOut(): void {
    this.stopOut.request();
  }

  /** Every account's exact margin level by the last prices, order by order (the console's members at risk). */
  private async accountLevels(): Promise<
    {
      accountId: string;
      memberId: string;
      email: string;
      orders: number;
      usedMargin: string;
      equity: string;
      level: string | null;
    }[]
  > {
    const live = await this.liveContext(this.db);
    const orders = await this.repository.allOpenOrders();
    const byAccount = new Map<string, { memberId: string; email: string; margins: string[]; results: string[] }>();
    for (const [index, order] of orders.entries()) {
      // Ten thousand orders price in tens of milliseconds: walks' answers go between the slices.
      if (index % ORDERS_PER_SLICE === ORDERS_PER_SLICE - 1) await yieldToLoop();
      const entry = byAccount.get(order.account_id) ?? {
        memberId: order.member_id,
        email: order.email,
        margins: [],
        results: [],
      };
      byAccount.set(order.account_id, entry);
      entry.margins.push(order.margin);
      entry.results.push(order.swap);
      const { quote, conversion } = this.liveFor(order, live);
      if (quote && conversion) {
        entry.results.push(
          contractPnl({
            side: order.side,
            lots: order.lots,
            contractSize: order.contract_size,
            openPrice: order.open_price,
            closePrice: contractClosePrice(order.side, quote),
            conversion,
          }),
        );
      }
    }
    return [...byAccount.entries()].map(([accountId, entry]) => {
      const usedMargin = contractSum(entry.margins);
      const equity = contractSum([usedMargin, ...entry.results]);
      return {
        accountId,
        memberId: entry.memberId,
        email: entry.email,
        orders: entry.margins.length,
        usedMargin,
        equity,
        level: contractMarginLevel(equity, usedMargin),
      };
    });
  }

  /**
   * Every account below the stop-out level has its orders closed, biggest loser first, until it is
   * not. The database finds the accounts that may be below (`accountsNearStopOut`, every open order
   * priced at each product's close price, in one statement); each is then checked exactly, order by
   * order, under its lock (`stopOutAccount`). Pricing ten thousand orders here once a second had
   * been the watcher's slowest work, and the tail of its tick-to-trigger times (decision 046).
   */
  async stopOutSweep(): Promise<number> {
    const settings = await this.settings.get('contracts');
    const { products, live } = await this.liveProducts(this.db);
    const closes: CloseQuote[] = [];
    for (const product of products) {
      for (const side of ['buy', 'sell'] as const) {
        const { quote, conversion } = this.liveFor({ side, symbol: product.symbol, product_id: product.id }, live);
        if (quote && conversion)
          closes.push({ productId: product.id, side, closePrice: contractClosePrice(side, quote), conversion });
      }
    }
    let closed = 0;
    for (const accountId of await this.repository.accountsNearStopOut(closes, settings.stopOutLevelPct))
      closed += await this.stopOutAccount(accountId, settings);
    return closed;
  }

  /**
   * One account's stop-out in one transaction: its open orders locked (id order), the level
   * recomputed from them and the last prices, then the biggest loser on a tradable product closed at
   * market, again and again while the level stays below. Orders on a closed market or a stale price
   * are counted but not closed.
   */
  async stopOutAccount(accountId: string, settings: ContractSettings): Promise<number> {
    return this.db.transaction(async (tx) => {
      const orders = await this.repository.openOrdersOf(tx, accountId, { lock: true });
      const prices = await this.priceBook(tx);
      const figures = await this.priceOrders(tx, orders, settings, prices);
      const closedOut = new Set<string>();
      let open = figures;
      let closed = 0;
      for (;;) {
        const usedMargin = contractSum(open.map((figure) => figure.order.margin));
        const equity = contractSum([usedMargin, ...open.flatMap((figure) => [figure.pnl, figure.swap])]);
        if (!contractBelowStopOut(contractMarginLevel(equity, usedMargin), settings.stopOutLevelPct)) break;
        const next = contractStopOutOrder(open.filter((figure) => figure.tradable))[0];
        if (!next || !next.quote) break;
        await this.settleClose(tx, next.order, next.order.lots, next.quote, 'stop_out', { prices, settings, closedOut });
        closed += 1 + closedOut.size;
        // A loss beyond what the account had closes its other orders too (`coverLoss`).
        open = open.filter((figure) => figure !== next && !closedOut.has(figure.order.id));
        closedOut.clear();
      }
      return closed;
    });
  }

  /**
   * Locked open orders priced at their products' last quotes (P&L, swap, whether the product can
   * trade now), for the stop-out and for closing an account's orders to cover a loss.
   */
  private async priceOrders(tx: Tx, orders: readonly OrderRow[], settings: ContractSettings, prices: PriceBook) {
    const productRows = await this.repository.allProducts(tx, this.dayAgo());
    const products = new Map(
      productRows
        .map(productOf)
        .filter((product): product is Product => product !== null)
        .map((product) => [product.id, product]),
    );
    return orders.map((order) => {
      const product = products.get(order.product_id);
      const quote = product?.quote ?? null;
      const closePrice = quote ? contractClosePrice(order.side, quote) : null;
      const conversion = closePrice ? conversionFor(order.symbol, closePrice, prices) : null;
      const pnl =
        closePrice && conversion
          ? contractPnl({
              side: order.side,
              lots: order.lots,
              contractSize: order.contract_size,
              openPrice: order.open_price,
              closePrice,
              conversion,
            })
          : '0';
      const tradable = Boolean(
        product && quote && contractMarketOpen(product.settings.sessions, this.now()) && !this.isStale(quote, settings),
      );
      return { order, quote, pnl, swap: order.swap, openedAt: iso(order.opened_at), orderNo: order.order_no, tradable };
    });
  }

  // ── Swap ──

  /** The last rollover (21:00 UTC) at or before now, and the day it closes. */
  private lastRollover(): { at: Date; day: string } {
    const now = this.now();
    const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), ROLLOVER_HOUR_UTC));
    if (at.getTime() > now.getTime()) at.setUTCDate(at.getUTCDate() - 1);
    return { at, day: at.toISOString().slice(0, 10) };
  }

  /**
   * Charges (or pays) one night's swap on open orders of products with swap on, once per rollover per
   * order (the order's `swap_day`), at the mid price; accrued on the order and settled with its P&L.
   */
  async chargeSwap(): Promise<number> {
    const { at, day } = this.lastRollover();
    const prices = await this.priceBook(this.db);
    let charged = 0;
    for (const row of await this.repository.allProducts(this.db, this.dayAgo())) {
      const product = productOf(row);
      if (!product?.settings.swapEnabled || !product.quote) continue;
      const mid = contractMid(product.quote.bid, product.quote.ask, product.settings.digits);
      const conversion = conversionFor(product.symbol, mid, prices);
      if (!conversion) continue;
      for (;;) {
        const batch = await this.db.transaction(async (tx) => {
          const due = await this.repository.swapDue(tx, product.id, day, at, SWAP_BATCH);
          for (const order of due) {
            const swap = contractSwap({
              lots: order.lots,
              contractSize: order.contract_size,
              price: mid,
              dailyPct: order.side === 'buy' ? product.settings.swapLongPct : product.settings.swapShortPct,
              conversion,
            });
            await this.repository.addSwap(tx, order.id, swap, day);
          }
          return due.length;
        });
        charged += batch;
        if (batch < SWAP_BATCH) break;
      }
    }
    return charged;
  }

  /** Removes walked ticks older than two days (the quotes history keeps the prices). */
  purgeTicks(): Promise<number> {
    return this.repository.purgeTicks(new Date(this.now().getTime() - 2 * 86_400_000));
  }

  // ── Console ──

  async adminSettings(): Promise<ContractSettings> {
    return this.settings.get('contracts');
  }

  async updateSettings(actor: OperatorActor, next: ContractSettings): Promise<ContractSettings> {
    const before = await this.settings.get('contracts');
    await this.db.transaction(async (tx) => {
      await this.settings.set('contracts', next, actor.operatorId, tx);
      await this.audit.record(
        {
          operatorId: actor.operatorId,
          action: 'contracts.settings_updated',
          targetType: 'setting',
          targetId: 'contracts',
          before,
          after: next,
          ip: actor.origin.ip,
          requestId: actor.origin.requestId,
        },
        tx,
      );
    });
    this.requestStopOut();
    return this.settings.get('contracts');
  }

  async adminProducts(): Promise<{ items: AdminContractProduct[] }> {
    const settings = await this.settings.get('contracts');
    const rows = await this.repository.allProducts(this.db, this.dayAgo(), { openOrders: true });
    return {
      items: rows.map((row) => {
        const product = productOf(row);
        return {
          id: row.id,
          symbol: row.symbol,
          displayName: row.display_name,
          enabled: row.enabled,
          quoteSource: row.source,
          settings: product?.settings ?? null,
          bid: product?.quote?.bid ?? null,
          ask: product?.quote?.ask ?? null,
          quotedAt: product?.quote ? product.quote.at.toISOString() : null,
          tickSource: product?.tickSource ?? null,
          stale: product ? this.isStale(product.quote, settings) : false,
          marketOpen: product ? contractMarketOpen(product.settings.sessions, this.now()) : false,
          openOrders: row.open_orders,
        };
      }),
    };
  }

  async updateProduct(actor: OperatorActor, productId: string, input: ContractProductSettings): Promise<{ id: string }> {
    if (contractLotsProblem(input.maxLots, input) !== null && compareDecimal(input.maxLots, input.minLots) !== 0) {
      throw AppError.badRequest('contracts.lots_limits');
    }
    await this.db.transaction(async (tx) => {
      const row = await this.repository.product(tx, productId, this.dayAgo());
      if (!row) throw AppError.notFound('quotes.product_missing');
      if (row.source === 'exchange') throw AppError.badRequest('contracts.exchange_product');
      await this.repository.upsertSettings(tx, productId, input);
      await this.audit.record(
        {
          operatorId: actor.operatorId,
          action: 'contracts.product_updated',
          targetType: 'market_product',
          targetId: productId,
          before: settingsOf(row),
          after: { symbol: row.symbol, ...input },
          ip: actor.origin.ip,
          requestId: actor.origin.requestId,
        },
        tx,
      );
    });
    return { id: productId };
  }

  async book(): Promise<AdminContractBook> {
    const settings = await this.settings.get('contracts');
    const live = await this.liveContext(this.db);
    const orders = await this.repository.allOpenOrders();
    const byProduct = new Map<
      string,
      { symbol: string; count: number; long: string[]; short: string[]; results: string[]; margins: string[] }
    >();
    for (const row of (await this.repository.allProducts(this.db, this.dayAgo())).filter((product) => product.configured)) {
      byProduct.set(row.id, { symbol: row.symbol, count: 0, long: [], short: [], results: [], margins: [] });
    }
    for (const order of orders) {
      const entry = byProduct.get(order.product_id) ?? {
        symbol: order.symbol,
        count: 0,
        long: [],
        short: [],
        results: [],
        margins: [],
      };
      byProduct.set(order.product_id, entry);
      entry.count += 1;
      (order.side === 'buy' ? entry.long : entry.short).push(order.lots);
      entry.margins.push(order.margin);
      entry.results.push(order.swap);
      const { quote, conversion } = this.liveFor(order, live);
      if (quote && conversion) {
        entry.results.push(
          contractPnl({
            side: order.side,
            lots: order.lots,
            contractSize: order.contract_size,
            openPrice: order.open_price,
            closePrice: contractClosePrice(order.side, quote),
            conversion,
          }),
        );
      }
    }
    const exposure: ContractExposure[] = [...byProduct.entries()].map(([productId, entry]) => {
      const longLots = lots2(contractSum(entry.long));
      const shortLots = lots2(contractSum(entry.short));
      return {
        productId,
        symbol: entry.symbol,
        openOrders: entry.count,
        longLots,
        shortLots,
        netLots: lots2(contractSum([longLots, `-${shortLots}`])),
        floatingPnl: contractSum(entry.results),
        marginHeld: contractSum(entry.margins),
      };
    });
    const levels = await this.accountLevels();
    const membersAtRisk: ContractMemberAtRisk[] = levels
      .filter((account) => account.level !== null && compareDecimal(account.level, settings.marginCallLevelPct) < 0)
      .sort((a, b) => compareDecimal(a.level!, b.level!))
      .slice(0, 100)
      .map((account) => ({
        memberId: account.memberId,
        email: account.email,
        openOrders: account.orders,
        usedMargin: account.usedMargin,
        equity: account.equity,
        marginLevel: account.level,
      }));
    return {
      exposure,
      membersAtRisk,
      bookBalance: money4(await this.repository.bookBalance()),
      totals: {
        openOrders: orders.length,
        marginHeld: contractSum(exposure.map((item) => item.marginHeld)),
        floatingPnl: contractSum(exposure.map((item) => item.floatingPnl)),
      },
      stopOutLevelPct: settings.stopOutLevelPct,
      marginCallLevelPct: settings.marginCallLevelPct,
      asOf: this.now().toISOString(),
    };
  }

  private adminView(
    row: OrderRow,
    live: ((productId: string) => { quote: Quote | null; conversion: ContractConversion | null }) | null,
  ): AdminContractOrder {
    const view = this.orderView(row, row.state === 'open' && live ? this.liveFor(row, live) : null);
    return { ...view, memberId: row.member_id, email: row.email };
  }

  async adminOrders(filter: { state?: ContractOrderState; productId?: string; query?: string }, page: number, pageSize: number) {
    const { rows, total } = await this.repository.adminOrders(filter, page, pageSize);
    const live = await this.liveContext(this.db);
    return { items: rows.map((row) => this.adminView(row, live)), total, page, pageSize };
  }

  async adminOrder(id: string): Promise<AdminContractOrder> {
    const row = await this.repository.order(this.db, id);
    if (!row) throw AppError.notFound();
    return this.adminView(row, await this.liveContext(this.db));
  }

  /** POST /api/admin/contracts/orders/:id/close: closes a member's order at market with a reason (audited). */
  async adminClose(actor: OperatorActor, id: string, reason: string): Promise<AdminContractOrder> {
    const found = await this.repository.order(this.db, id);
    if (!found) throw AppError.notFound();
    if (found.state !== 'open') throw AppError.conflict('contracts.order_closed');
    const settings = await this.settings.get('contracts');
    const product = await this.loadProduct(this.db, found.product_id);
    if (!product) throw AppError.conflict('contracts.product_unavailable');
    const quote = this.requireTradable(product, settings);
    await this.db.transaction(async (tx) => {
      const order = await this.repository.order(tx, id, { lock: true });
      if (!order || order.state !== 'open') throw AppError.conflict('contracts.order_closed');
      const closedId = await this.settleClose(tx, order, order.lots, quote, 'operator', {
        note: reason,
        closedBy: actor.operatorId,
        settings,
      });
      if (!closedId) throw AppError.conflict('contracts.order_closed');
      const closed = await this.repository.order(tx, closedId);
      await this.audit.record(
        {
          operatorId: actor.operatorId,
          action: 'contracts.order_closed',
          targetType: 'contract_order',
          targetId: id,
          before: { state: 'open', lots: order.lots, margin: order.margin },
          after: {
            state: 'closed',
            reason,
            closePrice: closed?.close_price ?? null,
            pnl: closed?.pnl ?? null,
            memberId: order.member_id,
          },
          ip: actor.origin.ip,
          requestId: actor.origin.requestId,
        },
        tx,
      );
    });
    return this.adminOrder(id);
  }

  /** Problems between contract orders and their margin holds (empty when every open order holds exactly its margin). */
  async marginProblems(): Promise<{ id: string; problem: string }[]> {
    return this.repository.marginProblems();
  }
}

/** ask − bid in points of `digits`. */
function pointsBetween(bid: string, ask: string, digits: number): number {
  const scale = (value: string) => BigInt(roundDecimal(value, digits, 'halfUp').replace('.', ''));
  return Number(scale(ask) - scale(bid));
}
