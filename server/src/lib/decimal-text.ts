import { money } from '@custos/contract';

/** A numeric column read as text (`numeric::text`) in money's 4-place form, e.g. '12.5' → '12.5000'. */
export function fourPlaces(value: string): string {
  return money.formatMoney(money.parseMoney(value));
}

/** A rate or hashrate stored with extra places, shown without trailing zeros: '0.00120000' → '0.0012'. */
export function withoutTrailingZeros(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}
