import { money, type HostingOrder, type HostingPlan, type Money } from '@custos/contract';
import { trimMoney } from '../../lib/format/money';

export interface RedeemPreview {
  /** The principal × the penalty rate, rounded up (as the server charges fees). */
  penalty: Money;
  /** What goes back to cash: the principal less the penalty. */
  returned: Money;
}

/** Early redemption of a principal exactly as the server computes it. */
export function redeemPreview(amount: string, earlyPenaltyRate: string): RedeemPreview {
  const principal = money.parseMoney(amount);
  const penalty = money.multiply(principal, earlyPenaltyRate, 'up');
  return { penalty, returned: money.subtract(principal, penalty) };
}

/**
 * The penalty rate to preview with. An order keeps the terms it was made with, but the API sends
 * the penalty rate only with the open plans, so this is the order's plan's rate while the plan is
 * open and still has the order's period and daily rate; otherwise (retired, or its terms changed
 * since) it is unknown here and the dialog says the penalty follows the order's own terms.
 */
export function penaltyRateFor(
  order: Pick<HostingOrder, 'planId' | 'periodDays' | 'dailyRate'>,
  plans: readonly Pick<HostingPlan, 'id' | 'earlyPenaltyRate' | 'periodDays' | 'dailyRate'>[],
): string | null {
  const plan = plans.find((candidate) => candidate.id === order.planId);
  if (!plan || plan.periodDays !== order.periodDays || trimMoney(plan.dailyRate) !== trimMoney(order.dailyRate)) return null;
  return plan.earlyPenaltyRate;
}
