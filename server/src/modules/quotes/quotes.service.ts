import {
  RAB_SYMBOL,
  feedSymbolOf,
  type AdminMarketProduct,
  type AdminQuotes,
  type ForexProduct,
  type ForexProducts,
  type marketProductRequest,
  type QuoteFeedSettings,
} from '@custos/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { normaliseDecimal } from '../../lib/fingerprint.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { Clock } from '../../lib/clock.js';
import type { SettingsService } from '../settings/settings.service.js';
import { TickerError, type TickerQuote, type TickerSource } from './binance-ticker.js';
import type { ProductRow, QuotedProductRow, QuotesRepository } from './quotes.repository.js';

/** How far in the future a feed's close time may be (clock skew) before the quote is refused. */
const FEED_FUTURE_TOLERANCE_MS = 60_000;
/** At most this many pairs per request (the ticker's own limit is far above). */
const MAX_FEED_SYMBOLS = 100;

export type ProductInput = z.infer<typeof marketProductRequest>;

/** Told of the feed's accepted quotes after they are stored (contracts make bid/ask ticks of them, decision 034). */
export type FeedQuotesListener = (quotes: readonly { productId: string; quote: TickerQuote }[]) => Promise<void>;

export interface FeedRunResult {
  /** False when the feed is off, has no pairs, or another run has this interval. */
  fetched: boolean;
  updated: number;
  error: string | null;
}

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function productSnapshot(row: ProductRow) {
  return {
    symbol: row.symbol,
    displayName: row.display_name,
    sortOrder: row.sort_order,
    enabled: row.enabled,
    source: row.source,
  };
}

/**
 * Home quotes (issue 13, decision 027): RAB/USDT follows the exchange price; other pairs are priced
 * by the operator or by the ticker feed. Every price is a history row, so the 24 h change is honest;
 * a feed price older than the staleness limit says so, with its age.
 */
export class QuotesService {
  private readonly feedListeners: FeedQuotesListener[] = [];

