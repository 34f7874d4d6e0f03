import {
  money,
  otcFee,
  type Locale,
  type MessageKey,
  type OtcInfo,
  type OtcMarketListing,
  type OtcOrder,
  type OtcOrderState,
} from '@custos/contract';
import { translate } from '../../lib/i18n/server-messages';
import { amountProblem, parseAmount } from '../../lib/money/amount';
import { displayMoney } from '../../lib/format/money';

const text = (locale: Locale, key: MessageKey, values?: Record<string, string | number>) => translate(locale, key, values);

/**
 * Why an amount cannot be taken from a listing, in the server's own wording, or null: the format
 * (positive, at most four places), then a not-splittable listing is taken whole, then the listing's
 * per-order limits and what is left of it.
 */
export function takeAmountProblem(
  value: string,
  listing: Pick<OtcMarketListing, 'available' | 'minPerOrder' | 'maxPerOrder' | 'splittable'>,
  locale: Locale,
): string | null {
  const format = amountProblem(value, locale);
  if (format) return format;
  const amount = parseAmount(value)!;
  const available = money.parseMoney(listing.available);
  if (!listing.splittable) {
    return amount === available ? null : text(locale, 'otc.not_splittable', { quantity: displayMoney(listing.available) });
  }
  if (amount > available) return text(locale, 'otc.insufficient_available', { available: displayMoney(listing.available) });
  if (amount < money.parseMoney(listing.minPerOrder)) {
    return text(locale, 'otc.amount_below_min', { min: displayMoney(listing.minPerOrder) });
  }
  if (amount > money.parseMoney(listing.maxPerOrder)) {
    return text(locale, 'otc.amount_above_max', { max: displayMoney(listing.maxPerOrder) });
  }
  return null;
}

/** The most a taker can take at once: all of a not-splittable listing, else the smaller of the maximum and what is left. */
export function takeMaximum(listing: Pick<OtcMarketListing, 'available' | 'maxPerOrder' | 'splittable'>): string {
  if (!listing.splittable) return listing.available;
  return money.formatMoney(money.min(money.parseMoney(listing.available), money.parseMoney(listing.maxPerOrder)));
}

export interface PostValues {
  quantity: string;
  price: string;
  minPerOrder: string;
  maxPerOrder: string;
  paymentWindowMinutes: number;
}

type PostField = keyof PostValues;

/**
 * The operator's rules a listing must meet (the server checks the same and says the same): price in
 * the band, per-order limits within the platform's, the minimum not above the quantity, the quantity
 * not above the largest listing, the payment time limit within the allowed range. The format of
 * each amount is checked by its field first; fields that do not parse are left to it.
 */
export function postProblems(
  values: PostValues,
  info: Pick<
    OtcInfo,
    | 'priceMin'
    | 'priceMax'
    | 'orderMinimum'
    | 'orderMaximum'
    | 'listingMaximum'
    | 'paymentWindowMinMinutes'
    | 'paymentWindowMaxMinutes'
  >,
  locale: Locale,
): Partial<Record<PostField, string>> {
  const problems: Partial<Record<PostField, string>> = {};
  const price = parseAmount(values.price);
  if (price !== null && (price < money.parseMoney(info.priceMin) || price > money.parseMoney(info.priceMax))) {
    problems.price = text(locale, 'otc.price_out_of_band', {
      min: displayMoney(info.priceMin),
      max: displayMoney(info.priceMax),
    });
  }
  const quantity = parseAmount(values.quantity);
  if (quantity !== null && quantity > money.parseMoney(info.listingMaximum)) {
    problems.quantity = text(locale, 'otc.amount_above_max', { max: displayMoney(info.listingMaximum) });
  }
  const lowest = money.parseMoney(info.orderMinimum);
  const highest = money.parseMoney(info.orderMaximum);
  const limits = text(locale, 'otc.limits_out_of_range', {
    min: displayMoney(info.orderMinimum),
    max: displayMoney(info.orderMaximum),
  });
  const min = parseAmount(values.minPerOrder);
  const max = parseAmount(values.maxPerOrder);
  if (min !== null && (min < lowest || min > highest)) problems.minPerOrder = limits;
  else if (min !== null && quantity !== null && min > quantity) problems.minPerOrder = text(locale, 'otc.limits_exceed_quantity');
  if (max !== null && (max < lowest || max > highest)) problems.maxPerOrder = limits;
  else if (min !== null && max !== null && max < min) {
    problems.maxPerOrder = translate(locale, 'field_error', {
      field: translate(locale, 'field.maxPerOrder'),
      reason: translate(locale, 'reason.otc_limits_order'),
    });
  }
  const window = values.paymentWindowMinutes;
  if (!Number.isInteger(window) || window < info.paymentWindowMinMinutes || window > info.paymentWindowMaxMinutes) {
    problems.paymentWindowMinutes = text(locale, 'otc.window_out_of_range', {
      min: info.paymentWindowMinMinutes,
      max: info.paymentWindowMaxMinutes,
    });
  }
  return problems;
}

