import { randomInt } from 'node:crypto';
import {
  PAR_CONVERSION,
  contractClosePrice,
  contractMid,
  contractPnl,
  contractQuote,
  roundDecimal,
  type ContractConversion,
  type ContractOrder,
  type ContractProductSettings,
  type ContractTickSource,
} from '@custos/contract';
import type { RequestOrigin } from '../../http/origin.js';
import { localDate } from '../../lib/platform-time.js';
import type { OrderRow } from './orders.repository.js';
import type { ProductRow } from './products.repository.js';

// What the contracts services share (decision 034): the shapes of products, quotes and prices, and
// the pure rules that turn repository rows into them. Nothing here reads the database.

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

export interface Quote {
  tickId: string;
  bid: string;
  ask: string;
  at: Date;
}

/** A contract product as the services use it: settings and the platform quote (mark-up applied). */
export interface Product {
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

/** The last prices by symbol (tick mid, else the quotes history) for converting quote currencies to USDT. */
export type PriceBook = Map<string, string>;

/** An open order's live figures: its product's quote and how its P&L becomes USDT. */
export interface LiveFigures {
  quote: Quote | null;
  conversion: ContractConversion | null;
}

export type LiveLookup = (productId: string) => LiveFigures;

export const iso = (value: Date | string) => new Date(value).toISOString();
export const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));
export const money4 = (value: string) => roundDecimal(value, 4, 'floor');
export const lots2 = (value: string) => roundDecimal(value, 2, 'floor');

export function currenciesOf(symbol: string): { base: string; quote: string } {
  const [base = '', quote = ''] = symbol.split('/');
  return { base, quote };
}

export function settingsOf(row: ProductRow): ContractProductSettings | null {
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

export function productOf(row: ProductRow): Product | null {
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

export function newOrderNo(now: Date, timeZone: string): string {
  const digits = Array.from({ length: 10 }, () => randomInt(10)).join('');
  return `C${localDate(now, timeZone).replace(/-/g, '')}${digits}`;
}

/** Whether a product's P&L converts to USDT through other products' prices (a cross pair). */
export function needsPriceBook(symbol: string): boolean {
  const { quote } = currenciesOf(symbol);
  return quote !== 'USD' && quote !== 'USDT' && symbol !== `USD/${quote}`;
}

/**
 * How a product's quote currency becomes USDT (decision 034): USD and USDT at par; otherwise through
 * USD/XXX (divide: the product's own price when it is that pair) or XXX/USD, XXX/USDT (multiply).
 */
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

/** Lets the event loop run what waits (a walk's answers) between slices of a long computation. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** ask − bid in points of `digits`. */
export function pointsBetween(bid: string, ask: string, digits: number): number {
  const scale = (value: string) => BigInt(roundDecimal(value, digits, 'halfUp').replace('.', ''));
  return Number(scale(ask) - scale(bid));
}

/** An order as members and the console see it; an open one priced at `live` (no live figures without it). */
export function orderView(row: OrderRow, live: LiveFigures | null): ContractOrder {
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
