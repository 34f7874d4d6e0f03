import { z } from 'zod';
import { ValidationReason, moneyStringSchema, requiredText, stringTypeError } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';
import { idempotencyKeySchema } from './ledger.js';
import { changePctSchema } from './quotes.js';

// Contract (settlement) orders on the operator's forex products (issue 15, docs/decisions/034-contracts.md):
// positions in lots with margin held in the ledger, leverage and spread; take-profit, stop-loss and
// stop-out. Money figures are 4-place USDT strings; prices are decimal strings with the product's
// own digits; lots have two places. Every figure below comes from the pure functions in this file,
// which the server and the apps' previews share.

// ── Enums ────────────────────────────────────────────────────────────────────────────────────────

/** `buy` opens at ask and closes at bid; `sell` opens at bid and closes at ask. */
export const CONTRACT_SIDES = ['buy', 'sell'] as const;
export type ContractSide = (typeof CONTRACT_SIDES)[number];

export const CONTRACT_ORDER_STATES = ['open', 'closed'] as const;
export type ContractOrderState = (typeof CONTRACT_ORDER_STATES)[number];

/** Why an order (or the part of it) closed. */
export const CONTRACT_CLOSE_REASONS = ['member', 'take_profit', 'stop_loss', 'stop_out', 'operator'] as const;
export type ContractCloseReason = (typeof CONTRACT_CLOSE_REASONS)[number];

/** Where a bid/ask tick came from: an operator's manual quote, the ticker feed, or a replay of recorded ticks. */
export const CONTRACT_TICK_SOURCES = ['manual', 'feed', 'replay'] as const;
export type ContractTickSource = (typeof CONTRACT_TICK_SOURCES)[number];

/** Member permissions are sessions; console permissions (admin-members OPERATOR_PERMISSIONS): */
export const CONTRACT_PERMISSIONS = ['contracts.read', 'contracts.manage'] as const;

// ── Exact decimals ───────────────────────────────────────────────────────────────────────────────

/** A decimal as an exact fraction n / 10^s. */
interface Dec {
  n: bigint;
  s: number;
}

const DECIMAL_TEXT = /^(-)?(\d+)(?:\.(\d+))?$/;

