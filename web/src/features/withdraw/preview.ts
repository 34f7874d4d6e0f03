import { money, type Locale, type Money, type WithdrawIndex, type WithdrawSettings } from '@custos/contract';
import { translate } from '../../lib/i18n/server-messages';
import { balanceProblem } from '../../lib/money/amount';

/**
 * The fee of a withdrawal exactly as the server charges it: the fixed fee plus the amount times the
 * rate, the rate part rounded up to four places (fees round up).
 */
export function withdrawFee(amount: Money, settings: Pick<WithdrawSettings, 'feeFixed' | 'feeRate'>): Money {
  return money.add(money.parseMoney(settings.feeFixed), money.multiply(amount, settings.feeRate, 'up'));
}

/** What is left of today's limit: the daily limit less what was requested today, never below zero. */
export function dailyRemaining(
  index: Pick<WithdrawIndex, 'usedToday'> & { settings: Pick<WithdrawSettings, 'dailyLimit'> },
): Money {
  const left = money.subtract(money.parseMoney(index.settings.dailyLimit), money.parseMoney(index.usedToday));
  return money.max(left, money.ZERO);
}

/** The most that may be requested now: the balance, the maximum and today's remaining limit, whichever is least. */
export function withdrawableNow(
  index: Pick<WithdrawIndex, 'balance' | 'usedToday'> & { settings: Pick<WithdrawSettings, 'maximum' | 'dailyLimit'> },
): Money {
  const balance = money.max(money.parseMoney(index.balance), money.ZERO);
  return money.min(money.min(balance, money.parseMoney(index.settings.maximum)), dailyRemaining(index));
}

export interface WithdrawQuote {
  fee: Money;
  received: Money;
}

export type WithdrawPreview = { quote: WithdrawQuote } | { problem: string };

/**
 * The fee and what arrives for an amount, or the server's own refusal of it in the app language and
 * in the server's order: below the minimum, above the maximum, not even covering the fee, beyond
 * today's limit, more than the balance.
 */
export function previewWithdrawal(
  amount: Money,
  index: Pick<WithdrawIndex, 'balance' | 'usedToday' | 'settings'>,
  locale: Locale,
): WithdrawPreview {
  const { settings } = index;
  if (amount < money.parseMoney(settings.minimum)) {
    return { problem: translate(locale, 'withdraw.below_minimum', { minimum: settings.minimum }) };
  }
  if (amount > money.parseMoney(settings.maximum)) {
    return { problem: translate(locale, 'withdraw.above_maximum', { maximum: settings.maximum }) };
  }
  const fee = withdrawFee(amount, settings);
  const received = money.subtract(amount, fee);
  if (!money.isPositive(received)) {
    return { problem: translate(locale, 'withdraw.fee_exceeds_amount', { fee: money.formatMoney(fee) }) };
  }
  const remaining = dailyRemaining(index);
  if (amount > remaining) {
    return {
      problem: translate(locale, 'withdraw.daily_limit', {
        limit: settings.dailyLimit,
        remaining: money.formatMoney(remaining),
      }),
    };
  }
  const short = balanceProblem(amount, index.balance, 'USDT', locale);
  if (short) return { problem: short };
  return { quote: { fee, received } };
}

/** The fee rule as a label: fixed part, rate part, both, or none. */
export function feeLabel(settings: Pick<WithdrawSettings, 'feeFixed' | 'feeRate'>): {
  key: 'withdraw.feeLabel.both' | 'withdraw.feeLabel.fixed' | 'withdraw.feeLabel.rate' | 'withdraw.feeLabel.free';
  hasFixed: boolean;
  hasRate: boolean;
} {
  const hasFixed = money.isPositive(money.parseMoney(settings.feeFixed));
  const hasRate = /[1-9]/.test(settings.feeRate);
  const key = hasFixed && hasRate ? 'both' : hasFixed ? 'fixed' : hasRate ? 'rate' : 'free';
  return { key: `withdraw.feeLabel.${key}`, hasFixed, hasRate };
}
