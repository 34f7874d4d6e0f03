import {
  compareDecimal,
  contractClosePrice,
  contractLotsLeft,
  contractLotsProblem,
  contractLotsSchema,
  contractMargin,
  contractOpenPrice,
  contractPnl,
  contractPriceSchema,
  contractSpreadCost,
  contractSum,
  contractTargetsProblem,
  decimalPlaces,
  PAR_CONVERSION,
  type ContractConversion,
  type ContractOrder,
  type ContractProduct,
  type ContractQuoteEvent,
  type ContractSession,
  type ContractSide,
  type Locale,
  type MessageKey,
} from '@custos/contract';
import { fieldLabel, isMessageKey, translate } from '../../lib/i18n/server-messages';
import { displayMoney } from '../../lib/format/money';

/**
 * The contracts segment's screen logic (decision 035): every figure comes from the contract's own
 * formulas (decision 034), on decimal strings, never through floating point, so the preview a member
 * sees is the figure the server will hold.
 */

type Quote = { bid: string; ask: string };

const text = (locale: Locale, key: MessageKey, values?: Record<string, string | number>) => translate(locale, key, values);

/** The server's wording for a refused field format: "<field>: <reason>", or "please enter <field>" when empty. */
function formatProblem(locale: Locale, field: string, reason: string): string {
  const key = `reason.${reason}`;
  const reasonKey = isMessageKey(key) ? key : 'reason.invalid';
  const label = fieldLabel(locale, field);
  const said = translate(locale, reasonKey, { field: label });
  return reasonKey === 'reason.required' ? said : translate(locale, 'field_error', { field: label, reason: said });
}

/** A contract message of the server by its code (`contracts.<code>`), or the generic refusal when this build lacks it. */
function contractMessage(locale: Locale, code: string, values?: Record<string, string | number>): string {
  const key = `contracts.${code}`;
  return isMessageKey(key) ? text(locale, key, values) : text(locale, 'reason.invalid');
}

/**
 * How an amount in the product's quote currency becomes USDT at `ownPrice`, as the server does it
 * (decision 034): USD and USDT at par; a USD/XXX pair divides by its own price (the open price when
 * opening, the close price when valuing); any other pair by the rate the products call answered.
 */
export function conversionAt(symbol: string, conversion: ContractConversion | null, ownPrice: string): ContractConversion | null {
  const [base, quote] = symbol.split('/');
  if (quote === 'USD' || quote === 'USDT') return PAR_CONVERSION;
  if (base === 'USD') return { op: 'div', rate: ownPrice };
  return conversion;
}

/** Trims a lots figure for display: "0.10" → "0.1", "1.00" → "1". */
export function displayLots(lots: string): string {
  return lots.includes('.') ? lots.replace(/0+$/, '').replace(/\.$/, '') : lots;
}

/**
 * Why a lot size cannot be opened (or closed) on a product, in the server's words, or null: the
 * format (positive, at most two places), then the product's minimum, maximum and step.
 */
export function lotsProblem(
  value: string,
  limits: Pick<ContractProduct, 'minLots' | 'lotStep' | 'maxLots'>,
  locale: Locale,
): string | null {
  const parsed = contractLotsSchema.safeParse(value);
  if (!parsed.success) return formatProblem(locale, 'lots', parsed.error.issues[0]?.message ?? 'invalid');
  const problem = contractLotsProblem(parsed.data, limits);
  if (problem === 'lots_out_of_range') {
    return contractMessage(locale, problem, { min: displayLots(limits.minLots), max: displayLots(limits.maxLots) });
  }
  if (problem === 'lots_off_step') {
    return contractMessage(locale, problem, { step: displayLots(limits.lotStep), min: displayLots(limits.minLots) });
  }
  return null;
}

/**
 * How many lots of an open order may be closed: all of it, or a part on the product's step that leaves
 * at least the minimum open (the server's rules and words).
 */
export function closeLotsProblem(
  value: string,
  order: Pick<ContractOrder, 'lots'>,
  limits: Pick<ContractProduct, 'minLots' | 'lotStep'>,
  locale: Locale,
): string | null {
  const parsed = contractLotsSchema.safeParse(value);
  if (!parsed.success) return formatProblem(locale, 'lots', parsed.error.issues[0]?.message ?? 'invalid');
  const versus = compareDecimal(parsed.data, order.lots);
  if (versus === 0) return null;
  if (versus > 0) return contractMessage(locale, 'close_lots_too_large', { lots: displayLots(order.lots) });
  if (compareDecimal(contractLotsLeft(order.lots, parsed.data), limits.minLots) < 0) {
    return contractMessage(locale, 'close_leaves_too_little', { min: displayLots(limits.minLots) });
  }
  return lotsProblem(parsed.data, { minLots: limits.minLots, lotStep: limits.lotStep, maxLots: order.lots }, locale);
}

