import { z } from 'zod';
import { QUOTE_PRICE_PATTERN } from '@custos/contract';

/** One pair as the ticker reported it. */
export interface TickerQuote {
  /** The ticker's symbol, e.g. BTCUSDT. */
  symbol: string;
  lastPrice: string;
  /** Percent over the ticker's rolling 24 h window, as sent (e.g. "-0.541"). */
  priceChangePercent: string;
  /** The end of the window (the quote's time). */
  closeTime: Date;
  /** The best bid and ask when the ticker sends them (contracts trade on them, decision 034). */
  bidPrice?: string;
  askPrice?: string;
}

export interface TickerAnswer {
  quotes: TickerQuote[];
  /** Symbols asked for that came back missing or malformed. */
  rejected: string[];
}

/** Why a fetch gave nothing: the message the console shows. */
export class TickerError extends Error {
  override name = 'TickerError';
}

export interface TickerSource {
  fetch24h(baseUrl: string, symbols: readonly string[], timeoutMs: number): Promise<TickerAnswer>;
}

const PERCENT_PATTERN = /^-?\d{1,7}(?:\.\d{1,8})?$/;
/** The documented fields we read from each element of the answer; the others are ignored. */
const tickerItem = z.object({
  symbol: z.string(),
  lastPrice: z.string().regex(QUOTE_PRICE_PATTERN),
  priceChangePercent: z.string().regex(PERCENT_PATTERN),
  closeTime: z.number().int().positive(),
  bidPrice: z.string().regex(QUOTE_PRICE_PATTERN).optional().catch(undefined),
  askPrice: z.string().regex(QUOTE_PRICE_PATTERN).optional().catch(undefined),
});

const MAX_BODY_BYTES = 1_048_576;

/** Binance's public market-data hosts (spot API and its mirrors, and the data-only endpoint). */
export const DEFAULT_QUOTE_FEED_HOSTS: readonly string[] = [
  'api.binance.com',
  'api1.binance.com',
  'api2.binance.com',
  'api3.binance.com',
  'api4.binance.com',
  'data-api.binance.vision',
];

/**
 * The feed's address as a URL on an allowed host: the console sets the address, so without this an
 * operator's typo (or a stolen session) could point the server at any internal service.
 */
function allowedFeedUrl(baseUrl: string, allowedHosts: ReadonlySet<string>): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TickerError('not an allowed feed address');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TickerError('not an allowed feed address');
  if (url.username || url.password) throw new TickerError('not an allowed feed address');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!allowedHosts.has(host)) throw new TickerError(`not an allowed feed host: ${host}`);
  return url;
}

/** The body as text, given up (and the connection closed) as soon as it passes `maxBytes`. */
async function boundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new TickerError('answer too large');
  }
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new TickerError('answer too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Binance's public market data: `GET /api/v3/ticker/24hr?symbols=["BTCUSDT",…]` answers an array of
 * 24 h rolling-window statistics (`symbol`, `lastPrice`, `priceChangePercent`, `closeTime` in ms, …).
 * No key is needed. The whole call, body included, is bounded by the time-out; anything that is not
 * that shape is an error or a rejected symbol, never a price.
 */
export class BinanceTickerSource implements TickerSource {
  private readonly allowedHosts: ReadonlySet<string>;

  /** `allowedHosts`: the only hosts ever asked (config QUOTE_FEED_HOSTS; Binance's by default). */
  constructor(options: { allowedHosts: readonly string[] } = { allowedHosts: DEFAULT_QUOTE_FEED_HOSTS }) {
    this.allowedHosts = new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  }

  async fetch24h(baseUrl: string, symbols: readonly string[], timeoutMs: number): Promise<TickerAnswer> {
    const base = allowedFeedUrl(baseUrl, this.allowedHosts);
    const url = `${base.href.replace(/\/+$/, '')}/api/v3/ticker/24hr?symbols=${encodeURIComponent(JSON.stringify(symbols))}`;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await fetch(url, {
        signal: controller.signal,
        headers: { accept: 'application/json' },
        redirect: 'error',
      });
      status = response.status;
      text = await boundedText(response, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof TickerError) throw error;
      if (controller.signal.aborted) throw new TickerError(`no answer within ${timeoutMs} ms`);
      throw new TickerError(
        `unreachable: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new TickerError(`HTTP ${status}: the answer is not JSON`);
    }
    if (status !== 200) {
      const message = typeof (body as { msg?: unknown })?.msg === 'string' ? (body as { msg: string }).msg.slice(0, 200) : '';
      throw new TickerError(`HTTP ${status}${message ? `: ${message}` : ''}`);
    }
    if (!Array.isArray(body)) throw new TickerError('the answer is not a list of tickers');
    const wanted = new Set(symbols);
    const quotes = new Map<string, TickerQuote>();
    for (const item of body) {
      const parsed = tickerItem.safeParse(item);
      if (!parsed.success || !wanted.has(parsed.data.symbol) || !/[1-9]/.test(parsed.data.lastPrice)) continue;
      const closeTime = new Date(parsed.data.closeTime);
      if (Number.isNaN(closeTime.getTime())) continue;
      quotes.set(parsed.data.symbol, {
        symbol: parsed.data.symbol,
        lastPrice: parsed.data.lastPrice,
        priceChangePercent: parsed.data.priceChangePercent,
        closeTime,
        ...(parsed.data.bidPrice && parsed.data.askPrice && /[1-9]/.test(parsed.data.bidPrice)
          ? { bidPrice: parsed.data.bidPrice, askPrice: parsed.data.askPrice }
          : {}),
      });
    }
    return { quotes: [...quotes.values()], rejected: symbols.filter((symbol) => !quotes.has(symbol)) };
  }
}