function dec(text: string): Dec {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) throw new Error(`not a decimal: ${JSON.stringify(text)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const n = BigInt(whole + fraction);
  return { n: sign ? -n : n, s: fraction.length };
}

function decOfInt(value: number | bigint): Dec {
  return { n: BigInt(value), s: 0 };
}

function mul(a: Dec, b: Dec): Dec {
  return { n: a.n * b.n, s: a.s + b.s };
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const s = Math.max(a.s, b.s);
  return [a.n * 10n ** BigInt(s - a.s), b.n * 10n ** BigInt(s - b.s), s];
}

function sub(a: Dec, b: Dec): Dec {
  const [x, y, s] = align(a, b);
  return { n: x - y, s };
}

function add(a: Dec, b: Dec): Dec {
  const [x, y, s] = align(a, b);
  return { n: x + y, s };
}

function cmp(a: Dec, b: Dec): -1 | 0 | 1 {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Rounding modes: `floor` toward minus infinity, `ceil` toward plus infinity, `halfUp` to the nearest
 * with halves away from zero.
 */
export type ContractRounding = 'floor' | 'ceil' | 'halfUp';

/** Integer a / b (b > 0) rounded as asked. */
function divInt(a: bigint, b: bigint, rounding: ContractRounding): bigint {
  if (b <= 0n) throw new Error('division by zero or a negative divisor');
  const q = a / b; // toward zero
  const r = a % b;
  if (r === 0n) return q;
  if (rounding === 'floor') return a < 0n ? q - 1n : q;
  if (rounding === 'ceil') return a < 0n ? q : q + 1n;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= b) return a < 0n ? q - 1n : q + 1n;
  return q;
}

/** n / d (d > 0) as an integer count of 10^-places, rounded as asked. */
function ratio(n: Dec, d: Dec, places: number, rounding: ContractRounding): bigint {
  if (d.n <= 0n) throw new Error('the divisor must be positive');
  // (n.n / 10^n.s) / (d.n / 10^d.s) × 10^places = n.n × 10^(d.s + places) / (d.n × 10^n.s)
  return divInt(n.n * 10n ** BigInt(d.s + places), d.n * 10n ** BigInt(n.s), rounding);
}

function formatFixed(units: bigint, places: number): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  if (places === 0) return `${negative ? '-' : ''}${abs.toString()}`;
  const scale = 10n ** BigInt(places);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(places, '0');
  return `${negative && abs !== 0n ? '-' : ''}${whole.toString()}.${fraction}`;
}

/** Rounds a decimal string to `places`, as asked, and writes it with exactly that many places. */
export function roundDecimal(text: string, places: number, rounding: ContractRounding): string {
  return formatFixed(ratio(dec(text), decOfInt(1), places, rounding), places);
}

/** Compares two decimal strings. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  return cmp(dec(a), dec(b));
}

/** The number of decimal places a decimal string is written with ("1.0850" → 4). */
export function decimalPlaces(text: string): number {
  return dec(text).s;
}

const MONEY_PLACES = 4;
const LOT_PLACES = 2;
const PERCENT_PLACES = 2;

// ── Formulas (decision 034) ──────────────────────────────────────────────────────────────────────

/**
 * How an amount in the product's quote currency becomes USDT: `mul` by a rate (the quote currency is
 * USD or USDT: rate "1"; or a XXX/USD pair's price), or `div` by a rate (a USD/XXX pair's price, e.g.
 * USDJPY: JPY ÷ USDJPY = USD). USD counts as USDT at par (decision 034).
 */
export const contractConversionSchema = z.object({
  op: z.enum(['mul', 'div']),
  rate: z.string(),
});
export type ContractConversion = z.infer<typeof contractConversionSchema>;
export const PAR_CONVERSION: ContractConversion = { op: 'mul', rate: '1' };

/** `value` (an exact amount in the quote currency) in USDT with 4 places, rounded as asked. */
function toUsdt(value: Dec, conversion: ContractConversion, rounding: ContractRounding): string {
  const rate = dec(conversion.rate);
  const units =
    conversion.op === 'mul'
      ? ratio(mul(value, rate), decOfInt(1), MONEY_PLACES, rounding)
      : ratio(value, rate, MONEY_PLACES, rounding);
  return formatFixed(units, MONEY_PLACES);
}

/** One point of a price with `digits` places ("0.00001" for 5). */
export function contractPoint(digits: number): string {
  return formatFixed(1n, digits);
}

/**
 * The platform's bid and ask from a raw tick: each rounded to the product's digits away from the
 * member (bid down, ask up), then widened by the operator's mark-up in points (half below the bid
 * rounded down, the rest above the ask). The spread grows by exactly `markupPoints`.
 */
export function contractQuote(
  rawBid: string,
  rawAsk: string,
  digits: number,
  markupPoints: number,
): { bid: string; ask: string } {
  const below = BigInt(Math.floor(markupPoints / 2));
  const above = BigInt(markupPoints) - below;
  const bid = ratio(dec(rawBid), decOfInt(1), digits, 'floor') - below;
  const ask = ratio(dec(rawAsk), decOfInt(1), digits, 'ceil') + above;
  return { bid: formatFixed(bid, digits), ask: formatFixed(ask, digits) };
}

/** The middle of bid and ask with the product's digits, half up (for 24 h change and conversion). */
export function contractMid(bid: string, ask: string, digits: number): string {
  return formatFixed(ratio(add(dec(bid), dec(ask)), decOfInt(2), digits, 'halfUp'), digits);
}

/** The price an order opens at: buy at ask, sell at bid. */
export function contractOpenPrice(side: ContractSide, quote: { bid: string; ask: string }): string {
  return side === 'buy' ? quote.ask : quote.bid;
}

/** The price an order closes at: buy at bid, sell at ask. */
export function contractClosePrice(side: ContractSide, quote: { bid: string; ask: string }): string {
  return side === 'buy' ? quote.bid : quote.ask;
}

/**
 * Margin held to open: lots × contract size × open price ÷ leverage, in USDT, rounded up to 4 places
 * (the member never holds less than the formula).
 */
export function contractMargin(input: {
  lots: string;
  contractSize: string;
  price: string;
  leverage: number;
  conversion: ContractConversion;
}): string {
  const quoteValue = mul(mul(dec(input.lots), dec(input.contractSize)), dec(input.price));
  const rate = dec(input.conversion.rate);
  const leverage = decOfInt(input.leverage);
  const units =
    input.conversion.op === 'mul'
      ? ratio(mul(quoteValue, rate), leverage, MONEY_PLACES, 'ceil')
      : ratio(quoteValue, mul(leverage, rate), MONEY_PLACES, 'ceil');
  return formatFixed(units, MONEY_PLACES);
}

/** What the spread costs at open: lots × contract size × (ask − bid), in USDT, rounded up. */
export function contractSpreadCost(input: {
  lots: string;
  contractSize: string;
  bid: string;
  ask: string;
  conversion: ContractConversion;
}): string {
  const value = mul(mul(dec(input.lots), dec(input.contractSize)), sub(dec(input.ask), dec(input.bid)));
  return toUsdt(value, input.conversion, 'ceil');
}

/**
 * Profit (positive) or loss (negative) of `lots` opened at `openPrice` and closed at `closePrice`:
 * buy (close − open), sell (open − close), × lots × contract size, in USDT, rounded toward minus
 * infinity (a profit rounds down, a loss rounds up in size: never in the member's favour).
 */
export function contractPnl(input: {
  side: ContractSide;
  lots: string;
  contractSize: string;
  openPrice: string;
  closePrice: string;
  conversion: ContractConversion;
}): string {
  const open = dec(input.openPrice);
  const close = dec(input.closePrice);
  const move = input.side === 'buy' ? sub(close, open) : sub(open, close);
  const value = mul(mul(dec(input.lots), dec(input.contractSize)), move);
  return toUsdt(value, input.conversion, 'floor');
}

/**
 * An order's result: P&L + swap, in full (decision 049, cross margin). The order's margin does not cap
 * it: a loss beyond the margin is the account's, paid from its available USDT, and only the account's
 * equity is floored at zero when it settles (negative-balance protection per account, as brokers do).
 * `_margin` is kept for the callers' shape; it no longer bounds the result.
 */
export function contractSettledPnl(pnl: string, swap: string, _margin?: string): string {
  const total = add(dec(pnl), dec(swap));
  return formatFixed(ratio(total, decOfInt(1), MONEY_PLACES, 'floor'), MONEY_PLACES);
}

/**
 * Margin level in percent, 2 places rounded down: (margin + floating P&L + swap) ÷ margin × 100, over
 * the member's open orders (decision 034: the equity at risk is the margin held). Null with no margin.
 */
export function contractMarginLevel(equity: string, usedMargin: string): string | null {
  const margin = dec(usedMargin);
  if (margin.n <= 0n) return null;
  return formatFixed(ratio(mul(dec(equity), decOfInt(100)), margin, PERCENT_PLACES, 'floor'), PERCENT_PLACES);
}

/** Whether a margin level is below the operator's stop-out level (strictly below: at the level it holds). */
export function contractBelowStopOut(marginLevel: string | null, stopOutLevelPct: string): boolean {
  return marginLevel !== null && cmp(dec(marginLevel), dec(stopOutLevelPct)) < 0;
}

/**
 * The part of an order's margin (or accrued swap) a partial close of `closeLots` out of `lots` takes:
 * proportional, rounded toward zero (what stays keeps the rest); closing everything takes all of it.
 */
export function contractShare(amount: string, closeLots: string, lots: string): string {
  if (cmp(dec(closeLots), dec(lots)) >= 0) return roundDecimal(amount, MONEY_PLACES, 'floor');
  const value = dec(amount);
  const units = ratio(mul(value, dec(closeLots)), dec(lots), MONEY_PLACES, value.n < 0n ? 'ceil' : 'floor');
  return formatFixed(units, MONEY_PLACES);
}

/** lots − closeLots with two places. */
export function contractLotsLeft(lots: string, closeLots: string): string {
  return formatFixed(ratio(sub(dec(lots), dec(closeLots)), decOfInt(1), LOT_PLACES, 'floor'), LOT_PLACES);
}

/** Why a lot size is refused: off the step (counted from the minimum), or outside min…max. Null when fine. */
export function contractLotsProblem(
  lots: string,
  limits: { minLots: string; lotStep: string; maxLots: string },
): 'lots_out_of_range' | 'lots_off_step' | null {
  const value = dec(lots);
  if (cmp(value, dec(limits.minLots)) < 0 || cmp(value, dec(limits.maxLots)) > 0) return 'lots_out_of_range';
  const [offset, step] = align(sub(value, dec(limits.minLots)), dec(limits.lotStep));
  if (step <= 0n || offset % step !== 0n) return 'lots_off_step';
  return null;
}

/**
 * Take-profit and stop-loss against the price the order would close at now: a buy's take-profit above
 * the bid and its stop-loss below; a sell's take-profit below the ask and its stop-loss above.
 */
export function contractTargetsProblem(
  side: ContractSide,
  quote: { bid: string; ask: string },
  targets: { takeProfit: string | null; stopLoss: string | null },
): 'take_profit_wrong_side' | 'stop_loss_wrong_side' | null {
  const close = dec(contractClosePrice(side, quote));
  const sign = side === 'buy' ? 1 : -1;
  if (targets.takeProfit !== null && cmp(dec(targets.takeProfit), close) * sign <= 0) return 'take_profit_wrong_side';
  if (targets.stopLoss !== null && cmp(dec(targets.stopLoss), close) * sign >= 0) return 'stop_loss_wrong_side';
  return null;
}

/** Which target a close price reaches: take-profit first when both would (they cannot both on a sane order). */
export function contractTriggered(
  side: ContractSide,
  closePrice: string,
  targets: { takeProfit: string | null; stopLoss: string | null },
): 'take_profit' | 'stop_loss' | null {
  const price = dec(closePrice);
  if (side === 'buy') {
    if (targets.takeProfit !== null && cmp(price, dec(targets.takeProfit)) >= 0) return 'take_profit';
    if (targets.stopLoss !== null && cmp(price, dec(targets.stopLoss)) <= 0) return 'stop_loss';
  } else {
    if (targets.takeProfit !== null && cmp(price, dec(targets.takeProfit)) <= 0) return 'take_profit';
    if (targets.stopLoss !== null && cmp(price, dec(targets.stopLoss)) >= 0) return 'stop_loss';
  }
  return null;
}

/**
 * The order in which stop-out closes a member's orders: the biggest loser first (lowest P&L + swap),
 * then the oldest, then by number. Returns a new array.
 */
export function contractStopOutOrder<T extends { pnl: string; swap: string; openedAt: string; orderNo: string }>(
  orders: readonly T[],
): T[] {
  return [...orders].sort((a, b) => {
    const byLoss = cmp(add(dec(a.pnl), dec(a.swap)), add(dec(b.pnl), dec(b.swap)));
    if (byLoss !== 0) return byLoss;
    if (a.openedAt !== b.openedAt) return a.openedAt < b.openedAt ? -1 : 1;
    return a.orderNo < b.orderNo ? -1 : a.orderNo > b.orderNo ? 1 : 0;
  });
}

/**
 * One night's swap of an open order: lots × contract size × mid price × the side's daily rate (percent,
 * signed: negative is charged) ÷ 100, in USDT, rounded toward minus infinity.
 */
export function contractSwap(input: {
  lots: string;
  contractSize: string;
  price: string;
  dailyPct: string;
  conversion: ContractConversion;
}): string {
  const value = mul(mul(mul(dec(input.lots), dec(input.contractSize)), dec(input.price)), dec(input.dailyPct));
  const rate = dec(input.conversion.rate);
  const units =
    input.conversion.op === 'mul'
      ? ratio(mul(value, rate), decOfInt(100), MONEY_PLACES, 'floor')
      : ratio(value, mul(decOfInt(100), rate), MONEY_PLACES, 'floor');
  return formatFixed(units, MONEY_PLACES);
}

/** Sum of 4-place (or any) decimal strings, written with 4 places. */
export function contractSum(values: readonly string[]): string {
  const total = values.reduce<Dec>((acc, value) => add(acc, dec(value)), decOfInt(0));
  return formatFixed(ratio(total, decOfInt(1), MONEY_PLACES, 'floor'), MONEY_PLACES);
}

// ── Trading hours ────────────────────────────────────────────────────────────────────────────────

const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

function minutesOf(time: string): number {
  const [hours = '0', minutes = '0'] = time.split(':');
  return Number(hours) * 60 + Number(minutes);
}

/** A trading session in UTC: on weekday `day` (0 = Sunday … 6 = Saturday) from `open` to `close` ("24:00" = midnight). */
export const contractSessionSchema = z
  .object({
    day: z
      .number({ error: ValidationReason.invalid })
      .int({ error: ValidationReason.invalid })
      .min(0, { error: ValidationReason.invalid })
      .max(6, { error: ValidationReason.invalid }),
    open: z.string({ error: stringTypeError }).regex(TIME_OF_DAY, { error: 'time_of_day' }),
    close: z.string({ error: stringTypeError }).regex(TIME_OF_DAY, { error: 'time_of_day' }),
  })
  .refine((session) => minutesOf(session.open) < minutesOf(session.close), { error: 'session_order', path: ['close'] });
export type ContractSession = z.infer<typeof contractSessionSchema>;

/** Monday 00:00 to Friday 22:00 UTC, the usual forex week (the demo and tests open every day). */
export const FOREX_WEEK_SESSIONS: ContractSession[] = [
  { day: 1, open: '00:00', close: '24:00' },
  { day: 2, open: '00:00', close: '24:00' },
  { day: 3, open: '00:00', close: '24:00' },
  { day: 4, open: '00:00', close: '24:00' },
  { day: 5, open: '00:00', close: '22:00' },
];
export const ALWAYS_OPEN_SESSIONS: ContractSession[] = [0, 1, 2, 3, 4, 5, 6].map((day) => ({
  day,
  open: '00:00',
  close: '24:00',
}));

/** Whether `at` falls inside one of the sessions (UTC). */
export function contractMarketOpen(sessions: readonly ContractSession[], at: Date): boolean {
  const day = at.getUTCDay();
  const minute = at.getUTCHours() * 60 + at.getUTCMinutes();
  return sessions.some(
    (session) => session.day === day && minutesOf(session.open) <= minute && minute < minutesOf(session.close),
  );
}

// ── Fields ───────────────────────────────────────────────────────────────────────────────────────

const uuidField = z.uuid({ error: ValidationReason.invalid });

/** Lots: positive, at most 2 places (the product's own step is checked by the server: `contracts.lots_off_step`). */
export const LOTS_PATTERN = /^(?:0|[1-9]\d{0,5})(?:\.\d{1,2})?$/;
export const contractLotsSchema = z
  .string({ error: stringTypeError })
  .trim()
  .min(1, { error: ValidationReason.required })
  .regex(LOTS_PATTERN, { error: 'lots' })
  .refine((value) => /[1-9]/.test(value), { error: ValidationReason.amountPositive });

/** A price a member types (take-profit, stop-loss): positive, at most 8 places (the product's digits are checked by the server). */
export const CONTRACT_PRICE_PATTERN = /^(?:0|[1-9]\d{0,11})(?:\.\d{1,8})?$/;
export const contractPriceSchema = z
  .string({ error: stringTypeError })
  .trim()
  .min(1, { error: ValidationReason.required })
  .regex(CONTRACT_PRICE_PATTERN, { error: 'price' })
  .refine((value) => /[1-9]/.test(value), { error: ValidationReason.amountPositive });

/** An optional target: a price, or null / "" for none. */
const optionalTargetSchema = z
  .union([z.literal('').transform(() => null), z.null(), contractPriceSchema], { error: ValidationReason.invalid })
  .optional()
  .transform((value) => value ?? null);

const leverageSchema = z
  .number({ error: ValidationReason.invalid })
  .int({ error: ValidationReason.invalid })
  .min(1, { error: ValidationReason.invalid })
  .max(1000, { error: ValidationReason.invalid });

/** A percentage with up to 2 places, 0…10 000 (the stop-out level can be set above 100 %). */
const levelPctSchema = z.string({ error: stringTypeError }).regex(/^(?:0|[1-9]\d{0,3})(?:\.\d{1,2})?$/, { error: 'level_pct' });

/** A signed daily swap rate in percent with up to 4 places, e.g. "-0.0100". */
const swapPctSchema = z.string({ error: stringTypeError }).regex(/^-?(?:0|[1-9]\d?)(?:\.\d{1,4})?$/, { error: 'swap_pct' });

// ── Settings (operator, platform_settings `contracts`) ───────────────────────────────────────────

export const contractSettingsSchema = z.object({
  /** Members may open orders (closing always works while the market is open). */
  enabled: z.boolean({ error: ValidationReason.wrongType }),
  /** Margin level (percent) below which orders are closed, biggest loser first. */
  stopOutLevelPct: levelPctSchema,
  /** Margin level (percent) below which the console lists a member as at risk (and the app warns). */
  marginCallLevelPct: levelPctSchema,
  /** A quote older than this is stale: opening and closing are refused (the watcher still fires on fresh ticks only). */
  priceStaleAfterS: z
    .number({ error: ValidationReason.invalid })
    .int({ error: ValidationReason.invalid })
    .min(5, { error: 'stale_range_contracts' })
    .max(3600, { error: 'stale_range_contracts' }),
  /** Open orders one member may hold at once. */
  maxOpenOrders: z
    .number({ error: ValidationReason.invalid })
    .int({ error: ValidationReason.invalid })
    .min(1, { error: ValidationReason.invalid })
    .max(1000, { error: ValidationReason.invalid }),
});
export type ContractSettings = z.infer<typeof contractSettingsSchema>;

export const CONTRACT_SETTINGS_DEFAULTS: ContractSettings = {
  enabled: true,
  stopOutLevelPct: '50',
  marginCallLevelPct: '100',
  priceStaleAfterS: 120,
  maxOpenOrders: 200,
};

/** A product's contract settings (keyed by the market product). */
export const contractProductSettingsSchema = z
  .object({
    /** Price places: 5 for EURUSD, 3 for USDJPY, 2 for XAUUSD. */
    digits: z
      .number({ error: ValidationReason.invalid })
      .int({ error: ValidationReason.invalid })
      .min(0, { error: ValidationReason.invalid })
      .max(8, { error: ValidationReason.invalid }),
    /** Units of the base per lot: 100000 for a forex pair, 100 (ounces) for gold. */
    contractSize: z.string({ error: stringTypeError }).regex(/^[1-9]\d{0,9}$/, { error: 'contract_size' }),
    /** The leverages members may pick, e.g. [10, 50, 100, 200]. */
    leverages: z
      .array(leverageSchema, { error: ValidationReason.invalid })
      .min(1, { error: ValidationReason.required })
      .max(12, { error: ValidationReason.invalid })
      .refine((values) => new Set(values).size === values.length, { error: ValidationReason.invalid })
      .transform((values) => [...values].sort((a, b) => a - b)),
    minLots: contractLotsSchema,
    lotStep: contractLotsSchema,
    maxLots: contractLotsSchema,
    /** Points added to the raw spread (half below the bid, half above the ask). */
    spreadMarkupPoints: z
      .number({ error: ValidationReason.invalid })
      .int({ error: ValidationReason.invalid })
      .min(0, { error: ValidationReason.invalid })
      .max(100_000, { error: ValidationReason.invalid }),
    /** Trading sessions in UTC; none = closed. */
    sessions: z.array(contractSessionSchema, { error: ValidationReason.invalid }).max(28, { error: ValidationReason.invalid }),
    swapEnabled: z.boolean({ error: ValidationReason.wrongType }),
    /** Daily swap of a buy / a sell, percent of the position's value, signed (negative = charged). */
    swapLongPct: swapPctSchema,
    swapShortPct: swapPctSchema,
    /** Members may open orders on it (closing stays possible while the market is open). */
    tradingEnabled: z.boolean({ error: ValidationReason.wrongType }),
  })
  .refine(
    (value) =>
      !LOTS_PATTERN.test(value.minLots) || !LOTS_PATTERN.test(value.maxLots) || compareDecimal(value.minLots, value.maxLots) <= 0,
    {
      error: 'lots_order',
      path: ['maxLots'],
    },
  );
export type ContractProductSettings = z.infer<typeof contractProductSettingsSchema>;
export type ContractProductSettingsInput = z.input<typeof contractProductSettingsSchema>;

// ── Member calls (`/api/contracts/*`, a session) ─────────────────────────────────────────────────

/** A product as the Trade tab's contracts segment shows it. */
export const contractProductSchema = z.object({
  /** The market product's id (quotes, decision 027). */
  id: z.string(),
  symbol: z.string(),
  displayName: z.string(),
  /** Base and quote currency: EUR/USD → EUR, USD. */
  baseCurrency: z.string(),
  quoteCurrency: z.string(),
  digits: z.number().int(),
  contractSize: z.string(),
  leverages: z.array(z.number().int()),
  minLots: z.string(),
  lotStep: z.string(),
  maxLots: z.string(),
  spreadMarkupPoints: z.number().int(),
  sessions: z.array(contractSessionSchema),
  swapEnabled: z.boolean(),
  swapLongPct: z.string(),
  swapShortPct: z.string(),
  tradingEnabled: z.boolean(),
  /** The platform's bid and ask (mark-up included), null before the first tick. */
  bid: z.string().nullable(),
  ask: z.string().nullable(),
  /** ask − bid in points. */
  spreadPoints: z.number().int().nullable(),
  /** Change of the mid over 24 h in percent (two places). */
  changePct24h: changePctSchema.nullable(),
  quotedAt: z.iso.datetime().nullable(),
  /** The last tick is older than the staleness limit (open and close are refused). */
  stale: z.boolean(),
  /** Inside the trading hours now. */
  marketOpen: z.boolean(),
  /** Members can open now: trading enabled, market open, price fresh, contracts enabled. */
  canOpen: z.boolean(),
  /** How the quote currency becomes USDT now (for the app's preview); null when no rate exists. */
  conversion: contractConversionSchema.nullable(),
});
export type ContractProduct = z.infer<typeof contractProductSchema>;

/** GET /api/contracts/products (the spec's forex product list for trading). */
export const contractProductsResponse = z.object({
  items: z.array(contractProductSchema),
  asOf: z.iso.datetime(),
});
export type ContractProducts = z.infer<typeof contractProductsResponse>;

/** An order (open or closed) as its member sees it (spec §3 settlement order). */
export const contractOrderSchema = z.object({
  id: z.string(),
  orderNo: z.string(),
  productId: z.string(),
  symbol: z.string(),
  displayName: z.string(),
  digits: z.number().int(),
  contractSize: z.string(),
  side: z.enum(CONTRACT_SIDES),
  state: z.enum(CONTRACT_ORDER_STATES),
  lots: z.string(),
  leverage: z.number().int(),
  openPrice: z.string(),
  openedAt: z.iso.datetime(),
  /** Margin held (open) or that was held (closed), USDT. */
  margin: moneyStringSchema,
  /** The spread's cost at open, USDT (informative: it is inside the open price). */
  spreadCost: moneyStringSchema,
  takeProfit: z.string().nullable(),
  stopLoss: z.string().nullable(),
  /** Accrued swap (open) or settled swap (closed), USDT, signed. */
  swap: moneyStringSchema,
  /** Open: the price it would close at now (null without a quote). Closed: the close price. */
  closePrice: z.string().nullable(),
  closedAt: z.iso.datetime().nullable(),
  closeReason: z.enum(CONTRACT_CLOSE_REASONS).nullable(),
  /** Open: floating P&L at `closePrice` (null without a quote). Closed: realised P&L as settled (swap included, never below −margin). */
  pnl: moneyStringSchema.nullable(),
  /** A part closed from this order (partial close): the order it came from. */
  parentOrderNo: z.string().nullable(),
  /** An operator's note on an operator close. */
  closeNote: z.string().nullable(),
});
export type ContractOrder = z.infer<typeof contractOrderSchema>;

/** GET /api/contracts/pending_list (spec "pending orders list"): open orders, newest first, with live P&L. */
export const contractPendingListResponse = z.object({ items: z.array(contractOrderSchema), asOf: z.iso.datetime() });
export type ContractPendingList = z.infer<typeof contractPendingListResponse>;

/** GET /api/contracts/pending_info (spec "pending orders info"): the member's contract account now. */
export const contractPendingInfoResponse = z.object({
  /** USDT available (free margin: what a new order's margin comes from). */
  freeMargin: moneyStringSchema,
  /** Margin held by open orders. */
  usedMargin: moneyStringSchema,
  /** Floating P&L + swap of open orders (unpriced orders count 0). */
  floatingPnl: moneyStringSchema,
  /** usedMargin + floatingPnl: what the open orders are worth. */
  equity: moneyStringSchema,
  /** equity ÷ usedMargin × 100, 2 places; null with no open order. */
  marginLevel: z.string().nullable(),
  stopOutLevelPct: z.string(),
  marginCallLevelPct: z.string(),
  openOrders: z.number().int().nonnegative(),
  enabled: z.boolean(),
  asOf: z.iso.datetime(),
});
export type ContractPendingInfo = z.infer<typeof contractPendingInfoResponse>;

/** GET /api/contracts/order_info?id= */
export const contractOrderIdQuery = z.object({ id: uuidField });
export const contractOrderInfoResponse = contractOrderSchema;

/** GET /api/contracts/closed_list (blance_record12 "closed"): newest first. */
export const contractClosedListQuery = pageQuery.extend({
  productId: uuidField.optional(),
});
export const contractClosedListResponse = pageOf(contractOrderSchema);
export type ContractClosedList = z.infer<typeof contractClosedListResponse>;

/**
 * POST /api/contracts/open: a market order. No trading password per order (decision 034: the session
 * is the authority, as on exchanges' trading screens); the key makes a retry answer the first order.
 */
export const contractOpenRequest = z.object({
  productId: uuidField,
  side: z.enum(CONTRACT_SIDES, { error: ValidationReason.invalid }),
  lots: contractLotsSchema,
  leverage: leverageSchema,
  takeProfit: optionalTargetSchema,
  stopLoss: optionalTargetSchema,
  idempotencyKey: idempotencyKeySchema,
});
export type ContractOpenRequest = z.input<typeof contractOpenRequest>;
export const contractOpenResponse = contractOrderSchema;

/** POST /api/contracts/close: at market; `lots` omitted = all of it (partial closes keep the order's number for what stays). */
export const contractCloseRequest = z.object({
  orderId: uuidField,
  lots: contractLotsSchema.optional(),
  idempotencyKey: idempotencyKeySchema,
});
export type ContractCloseRequest = z.input<typeof contractCloseRequest>;
/** `closed`: the closed order (a full close) or the new closed part (a partial close); `remaining`: what stays open. */
export const contractCloseResponse = z.object({ closed: contractOrderSchema, remaining: contractOrderSchema.nullable() });
export type ContractCloseResult = z.infer<typeof contractCloseResponse>;

/** POST /api/contracts/set_targets: take-profit and stop-loss (null or "" removes one). */
export const contractSetTargetsRequest = z.object({
  orderId: uuidField,
  takeProfit: optionalTargetSchema,
  stopLoss: optionalTargetSchema,
});
export type ContractSetTargetsRequest = z.input<typeof contractSetTargetsRequest>;
export const contractSetTargetsResponse = contractOrderSchema;

// ── Live ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * Member event (GET /api/user/events, decision 022) kind `contracts.order`: an order of the member
 * opened, closed (by the member, take-profit, stop-loss, stop-out or an operator), partly closed or
 * had its targets changed.
 */
export const contractOrderEventData = z.object({
  kind: z.literal('contracts.order'),
  orderId: z.string(),
  orderNo: z.string(),
  state: z.enum(CONTRACT_ORDER_STATES),
  closeReason: z.enum(CONTRACT_CLOSE_REASONS).nullable(),
  pnl: moneyStringSchema.nullable(),
});
export type ContractOrderEventData = z.infer<typeof contractOrderEventData>;

/**
 * GET /api/contracts/quotes (SSE, a session): the platform's bid/ask as ticks arrive, event name
 * `quote`, `data:` this object, `id:` the tick id (Last-Event-ID resumes). Sent at most
 * `CONTRACT_QUOTE_STREAM_MAX_PER_S` times a second per product (the latest wins).
 */
export const contractQuoteEvent = z.object({
  productId: z.string(),
  bid: z.string(),
  ask: z.string(),
  quotedAt: z.iso.datetime(),
});
export type ContractQuoteEvent = z.infer<typeof contractQuoteEvent>;
export const CONTRACT_QUOTE_STREAM_EVENT = 'quote';
export const CONTRACT_QUOTE_STREAM_MAX_PER_S = 4;

// ── Console (`/api/admin/contracts/*`) ───────────────────────────────────────────────────────────

/** GET/PUT /api/admin/contracts/settings (contracts.read / contracts.manage). */
export const adminContractSettingsResponse = contractSettingsSchema;
export const updateContractSettingsRequest = contractSettingsSchema;

/**
 * A product's contract settings as answers carry them: the same fields as the request schema with no
 * transform (answers are encoded through their schema, and a transform cannot be run backwards).
 */
export const contractProductSettingsView = z.object({
  digits: z.number().int(),
  contractSize: z.string(),
  leverages: z.array(z.number().int()),
  minLots: z.string(),
  lotStep: z.string(),
  maxLots: z.string(),
  spreadMarkupPoints: z.number().int(),
  sessions: z.array(z.object({ day: z.number().int(), open: z.string(), close: z.string() })),
  swapEnabled: z.boolean(),
  swapLongPct: z.string(),
  swapShortPct: z.string(),
  tradingEnabled: z.boolean(),
});

/** A market product with its contract settings (null when it is not set up for contracts). */
export const adminContractProductSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  displayName: z.string(),
  enabled: z.boolean(),
  quoteSource: z.string(),
  settings: contractProductSettingsView.nullable(),
  bid: z.string().nullable(),
  ask: z.string().nullable(),
  quotedAt: z.iso.datetime().nullable(),
  tickSource: z.enum(CONTRACT_TICK_SOURCES).nullable(),
  stale: z.boolean(),
  marketOpen: z.boolean(),
  openOrders: z.number().int().nonnegative(),
});
export type AdminContractProduct = z.infer<typeof adminContractProductSchema>;
/** GET /api/admin/contracts/products */
export const adminContractProductsResponse = z.object({ items: z.array(adminContractProductSchema) });
export const adminContractProductParams = z.object({ id: uuidField });
/** PUT /api/admin/contracts/products/:id: set a product's contract settings (audited). */
export const updateContractProductRequest = contractProductSettingsSchema;