/**
 * What posting a listing holds now (decision 031): a sell listing its quantity and the maker fee,
 * every listing the operator's deposit. Null while the quantity is not a valid amount.
 */
export function postHolds(
  side: 'sell' | 'buy',
  quantityText: string,
  info: Pick<OtcInfo, 'makerFeePct' | 'listingDeposit'>,
): { fee: string; deposit: string; total: string } | null {
  const quantity = parseAmount(quantityText);
  if (quantity === null) return null;
  const quantityMoney = money.formatMoney(quantity);
  const fee = otcFee(quantityMoney, info.makerFeePct);
  const deposit = money.parseMoney(info.listingDeposit);
  const escrow = side === 'sell' ? money.add(quantity, money.parseMoney(fee)) : money.ZERO;
  return { fee, deposit: money.formatMoney(deposit), total: money.formatMoney(money.add(escrow, deposit)) };
}

/** "98.5%" from the contract's percent string; null (no orders in 30 days) stays null. */
export function completionRateText(rate: string | null): string | null {
  if (rate === null) return null;
  const trimmed = rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate;
  return `${trimmed}%`;
}

export type Duration =
  | { key: 'otc.duration.seconds'; values: { count: number } }
  | { key: 'otc.duration.minutes'; values: { count: number } }
  | { key: 'otc.duration.hours'; values: { hours: number; minutes: number } };

/** An average release time in the largest unit that reads well: "45 s", "3 min", "1 h 5 min". */
export function durationParts(seconds: number): Duration {
  if (seconds < 60) return { key: 'otc.duration.seconds', values: { count: seconds } };
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return { key: 'otc.duration.minutes', values: { count: minutes } };
  return { key: 'otc.duration.hours', values: { hours: Math.floor(minutes / 60), minutes: minutes % 60 } };
}

/** Orders still holding escrow. */
export function isOpenOrder(state: OtcOrderState): boolean {
  return state === 'pending_payment' || state === 'paid' || state === 'appeal';
}

export type OrderClock =
  { kind: 'pay'; deadline: string } | { kind: 'release'; deadline: string } | { kind: 'appeal'; deadline: null } | null;

/**
 * What the order's countdown counts: the buyer's time to pay while unpaid; after "I have paid", the
 * seller's release window (appeals open when it ends); nothing once the order is frozen or settled.
 */
export function orderClock(order: Pick<OtcOrder, 'state' | 'payDeadline' | 'appealAllowedAt'>): OrderClock {
  switch (order.state) {
    case 'pending_payment':
      return { kind: 'pay', deadline: order.payDeadline };
    case 'paid':
      return order.appealAllowedAt ? { kind: 'release', deadline: order.appealAllowedAt } : null;
    case 'appeal':
      return { kind: 'appeal', deadline: null };
    case 'completed':
    case 'cancelled':
      return null;
  }
}

/** The three steps an order goes through and where it stands (antd Steps: current index and status). */
export function orderProgress(state: OtcOrderState): { current: number; status: 'process' | 'finish' | 'error' } {
  switch (state) {
    case 'pending_payment':
      return { current: 0, status: 'process' };
    case 'paid':
      return { current: 1, status: 'process' };
    case 'appeal':
      return { current: 1, status: 'error' };
    case 'completed':
      return { current: 2, status: 'finish' };
    case 'cancelled':
      return { current: 0, status: 'error' };
  }
}
