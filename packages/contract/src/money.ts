/**
 * Exact money with four decimal places (product.md §4). A `Money` value is an integer count of
 * ten-thousandths held in a bigint, so arithmetic never touches floating point. Amounts travel as
 * decimal strings with exactly four places ("1250.5000") and are stored as numeric(38,4).
 *
 * Rounding: what is paid to a member rounds down (toward zero); fees round up (away from zero).
 */

export const MONEY_PLACES = 4;
const SCALE = 10n ** BigInt(MONEY_PLACES);
/** numeric(38,4) holds at most 34 digits before the point. */
const MAX_UNITS = 10n ** 38n - 1n;

declare const moneyBrand: unique symbol;
/** Ten-thousandths of a unit. */
export type Money = bigint & { readonly [moneyBrand]: true };

export type Rounding = 'down' | 'up';

export class MoneyError extends Error {
  override name = 'MoneyError';
}

const DECIMAL_PATTERN = /^(-)?(\d+)(?:\.(\d+))?$/;

function checkRange(units: bigint): Money {
  if (units > MAX_UNITS || units < -MAX_UNITS) throw new MoneyError('amount out of range');
  return units as Money;
}

/** Wraps a count of ten-thousandths. */
export function fromUnits(units: bigint): Money {
  return checkRange(units);
}

/**
 * Parses a decimal string. More than four places is an error (money must never be silently cut);
 * use `parseDecimal` with a rounding mode when a value legitimately has more precision.
 */
export function parseMoney(text: string): Money {
  const match = DECIMAL_PATTERN.exec(text.trim());
  if (!match) throw new MoneyError(`not a decimal amount: ${JSON.stringify(text)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  if (fraction.length > MONEY_PLACES) throw new MoneyError(`more than ${MONEY_PLACES} decimal places: ${text}`);
  const units = BigInt(whole) * SCALE + BigInt(fraction.padEnd(MONEY_PLACES, '0'));
  return checkRange(sign ? 0n - units : units);
}

/** A decimal as an exact fraction numerator / 10^places. */
interface Decimal {
  numerator: bigint;
  places: number;
}

function parseDecimal(text: string): Decimal {
  const match = DECIMAL_PATTERN.exec(text.trim());
  if (!match) throw new MoneyError(`not a decimal: ${JSON.stringify(text)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  if (fraction.length > 18) throw new MoneyError(`more than 18 decimal places: ${text}`);
  const numerator = BigInt(whole + fraction);
  return { numerator: sign ? -numerator : numerator, places: fraction.length };
}

/** Integer division of a by b (b > 0) rounded as asked: down = toward zero, up = away from zero. */
function divideRounded(a: bigint, b: bigint, rounding: Rounding): bigint {
  if (b <= 0n) throw new MoneyError('division by zero or a negative divisor');
  const quotient = a / b; // truncates toward zero
  if (rounding === 'down' || a % b === 0n) return quotient;
  return a < 0n ? quotient - 1n : quotient + 1n;
}

/** Rounds any decimal string to four places. */
export function roundMoney(text: string, rounding: Rounding): Money {
  const { numerator, places } = parseDecimal(text);
  if (places <= MONEY_PLACES) return checkRange(numerator * 10n ** BigInt(MONEY_PLACES - places));
  return checkRange(divideRounded(numerator, 10n ** BigInt(places - MONEY_PLACES), rounding));
}

/** "1250.5000": always four places, a leading "-" for negatives. */
export function formatMoney(amount: Money): string {
  const negative = amount < 0n;
  const abs: bigint = negative ? 0n - amount : amount;
  const whole = abs / SCALE;
  const fraction = (abs % SCALE).toString().padStart(MONEY_PLACES, '0');
  return `${negative ? '-' : ''}${whole.toString()}.${fraction}`;
}

export const ZERO = 0n as Money;

export function add(a: Money, b: Money): Money {
  return checkRange(a + b);
}

export function subtract(a: Money, b: Money): Money {
  return checkRange(a - b);
}

export function negate(a: Money): Money {
  return checkRange(0n - a);
}

export function compare(a: Money, b: Money): -1 | 0 | 1 {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function isPositive(a: Money): boolean {
  return a > 0n;
}

export function isNegative(a: Money): boolean {
  return a < 0n;
}

export function sum(amounts: readonly Money[]): Money {
  return checkRange(amounts.reduce<bigint>((total, amount) => total + amount, 0n));
}

export function min(a: Money, b: Money): Money {
  return a < b ? a : b;
}

export function max(a: Money, b: Money): Money {
  return a > b ? a : b;
}

/** amount × factor (a decimal string such as a daily rate "0.0035" or a price), rounded to four places. */
export function multiply(amount: Money, factor: string, rounding: Rounding): Money {
  const { numerator, places } = parseDecimal(factor);
  return checkRange(divideRounded(amount * numerator, 10n ** BigInt(places), rounding));
}

/** amount ÷ divisor (a positive decimal string such as a price), rounded to four places. */
export function divide(amount: Money, divisor: string, rounding: Rounding): Money {
  const { numerator, places } = parseDecimal(divisor);
  if (numerator <= 0n) throw new MoneyError('divisor must be positive');
  return checkRange(divideRounded(amount * 10n ** BigInt(places), numerator, rounding));
}

/** amount × basis points / 10 000 (1 bp = 0.01 %), rounded to four places. */
export function applyBps(amount: Money, rateBps: number, rounding: Rounding): Money {
  if (!Number.isInteger(rateBps)) throw new MoneyError('basis points must be a whole number');
  return checkRange(divideRounded(amount * BigInt(rateBps), 10_000n, rounding));
}

/**
 * Converts an on-chain token amount (integer base units with `decimals` places, e.g. 18 for USDT on
 * BSC) to four places. Credits to members round down.
 */
export function fromTokenUnits(baseUnits: bigint, decimals: number, rounding: Rounding = 'down'): Money {
  if (decimals >= MONEY_PLACES) {
    return checkRange(divideRounded(baseUnits, 10n ** BigInt(decimals - MONEY_PLACES), rounding));
  }
  return checkRange(baseUnits * 10n ** BigInt(MONEY_PLACES - decimals));
}

/** Converts four-place money to integer token base units (exact, since decimals ≥ 4 on our chains). */
export function toTokenUnits(amount: Money, decimals: number): bigint {
  if (decimals < MONEY_PLACES) throw new MoneyError('token has fewer decimals than money');
  return amount * 10n ** BigInt(decimals - MONEY_PLACES);
}

/** Tests whether a string is a valid four-place money string as sent on the wire. */
export const MONEY_STRING_PATTERN = /^-?\d{1,34}\.\d{4}$/;