/** POST /api/admin/contracts/products/:id/quote: an operator's manual bid/ask tick (audited). */
export const manualContractQuoteRequest = z
  .object({ bid: contractPriceSchema, ask: contractPriceSchema })
  .refine(
    (value) =>
      !CONTRACT_PRICE_PATTERN.test(value.bid) ||
      !CONTRACT_PRICE_PATTERN.test(value.ask) ||
      compareDecimal(value.bid, value.ask) <= 0,
    {
      error: 'bid_above_ask',
      path: ['ask'],
    },
  );
export type ManualContractQuoteRequest = z.input<typeof manualContractQuoteRequest>;

/** The book's open exposure on one product (the members' side; the book holds the opposite). */
export const contractExposureSchema = z.object({
  productId: z.string(),
  symbol: z.string(),
  openOrders: z.number().int().nonnegative(),
  longLots: z.string(),
  shortLots: z.string(),
  /** long − short (positive: members are net long, the book net short). */
  netLots: z.string(),
  /** Members' floating P&L + swap on it, USDT (the book's is the negative). */
  floatingPnl: moneyStringSchema,
  marginHeld: moneyStringSchema,
});
export type ContractExposure = z.infer<typeof contractExposureSchema>;

export const contractMemberAtRiskSchema = z.object({
  memberId: z.string(),
  email: z.string(),
  openOrders: z.number().int().nonnegative(),
  usedMargin: moneyStringSchema,
  equity: moneyStringSchema,
  marginLevel: z.string().nullable(),
});
export type ContractMemberAtRisk = z.infer<typeof contractMemberAtRiskSchema>;

