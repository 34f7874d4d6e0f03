import { z } from 'zod';
import { ValidationReason, requiredText, stringTypeError } from '../validators.js';

/**
 * Market products and their quotes (issue 13, decision 027): RAB/USDT from the platform's own
 * exchange price and the pairs the operator lists, priced by hand or by a public ticker feed. The
 * same products carry the forex contracts of issue 15.
 */

/** Where a product's price comes from; `exchange` is RAB/USDT's alone (the exchange setting). */
export const QUOTE_SOURCES = ['manual', 'feed', 'exchange'] as const;
export type QuoteSource = (typeof QUOTE_SOURCES)[number];
/** What an operator may choose for a pair. */
export const OPERATOR_QUOTE_SOURCES = ['manual', 'feed'] as const;

/** BASE/QUOTE in capitals and digits, e.g. BTC/USDT. */
export const MARKET_SYMBOL_PATTERN = /^[A-Z0-9]{2,12}\/[A-Z0-9]{2,12}$/;
export const RAB_SYMBOL = 'RAB/USDT';
export const MARKET_DISPLAY_NAME_MAX_LENGTH = 40;

/** The ticker's symbol for a pair: BTC/USDT → BTCUSDT. */
export function feedSymbolOf(symbol: string): string {
  return symbol.replace('/', '');
}

/** A price as a positive decimal string with up to 8 places (no floats on the wire or in storage). */
export const QUOTE_PRICE_PATTERN = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,8})?$/;
export const quotePriceSchema = z
  .string({ error: stringTypeError })
  .trim()
  .min(1, { error: ValidationReason.required })
  .regex(QUOTE_PRICE_PATTERN, { error: 'price' })
  .refine((value) => /[1-9]/.test(value), { error: ValidationReason.amountPositive });

/** A signed percentage with two places, e.g. "-1.25". */
export const changePctSchema = z.string().regex(/^-?\d+\.\d{2}$/);

// ── Member call ─────────────────────────────────────────────────────────────────────────────────

/**
 * GET /api/common/forex_products: the products showing on Home, in order, each with its quote.
 * `price` is null while a product has never been priced; `stale` says the feed has not refreshed it
 * within the staleness limit (shown as stale, with its age, never as fresh).
 */
export const forexProduct = z.object({
  id: z.string(),
  symbol: z.string(),
  displayName: z.string(),
  source: z.enum(QUOTE_SOURCES),
  price: z.string().nullable(),
  /** Change over the last 24 h in percent (two places); null when there is nothing to compare with. */
  changePct24h: changePctSchema.nullable(),
  /** When the price was observed (set, changed or reported by the feed). */
  quotedAt: z.iso.datetime().nullable(),
  stale: z.boolean(),
  /** Seconds since `quotedAt` when stale, else null. */
  ageS: z.number().int().nonnegative().nullable(),
});
export type ForexProduct = z.infer<typeof forexProduct>;
export const forexProductsResponse = z.object({
  items: z.array(forexProduct),
  /** The server's time of the answer (ages are measured against it). */
  asOf: z.iso.datetime(),
});
export type ForexProducts = z.infer<typeof forexProductsResponse>;

// ── Console ─────────────────────────────────────────────────────────────────────────────────────

const sortOrderSchema = z
  .number({ error: ValidationReason.invalid })
  .int({ error: ValidationReason.invalid })
  .min(0, { error: ValidationReason.invalid })
  .max(9999, { error: ValidationReason.invalid });

/** POST /api/admin/quotes/products (a new pair) and PUT …/products/:id (RAB/USDT keeps its source). */
export const marketProductRequest = z.object({
  symbol: z
    .string({ error: stringTypeError })
    .trim()
    .toUpperCase()
    .min(1, { error: ValidationReason.required })
    .regex(MARKET_SYMBOL_PATTERN, { error: 'market_symbol' }),
  displayName: requiredText(MARKET_DISPLAY_NAME_MAX_LENGTH),
  sortOrder: sortOrderSchema.default(0),
  enabled: z.boolean({ error: ValidationReason.wrongType }).default(true),
  source: z.enum(QUOTE_SOURCES, { error: ValidationReason.invalid }),
});
export type MarketProductRequest = z.input<typeof marketProductRequest>;

/** POST /api/admin/quotes/products/:id/price: a manual pair's new price. */
export const manualPriceRequest = z.object({ price: quotePriceSchema });

export const marketProductParams = z.object({ id: z.uuid({ error: ValidationReason.invalid }) });

/** The ticker feed (Binance's public `GET /api/v3/ticker/24hr`): off until an operator turns it on. */
export const quoteFeedSettingsSchema = z.object({
  enabled: z.boolean({ error: ValidationReason.wrongType }),
  baseUrl: z
    .string({ error: stringTypeError })
    .trim()
    .min(1, { error: ValidationReason.required })
    .max(200, { error: ValidationReason.tooLong })
    .refine(isFeedBaseUrl, { error: 'feed_url' }),
  timeoutMs: z
    .number({ error: ValidationReason.invalid })
    .int({ error: ValidationReason.invalid })
    .min(500, { error: 'timeout_range' })
    .max(30_000, { error: 'timeout_range' }),
  /** A feed quote older than this shows as stale. */
  staleAfterS: z
    .number({ error: ValidationReason.invalid })
    .int({ error: ValidationReason.invalid })
    .min(60, { error: 'stale_range' })
    .max(86_400, { error: 'stale_range' }),
  /** One fetch per interval across every instance. */
  intervalS: z
    .number({ error: ValidationReason.invalid })
    .int({ error: ValidationReason.invalid })
    .min(60, { error: 'interval_range' })
    .max(3600, { error: 'interval_range' }),
});
export type QuoteFeedSettings = z.infer<typeof quoteFeedSettingsSchema>;

/** An http(s) origin with an optional path, no credentials, query or fragment. */
export function isFeedBaseUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.hostname !== '' &&
      url.username === '' &&
      url.password === '' &&
      url.search === '' &&
      url.hash === ''
    );
  } catch {
    return false;
  }
}

export const adminMarketProduct = z.object({
  id: z.string(),
  symbol: z.string(),
  displayName: z.string(),
  sortOrder: z.number().int(),
  enabled: z.boolean(),
  source: z.enum(QUOTE_SOURCES),
  price: z.string().nullable(),
  changePct24h: changePctSchema.nullable(),
  quotedAt: z.iso.datetime().nullable(),
  stale: z.boolean(),
  updatedAt: z.iso.datetime(),
});
export type AdminMarketProduct = z.infer<typeof adminMarketProduct>;

export const quoteFeedStatus = z.object({
  lastAttemptAt: z.iso.datetime().nullable(),
  lastSuccessAt: z.iso.datetime().nullable(),
  /** The last run's problem (null when it went well). */
  lastError: z.string().nullable(),
  /** How many pairs the last run priced. */
  lastUpdated: z.number().int().nonnegative(),
});
export type QuoteFeedStatus = z.infer<typeof quoteFeedStatus>;

/** GET /api/admin/quotes: every product with its quote, the feed's settings and its last run. */
export const adminQuotesResponse = z.object({
  products: z.array(adminMarketProduct),
  feed: quoteFeedSettingsSchema,
  feedStatus: quoteFeedStatus,
});
export type AdminQuotes = z.infer<typeof adminQuotesResponse>;
export const savedProductResponse = z.object({ id: z.string() });
