import { money, MoneyError } from '@custos/contract';

const DECIMAL = /^(\d+)(?:\.(\d*))?$/;

function stripWhole(whole: string): string {
  return whole.replace(/^0+(?=\d)/, '');
}

/**
 * A fraction written as a percentage ("0.005" → "0.5"), by moving the decimal point two places: exact,
 * never a float. Null for text that is not a plain non-negative decimal.
 */
export function fractionToPercent(fraction: string): string | null {
  const match = DECIMAL.exec(fraction.trim());
  if (!match) return null;
  const [, whole = '0', decimals = ''] = match;
  const padded = decimals.padEnd(2, '0');
  const percentWhole = stripWhole(whole + padded.slice(0, 2));
  const percentDecimals = padded.slice(2).replace(/0+$/, '');
  return percentDecimals ? `${percentWhole}.${percentDecimals}` : percentWhole;
}

/**
 * What an operator typed as an amount ("10", "10.5", " 0.25 "), as the wire's four-place money string
 * ("10.5000"); null when it is not a non-negative decimal with at most four places.
 */
export function toMoneyString(text: string): string | null {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed) || trimmed.endsWith('.')) return null;
  try {
    return money.formatMoney(money.parseMoney(trimmed));
  } catch (error) {
    if (error instanceof MoneyError) return null;
    throw error;
  }
}

/** The sign of a decimal amount from the server: -1, 0 or 1 (exact, from the text). */
export function signOf(amount: string): -1 | 0 | 1 {
  const match = /^(-)?\d*(?:\.\d*)?$/.exec(amount.trim());
  if (!match || !/[1-9]/.test(amount)) return 0;
  return match[1] ? -1 : 1;
}

/** A signed amount for a journal line: "+125.5000", "-3.0000", "0.0000". */
export function signedText(amount: string): string {
  return signOf(amount) > 0 ? `+${amount}` : amount;
}
