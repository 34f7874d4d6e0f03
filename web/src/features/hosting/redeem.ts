import { money, type HostingOrder, type Money } from '@custos/contract';

export interface RedeemPreview {
  /** The penalty rate the order was made with (plans may have changed since). */
  rate: string;
  /** The principal × the penalty rate, rounded up (as the server charges fees). */
  penalty: Money;
  /** What goes back to cash: the principal less the penalty. */
  returned: Money;
}

/** Early redemption of a principal exactly as the server computes it. */
export function redeemPreview(amount: string, earlyPenaltyRate: string): RedeemPreview {
  const principal = money.parseMoney(amount);
  const penalty = money.multiply(principal, earlyPenaltyRate, 'up');
  return { rate: earlyPenaltyRate, penalty, returned: money.subtract(principal, penalty) };
}

/** Early redemption of an order at the penalty rate it was made with, whatever its plan says today. */
export function orderRedeemPreview(order: Pick<HostingOrder, 'amount' | 'earlyPenaltyRate'>): RedeemPreview {
  return redeemPreview(order.amount, order.earlyPenaltyRate);
}
