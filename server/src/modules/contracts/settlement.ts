import { money, type Money } from '@custos/contract';
import type { EntrySpec, HoldSettlement } from '../ledger/ledger.service.js';

/** The ledger hold of an order's margin: reference `contract_order` / `<order id>`. */
export const ORDER_HOLD = 'contract_order';

const BOOK = { platformCode: 'contracts_book' as const, asset: 'USDT' as const };

/** A closed order as its settlement needs it: the result is final (already limited to what the account can pay). */
export interface ClosedOrder {
  /** The closed row (a partial close's own row). */
  id: string;
  accountId: string;
  margin: string;
  /** P&L + swap as settled, signed. */
  result: string;
  /** The hold's pending amount, as the settlement's own transaction read it. */
  held: Money;
}

/** A settlement that does not fit the hold it would settle: nothing of it may move. */
export class SettlementMismatchError extends Error {
  override name = 'SettlementMismatchError';
}

/**
 * The ledger side of one closed order (decision 049), the same for a close settled in its own
 * transaction and for the watcher's batch:
 * - the hold must be exactly the order's margin: figures read from a stale row (a partial close that
 *   shrank the order meanwhile) are refused, not settled;
 * - a profit releases the hold and the book pays the profit;
 * - a loss within the margin captures the hold: the loss to the book, the rest back to available;
 * - a loss beyond the margin captures the whole hold to the book, and the rest of the loss is paid from
 *   the account's available USDT (cross margin). The caller has already limited the result to what the
 *   account can pay (its equity floored at zero); what it could not is the book's and is never posted.
 */
export function settlementOf(order: ClosedOrder): { settlement: HoldSettlement; entries: EntrySpec[] } {
  const margin = money.parseMoney(order.margin);
  if (order.held !== margin) {
    throw new SettlementMismatchError(
      `contract order ${order.id}: hold ${money.formatMoney(order.held)} is not its margin ${order.margin}`,
    );
  }
  const reference = { referenceType: ORDER_HOLD, referenceId: order.id };
  const available = { ownerAccountId: order.accountId, asset: 'USDT' as const, purpose: 'available' as const };
  const result = money.parseMoney(order.result);
  if (result >= 0n) {
    const entries: EntrySpec[] =
      result > 0n
        ? [
            {
              idempotencyKey: `contracts:profit:${order.id}`,
              kind: 'contract_profit',
              referenceType: ORDER_HOLD,
              referenceId: order.id,
              postings: [
                { account: available, amount: result, recordType: 'contract_profit' },
                { account: BOOK, amount: money.negate(result), recordType: 'contract_profit' },
              ],
            },
          ]
        : [];
    return { settlement: { reference, status: 'released', recordType: 'contract_margin_release' }, entries };
  }
  const loss = money.negate(result);
  if (loss <= margin) {
    const back = money.subtract(margin, loss);
    return {
      settlement: {
        reference,
        status: 'captured',
        recordType: 'contract_loss',
        destinations: [
          ...(back > 0n ? [{ account: available, amount: back, recordType: 'contract_margin_release' as const }] : []),
          { account: BOOK, amount: loss, recordType: 'contract_loss' },
        ],
      },
      entries: [],
    };
  }
  const beyond = money.subtract(loss, margin);
  return {
    settlement: {
      reference,
      status: 'captured',
      recordType: 'contract_loss',
      destinations: [{ account: BOOK, amount: margin, recordType: 'contract_loss' }],
    },
    entries: [
      {
        idempotencyKey: `contracts:loss:${order.id}`,
        kind: 'contract_loss',
        referenceType: ORDER_HOLD,
        referenceId: order.id,
        postings: [
          { account: available, amount: money.negate(beyond), recordType: 'contract_loss' },
          { account: BOOK, amount: beyond, recordType: 'contract_loss' },
        ],
      },
    ],
  };
}

/**
 * How a loss beyond an order's margin is paid (decision 049): `payable` is what the account has to pay
 * it with. Answers the result the order settles at: in full when the account can pay, else the margin
 * and everything the account has (its equity floored at zero; the rest is written off to the book).
 */
export function resultWithin(result: string, margin: string, payable: Money): string {
  const loss = money.negate(money.parseMoney(result));
  const held = money.parseMoney(margin);
  if (loss <= held) return result;
  const beyond = money.subtract(loss, held);
  const paid = money.min(beyond, money.max(payable, money.ZERO));
  return money.formatMoney(money.negate(money.add(held, paid)));
}