/** GET /api/admin/contracts/book: exposure per product, members below the margin-call level (lowest first), the book account. */
export const adminContractBookResponse = z.object({
  exposure: z.array(contractExposureSchema),
  membersAtRisk: z.array(contractMemberAtRiskSchema),
  /** The platform book account's USDT balance (losses in, profits out). */
  bookBalance: moneyStringSchema,
  totals: z.object({ openOrders: z.number().int().nonnegative(), marginHeld: moneyStringSchema, floatingPnl: moneyStringSchema }),
  stopOutLevelPct: z.string(),
  marginCallLevelPct: z.string(),
  asOf: z.iso.datetime(),
});
export type AdminContractBook = z.infer<typeof adminContractBookResponse>;

export const adminContractOrderSchema = contractOrderSchema.extend({
  memberId: z.string(),
  email: z.string(),
});
export type AdminContractOrder = z.infer<typeof adminContractOrderSchema>;

/** GET /api/admin/contracts/orders: filter state, product, query (order number or e-mail); newest first. */
export const adminContractOrdersQuery = pageQuery.extend({
  state: z.enum(CONTRACT_ORDER_STATES).optional(),
  productId: uuidField.optional(),
  query: z.string().trim().max(254).optional(),
});
export const adminContractOrdersResponse = pageOf(adminContractOrderSchema);
export const adminContractOrderParams = z.object({ id: uuidField });
/** GET /api/admin/contracts/orders/:id */
export const adminContractOrderResponse = adminContractOrderSchema;

export const CONTRACT_CLOSE_NOTE_MAX_LENGTH = 200;
/** POST /api/admin/contracts/orders/:id/close: close a member's order at market with a reason (audited). */
export const adminContractCloseRequest = z.object({ reason: requiredText(CONTRACT_CLOSE_NOTE_MAX_LENGTH) });
export const adminContractCloseResponse = adminContractOrderSchema;