/** "Not enough free margin" in the server's words, when the preview's margin is more than the free margin. */
export function marginProblem(preview: OpenPreview | null, freeMargin: string, locale: Locale): string | null {
  if (!preview || preview.enough) return null;
  return contractMessage(locale, 'insufficient_margin', {
    required: displayMoney(preview.margin),
    available: displayMoney(freeMargin),
  });
}

export interface TargetProblems {
  takeProfit?: string;
  stopLoss?: string;
}

/**
 * Take-profit and stop-loss as typed ("" = none): each a price with at most the product's digits,
 * then on the right side of the price the order would close at now (a buy's take-profit above the
 * bid and stop-loss below it; a sell's the other way round against the ask).
 */
export function targetProblems(
  side: ContractSide,
  quote: Quote | null,
  product: { symbol: string; digits: number },
  targets: { takeProfit: string; stopLoss: string },
  locale: Locale,
): TargetProblems {
  const problems: TargetProblems = {};
  const parsed: { takeProfit: string | null; stopLoss: string | null } = { takeProfit: null, stopLoss: null };
  for (const field of ['takeProfit', 'stopLoss'] as const) {
    const typed = targets[field].trim();
    if (typed === '') continue;
    const result = contractPriceSchema.safeParse(typed);
    if (!result.success) {
      problems[field] = formatProblem(locale, field, result.error.issues[0]?.message ?? 'invalid');
    } else if (decimalPlaces(result.data) > product.digits) {
      problems[field] = contractMessage(locale, 'price_digits', { symbol: product.symbol, digits: product.digits });
    } else {
      parsed[field] = result.data;
    }
  }
  if (!quote) return problems;
  // Each target against the price on its own, so both can be told at once.
  if (parsed.takeProfit !== null && !problems.takeProfit) {
    const problem = contractTargetsProblem(side, quote, { takeProfit: parsed.takeProfit, stopLoss: null });
    if (problem) problems.takeProfit = contractMessage(locale, problem);
  }
  if (parsed.stopLoss !== null && !problems.stopLoss) {
    const problem = contractTargetsProblem(side, quote, { takeProfit: null, stopLoss: parsed.stopLoss });
    if (problem) problems.stopLoss = contractMessage(locale, problem);
  }
  return problems;
}

export interface OpenPreview {
  /** The price the order opens at now: ask for a buy, bid for a sell. */
  price: string;
  margin: string;
  spreadCost: string;
  /** Free margin once this order's margin is held (negative: not enough, the server refuses). */
  freeMarginAfter: string;
  enough: boolean;
}

/**
 * What opening would hold now: margin = lots × contract size × open price ÷ leverage in USDT
 * (rounded up), the spread's cost (rounded up) and the free margin left. Null while the lots are not
 * valid or the product has no price or conversion.
 */
export function openPreview(
  product: Pick<ContractProduct, 'symbol' | 'bid' | 'ask' | 'contractSize' | 'conversion' | 'minLots' | 'lotStep' | 'maxLots'>,
  side: ContractSide,
  lots: string,
  leverage: number,
  freeMargin: string,
): OpenPreview | null {
  if (product.bid === null || product.ask === null) return null;
  const parsed = contractLotsSchema.safeParse(lots);
  if (!parsed.success || contractLotsProblem(parsed.data, product) !== null) return null;
  const quote = { bid: product.bid, ask: product.ask };
  const price = contractOpenPrice(side, quote);
  const conversion = conversionAt(product.symbol, product.conversion, price);
  if (conversion === null) return null;
  const margin = contractMargin({ lots: parsed.data, contractSize: product.contractSize, price, leverage, conversion });
  const spreadCost = contractSpreadCost({ lots: parsed.data, contractSize: product.contractSize, ...quote, conversion });
  const freeMarginAfter = contractSum([freeMargin, `-${margin}`]);
  return { price, margin, spreadCost, freeMarginAfter, enough: !freeMarginAfter.startsWith('-') };
}

/**
 * An open order valued at the latest quote: the price it would close at and its floating P&L with
 * the accrued swap (what the server's pending list says at the same quote). Without a quote or a
 * conversion, the server's last figures stay.
 */
export function liveOrder(
  order: ContractOrder,
  product: Pick<ContractProduct, 'bid' | 'ask' | 'conversion'> | undefined,
): { closePrice: string | null; pnl: string | null } {
  if (!product || product.bid === null || product.ask === null) return { closePrice: order.closePrice, pnl: order.pnl };
  const closePrice = contractClosePrice(order.side, { bid: product.bid, ask: product.ask });
  const conversion = conversionAt(order.symbol, product.conversion, closePrice);
  if (conversion === null) return { closePrice: order.closePrice, pnl: order.pnl };
  const pnl = contractPnl({
    side: order.side,
    lots: order.lots,
    contractSize: order.contractSize,
    openPrice: order.openPrice,
    closePrice,
    conversion,
  });
  return { closePrice, pnl: contractSum([pnl, order.swap]) };
}

