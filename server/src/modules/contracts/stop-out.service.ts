import {
  contractBelowStopOut,
  contractClosePrice,
  contractMarginLevel,
  contractStopOutOrder,
  contractSum,
  type ContractSettings,
} from '@custos/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { CoalescedRun } from '../../lib/coalesced-run.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { CloseQuote, ContractOrdersRepository } from './orders.repository.js';
import { yieldToLoop } from './model.js';
import type { ContractsCloser } from './order-close.js';
import type { ContractsPricing } from './pricing.js';

/** The stop-out sweep runs at most once a second per instance (it reads every open order). */
const STOP_OUT_MIN_INTERVAL_MS = 1000;
/** Open orders priced between two turns of the event loop in the stop-out sweep. */
const ORDERS_PER_SLICE = 500;

/**
 * Stop-out (decisions 034, 046, 049): every account's margin level, the sweep that closes the
 * biggest losers of an account below the stop-out level until it is not, and the levels the
 * console's members at risk are read from.
 */
export class ContractsStopOutService {
  /** The stop-out sweep on this instance: at most once a second. */
  private readonly run = new CoalescedRun(
    async () => {
      const waitMs = this.lastStopOutMs + STOP_OUT_MIN_INTERVAL_MS - Date.now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      this.lastStopOutMs = Date.now();
      await this.stopOutSweep();
    },
    {
      stopped: () => this.stopped,
      onError: (error) => this.logger.error({ err: error }, 'contracts stop-out sweep failed'),
    },
  );
  private lastStopOutMs = 0;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly orders: ContractOrdersRepository,
    private readonly settings: SettingsService,
    private readonly pricing: ContractsPricing,
    private readonly closer: ContractsCloser,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /** The sweep running on this instance, if any (the watcher's `idle` waits for it). */
  get current(): Promise<void> | null {
    return this.run.current;
  }

  /** No sweep starts after this (shutdown). */
  halt(): void {
    this.stopped = true;
  }

  /** Asks for a stop-out sweep on this instance (at most one at a time, at most once a second). */
  request(): void {
    this.run.request();
  }

  /** Every account's exact margin level by the last prices, order by order (the console's members at risk). */
  async accountLevels(): Promise<
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
    const live = await this.pricing.liveContext(this.db);
    const orders = await this.orders.allOpenOrders();
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
      const pnl = this.pricing.livePnl(order, live);
      if (pnl !== null) entry.results.push(pnl);
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
    const { products, live } = await this.pricing.liveProducts(this.db);
    const closes: CloseQuote[] = [];
    for (const product of products) {
      for (const side of ['buy', 'sell'] as const) {
        const { quote, conversion } = this.pricing.liveFor({ side, symbol: product.symbol, product_id: product.id }, live);
        if (quote && conversion)
          closes.push({ productId: product.id, side, closePrice: contractClosePrice(side, quote), conversion });
      }
    }
    let closed = 0;
    for (const accountId of await this.orders.accountsNearStopOut(closes, settings.stopOutLevelPct))
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
      const orders = await this.orders.openOrdersOf(tx, accountId, { lock: true });
      const prices = await this.pricing.priceBook(tx);
      const figures = await this.pricing.priceOrders(tx, orders, settings, prices);
      const closedOut = new Set<string>();
      let open = figures;
      let closed = 0;
      for (;;) {
        const usedMargin = contractSum(open.map((figure) => figure.order.margin));
        const equity = contractSum([usedMargin, ...open.flatMap((figure) => [figure.pnl, figure.swap])]);
        if (!contractBelowStopOut(contractMarginLevel(equity, usedMargin), settings.stopOutLevelPct)) break;
        const next = contractStopOutOrder(open.filter((figure) => figure.tradable))[0];
        if (!next || !next.quote) break;
        await this.closer.settleClose(tx, next.order, next.order.lots, next.quote, 'stop_out', { prices, settings, closedOut });
        closed += 1 + closedOut.size;
        // A loss beyond what the account had closes its other orders too (`coverLoss`).
        open = open.filter((figure) => figure !== next && !closedOut.has(figure.order.id));
        closedOut.clear();
      }
      return closed;
    });
  }
}
