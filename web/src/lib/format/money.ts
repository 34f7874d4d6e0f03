import { money, type Money } from '@custos/contract';

/**
 * Display of money strings. Amounts stay decimal strings (or bigint `Money`) all the way to the
 * screen: nothing here goes through floating point.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** "1234567.5000" → "1,234,567.5000"; anything that is not a plain decimal is returned as it is. */
export function groupDigits(text: string): string {
  const match = DECIMAL.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '0', fraction] = match;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** A four-place amount for display, grouped: "1,250.5000". */
export function displayMoney(value: string | Money): string {
  return groupDigits(typeof value === 'string' ? value : money.formatMoney(value));
}

export type Sign = 'plus' | 'minus' | 'zero';

/** The sign of a money string ("-5.0000" → minus). */
export function signOf(text: string): Sign {
  const amount = money.parseMoney(text);
  return amount > 0n ? 'plus' : amount < 0n ? 'minus' : 'zero';
}

/** A balance change with its sign written out: "+5.0000", "-1,200.0000". */
export function displaySigned(text: string): string {
  return signOf(text) === 'plus' ? `+${displayMoney(text)}` : displayMoney(text);
}

/** "123.4500" → "123.45", "100.0000" → "100": what an amount field is filled with. */
export function trimMoney(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** A rate as a percentage, by moving the decimal point: "0.005" → "0.5", "0.1" → "10". */
export function percentOf(rate: string): string {
  const match = DECIMAL.exec(rate);
  if (!match) return rate;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const padded = fraction.padEnd(2, '0');
  const integer = `${whole}${padded.slice(0, 2)}`.replace(/^0+(?=\d)/, '');
  const rest = padded.slice(2).replace(/0+$/, '');
  return `${sign}${integer}${rest ? `.${rest}` : ''}`;
}

/** A price or rate string without trailing zeros: "0.50000000" → "0.5". */
export function displayRate(rate: string): string {
  return DECIMAL.test(rate) ? groupDigits(trimMoney(rate)) : rate;
}