/** The P&L of closing `lots` of an order now (swap not included): what the close sheet estimates. */
export function closeEstimate(
  order: ContractOrder,
  product: Pick<ContractProduct, 'bid' | 'ask' | 'conversion'> | undefined,
  lots: string,
): string | null {
  if (!product || product.bid === null || product.ask === null) return null;
  if (!contractLotsSchema.safeParse(lots).success || compareDecimal(lots, order.lots) > 0) return null;
  const closePrice = contractClosePrice(order.side, { bid: product.bid, ask: product.ask });
  const conversion = conversionAt(order.symbol, product.conversion, closePrice);
  if (conversion === null) return null;
  return contractPnl({
    side: order.side,
    lots,
    contractSize: order.contractSize,
    openPrice: order.openPrice,
    closePrice,
    conversion,
  });
}

/** The products list with one streamed quote applied (a quote older than the one shown is ignored). */
export function applyQuote<T extends Pick<ContractProduct, 'id' | 'bid' | 'ask' | 'quotedAt' | 'stale'>>(
  products: readonly T[],
  quote: ContractQuoteEvent,
): T[] {
  return products.map((product) =>
    product.id === quote.productId && (product.quotedAt === null || product.quotedAt <= quote.quotedAt)
      ? { ...product, bid: quote.bid, ask: quote.ask, quotedAt: quote.quotedAt, stale: false }
      : product,
  );
}

/** The account's floating P&L and equity with every open order valued at the latest quotes. */
export function liveAccount(
  info: { usedMargin: string; floatingPnl: string },
  orders: readonly ContractOrder[],
  products: readonly ContractProduct[],
): { floatingPnl: string; equity: string } {
  if (orders.length === 0) return { floatingPnl: info.floatingPnl, equity: contractSum([info.usedMargin, info.floatingPnl]) };
  const byId = new Map(products.map((product) => [product.id, product]));
  const floatingPnl = contractSum(orders.map((order) => liveOrder(order, byId.get(order.productId)).pnl ?? '0'));
  return { floatingPnl, equity: contractSum([info.usedMargin, floatingPnl]) };
}

/** A price for display: the server's string with its whole part grouped ("1,950.25", "157.123"); "—" when none. */
export function displayPrice(price: string | null): string {
  if (price === null) return '—';
  const [whole = '', fraction] = price.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** Whether a signed amount is a gain, a loss or nothing (for colour). */
export function pnlDirection(amount: string | null): 'up' | 'down' | 'flat' {
  if (amount === null) return 'flat';
  if (amount.startsWith('-')) return 'down';
  return /[1-9]/.test(amount) ? 'up' : 'flat';
}

/**
 * The trading sessions (UTC) in a line: consecutive days with the same hours grouped, weekdays in the
 * member's language ("Mon–Thu 00:00–24:00 · Fri 00:00–22:00"), or null when the market is open
 * around the clock every day.
 */
export function sessionsSummary(sessions: readonly ContractSession[], locale: Locale): string | null {
  const always = [0, 1, 2, 3, 4, 5, 6].every((day) =>
    sessions.some((s) => s.day === day && s.open === '00:00' && s.close === '24:00'),
  );
  if (always) return null;
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  // 2024-01-07 was a Sunday (day 0); Monday first, as trading weeks are read.
  const name = (day: number) => weekday.format(new Date(Date.UTC(2024, 0, 7 + day)));
  const byDay = [1, 2, 3, 4, 5, 6, 0].map((day) => ({
    day,
    hours: sessions
      .filter((s) => s.day === day)
      .map((s) => `${s.open}–${s.close}`)
      .sort()
      .join(', '),
  }));
  const groups: { first: number; last: number; hours: string }[] = [];
  for (const entry of byDay) {
    if (entry.hours === '') continue;
    const previous = groups.at(-1);
    const previousIndex = previous ? byDay.findIndex((d) => d.day === previous.last) : -2;
    const index = byDay.findIndex((d) => d.day === entry.day);
    if (previous && previous.hours === entry.hours && previousIndex === index - 1) previous.last = entry.day;
    else groups.push({ first: entry.day, last: entry.day, hours: entry.hours });
  }
  return groups.map((g) => `${g.first === g.last ? name(g.first) : `${name(g.first)}–${name(g.last)}`} ${g.hours}`).join(' · ');
}