  constructor(
    private readonly db: Db,
    private readonly repository: QuotesRepository,
    private readonly settings: SettingsService,
    private readonly audit: AuditRepository,
    private readonly ticker: TickerSource,
    private readonly clock: Clock,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /** Adds a listener to the feed's accepted quotes (a listener's failure is logged, never the feed's). */
  onFeedQuotes(listener: FeedQuotesListener): void {
    this.feedListeners.push(listener);
  }

  /** RAB/USDT's history follows the exchange setting (its change time, not the time we noticed). */
  async followExchangePrice(): Promise<void> {
    const { value, updatedAt } = await this.settings.getStamped('exchange');
    // The database stamps the setting; the platform's clock (moved in tests) never sees it in its future.
    const now = this.clock.now();
    const changedAt = updatedAt && updatedAt.getTime() <= now.getTime() ? updatedAt : now;
    await this.repository.followExchangePrice(normaliseDecimal(value.rabPriceUsdt), changedAt);
  }

  private quoteOf(row: QuotedProductRow, now: Date, staleAfterS: number) {
    const observedAt = row.observed_at === null ? null : new Date(row.observed_at);
    const ageS = observedAt ? Math.max(0, Math.floor((now.getTime() - observedAt.getTime()) / 1000)) : null;
    // Only the feed goes stale: a manual or exchange price stands until it is changed.
    const stale = row.source === 'feed' && row.price !== null && ageS !== null && ageS > staleAfterS;
    return {
      price: row.price === null ? null : normaliseDecimal(row.price),
      changePct24h: row.change_pct_24h,
      quotedAt: observedAt ? observedAt.toISOString() : null,
      stale,
      ageS: stale ? ageS : null,
    };
  }

  /** GET /api/common/forex_products: what Home shows. */
  async forexProducts(): Promise<ForexProducts> {
    await this.followExchangePrice();
    const now = this.clock.now();
    const { staleAfterS } = await this.settings.get('quotes_feed');
    const rows = await this.repository.listQuoted(now, { enabledOnly: true });
    const items: ForexProduct[] = rows.map((row) => ({
      id: row.id,
      symbol: row.symbol,
      displayName: row.display_name,
      source: row.source,
      ...this.quoteOf(row, now, staleAfterS),
    }));
    return { items, asOf: now.toISOString() };
  }

  async adminQuotes(): Promise<AdminQuotes> {
    await this.followExchangePrice();
    const now = this.clock.now();
    const feed = await this.settings.get('quotes_feed');
    const rows = await this.repository.listQuoted(now, { enabledOnly: false });
    const products: AdminMarketProduct[] = rows.map((row) => {
      const quote = this.quoteOf(row, now, feed.staleAfterS);
      return {
        id: row.id,
        symbol: row.symbol,
        displayName: row.display_name,
        sortOrder: row.sort_order,
        enabled: row.enabled,
        source: row.source,
        price: quote.price,
        changePct24h: quote.changePct24h,
        quotedAt: quote.quotedAt,
        stale: quote.stale,
        updatedAt: new Date(row.updated_at).toISOString(),
      };
    });
    const state = await this.repository.feedState();
    return {
      products,
      feed,
      feedStatus: {
        lastAttemptAt: iso(state?.last_attempt_at ?? null),
        lastSuccessAt: iso(state?.last_success_at ?? null),
        lastError: state?.last_error ?? null,
        lastUpdated: state?.last_updated ?? 0,
      },
    };
  }

  async createProduct(operatorId: string, input: ProductInput, origin: RequestOrigin): Promise<{ id: string }> {
    if (input.source === 'exchange') throw AppError.badRequest('quotes.exchange_source');
    return this.db.transaction(async (tx) => {
      const row = await this.repository.insertProduct(tx, input);
      if (!row) throw AppError.conflict('quotes.symbol_taken', { symbol: input.symbol });
      await this.audit.record(
        {
          operatorId,
          action: 'quotes.product_created',
          targetType: 'market_product',
          targetId: row.id,
          after: productSnapshot(row),
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return { id: row.id };
    });
  }

  async updateProduct(operatorId: string, id: string, input: ProductInput, origin: RequestOrigin): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      const before = await this.repository.findProduct(tx, id);
      if (!before) throw AppError.notFound('quotes.product_missing');
      // RAB/USDT keeps its source and symbol; no other pair may take the exchange's price.
      const isExchange = before.source === 'exchange';
      if (isExchange !== (input.source === 'exchange') || (isExchange && input.symbol !== RAB_SYMBOL)) {
        throw AppError.badRequest('quotes.exchange_source');
      }
      const row = await this.repository.updateProduct(tx, id, input);
      if (!row) throw AppError.conflict('quotes.symbol_taken', { symbol: input.symbol });
      await this.audit.record(
        {
          operatorId,
          action: 'quotes.product_updated',
          targetType: 'market_product',
          targetId: id,
          before: productSnapshot(before),
          after: productSnapshot(row),
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return { id };
    });
  }

  /** A manual pair's new price, in force from now (its history row is what the 24 h change reads). */
  async setManualPrice(
    operatorId: string,
    id: string,
    price: string,
    origin: RequestOrigin,
    /** The demo seed's history only (a price from a day ago); the console always prices as of now. */
    options: { ageMs?: number } = {},
  ): Promise<{ id: string }> {
    const normalised = normaliseDecimal(price);
    const observedAt = new Date(this.clock.now().getTime() - (options.ageMs ?? 0));
    return this.db.transaction(async (tx) => {
      const product = await this.repository.findProduct(tx, id);
      if (!product) throw AppError.notFound('quotes.product_missing');
      if (product.source !== 'manual') throw AppError.conflict('quotes.not_manual');
      await this.repository.insertPrice(tx, {
        productId: id,
        price: normalised,
        changePct24h: null,
        source: 'manual',
        observedAt,
      });
      await this.audit.record(
        {
          operatorId,
          action: 'quotes.price_set',
          targetType: 'market_product',
          targetId: id,
          after: { symbol: product.symbol, price: normalised, observedAt: observedAt.toISOString() },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return { id };
    });
  }

  async updateFeed(operatorId: string, next: QuoteFeedSettings, origin: RequestOrigin): Promise<QuoteFeedSettings> {
    const before = await this.settings.get('quotes_feed');
    await this.db.transaction(async (tx) => {
      await this.settings.set('quotes_feed', next, operatorId, tx);
      await this.audit.record(
        {
          operatorId,
          action: 'quotes.feed_updated',
          targetType: 'setting',
          targetId: 'quotes_feed',
          before,
          after: next,
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return this.settings.get('quotes_feed');
  }

  /**
   * The job (every minute on whichever instance takes it): follows the exchange price, then, when
   * the feed is on, fetches once per interval — the interval slot is claimed in the database, so
   * several instances (or a repeated job) make one request per interval.
   */
  async runScheduled(): Promise<FeedRunResult> {
    await this.followExchangePrice();
    const feed = await this.settings.get('quotes_feed');
    if (!feed.enabled) return { fetched: false, updated: 0, error: null };
    const slot = Math.floor(this.clock.now().getTime() / 1000 / feed.intervalS);
    if (!(await this.repository.claimFeedSlot(slot))) return { fetched: false, updated: 0, error: null };
    return this.fetchFeed(feed);
  }

  /** The console's "fetch now" (audited); works while the feed is off, to try its settings. */
  async fetchNow(operatorId: string, origin: RequestOrigin): Promise<FeedRunResult> {
    const result = await this.fetchFeed(await this.settings.get('quotes_feed'));
    await this.audit.record({
      operatorId,
      action: 'quotes.feed_fetched',
      targetType: 'setting',
      targetId: 'quotes_feed',
      after: result,
      ip: origin.ip,
      requestId: origin.requestId,
    });
    return result;
  }

  /**
   * One request for every enabled feed pair. A failure (time-out, unreachable, not the ticker's
   * shape) changes no price: the last good value stays, with its time, and goes stale by itself.
   */
  private async fetchFeed(feed: QuoteFeedSettings): Promise<FeedRunResult> {
    const attemptAt = this.clock.now();
    const products = (await this.repository.feedProducts()).slice(0, MAX_FEED_SYMBOLS);
    if (products.length === 0) {
      await this.repository.recordFeedRun(this.db, {
        attemptAt,
        succeeded: false,
        error: 'no enabled pair uses the feed',
        updated: 0,
      });
      return { fetched: false, updated: 0, error: 'no enabled pair uses the feed' };
    }
    const bySymbol = new Map(products.map((product) => [feedSymbolOf(product.symbol), product]));
    try {
      const answer = await this.ticker.fetch24h(feed.baseUrl, [...bySymbol.keys()], feed.timeoutMs);
      const latest = attemptAt.getTime() + FEED_FUTURE_TOLERANCE_MS;
      const accepted = answer.quotes.filter((quote) => quote.closeTime.getTime() <= latest);
      const refused = [
        ...answer.rejected,
        ...answer.quotes.filter((quote) => !accepted.includes(quote)).map((quote) => quote.symbol),
      ];
      const error = refused.length > 0 ? `missing or malformed: ${refused.sort().join(', ')}` : null;
      await this.db.transaction(async (tx) => {
        for (const quote of accepted) {
          await this.repository.insertPrice(tx, {
            productId: bySymbol.get(quote.symbol)!.id,
            price: normaliseDecimal(quote.lastPrice),
            changePct24h: quote.priceChangePercent,
            source: 'feed',
            observedAt: quote.closeTime,
          });
        }
        await this.repository.recordFeedRun(tx, { attemptAt, succeeded: accepted.length > 0, error, updated: accepted.length });
      });
      const told = accepted.map((quote) => ({ productId: bySymbol.get(quote.symbol)!.id, quote }));
      for (const listener of this.feedListeners) {
        await listener(told).catch((failure: unknown) => this.logger.warn({ err: failure }, 'a feed listener failed'));
      }
      return { fetched: true, updated: accepted.length, error };
    } catch (error) {
      if (!(error instanceof TickerError)) throw error;
      this.logger.warn({ err: error.message, baseUrl: feed.baseUrl }, 'quotes feed failed');
      await this.repository.recordFeedRun(this.db, { attemptAt, succeeded: false, error: error.message, updated: 0 });
      return { fetched: true, updated: 0, error: error.message };
    }
  }
}
