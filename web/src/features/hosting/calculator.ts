import { money, quoteHosting, type HostingConfig, type HostingPlan, type Locale, type Money } from '@custos/contract';
import { translate } from '../../lib/i18n/server-messages';
import { balanceProblem } from '../../lib/money/amount';
import { orderDates } from './dates';

export interface DepositQuote {
  /** Interest paid each day (rounded down, as the server pays it). */
  dailyInterest: Money;
  /** The daily interest × the period: exactly what the order earns in full. */
  totalInterest: Money;
}

export interface DepositCalculation {
  startDate: string;
  endDate: string;
  /** Null until the amount is one the server would take. */
  quote: DepositQuote | null;
  /** The server's refusal of the amount, in the app language; null when acceptable or empty. */
  problem: string | null;
}

type PlanTerms = Pick<HostingPlan, 'periodDays' | 'dailyRate' | 'minAmount' | 'maxAmount'>;

/**
 * The server's refusal of an amount for a plan, in its order and words: outside the plan's range
 * ("This plan takes from 100.0000 to 5000.0000 USDT"), then more than the cash balance.
 */
export function depositProblem(amount: Money, plan: PlanTerms, cashBalance: string, locale: Locale): string | null {
  if (amount < money.parseMoney(plan.minAmount) || amount > money.parseMoney(plan.maxAmount)) {
    return translate(locale, 'hosting.amount_range', { min: plan.minAmount, max: plan.maxAmount });
  }
  return balanceProblem(amount, cashBalance, 'USDT', locale);
}

/** "All": the whole cash balance, at most the plan's maximum, never below zero. */
export function depositAll(plan: Pick<HostingPlan, 'maxAmount'>, cashBalance: string): Money {
  const cash = money.max(money.parseMoney(cashBalance), money.ZERO);
  return money.min(cash, money.parseMoney(plan.maxAmount));
}

/**
 * The calculator shown before confirming: the order's start (today in the platform time zone) and
 * end date, and for an acceptable amount the daily and total interest with the contract's
 * `quoteHosting`, which is what the server pays.
 */
export function calculateDeposit(
  amount: Money | null,
  plan: PlanTerms,
  config: Pick<HostingConfig, 'cashBalance' | 'timeZone'>,
  locale: Locale,
  now: Date,
): DepositCalculation {
  const dates = orderDates(plan.periodDays, config.timeZone, now);
  if (amount === null) return { ...dates, quote: null, problem: null };
  const problem = depositProblem(amount, plan, config.cashBalance, locale);
  return { ...dates, quote: problem ? null : quoteHosting(amount, plan), problem };
}
