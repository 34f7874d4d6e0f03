import { contractClosePrice, type ContractCloseReason, type ContractSide } from '@custos/contract';
import type { ManualCloseAudit, ManualTickRow } from './manual-quotes.repository.js';

/**
 * What a take-profit or stop-loss fills at (decision 050). On a feed or replay tick, the tick's
 * price (market execution: a gap fills at the gap). On a manual tick, the order's own target: an
 * operator's price is no market a member could have traded in, so it may fire a target but never pay
 * (or cost) beyond it.
 */
export function triggeredClosePrice(
  order: { side: ContractSide; take_profit: string | null; stop_loss: string | null },
  quote: { bid: string; ask: string },
  reason: ContractCloseReason,
  manualTick: boolean,
): string {
  if (manualTick && reason === 'take_profit' && order.take_profit !== null) return order.take_profit;
  if (manualTick && reason === 'stop_loss' && order.stop_loss !== null) return order.stop_loss;
  return contractClosePrice(order.side, quote);
}

const SCALE_PLACES = 8;

/** A non-negative decimal string as an integer of 10⁻⁸ (prices are numeric(30,8)). */
function scaled(value: string): bigint {
  const [whole = '0', fraction = ''] = value.trim().split('.');
  return BigInt(whole + fraction.slice(0, SCALE_PLACES).padEnd(SCALE_PLACES, '0'));
}

/** Deviations are stored as integers: anything this far off is simply "very far". */
const MAX_DEVIATION_BPS = 1_000_000_000;

/**
 * How far a bid/ask strays from a reference's mid: the larger of the bid's and the ask's distance,
 * in basis points of the mid, rounded up (so `deviation ≤ band` is exactly "within the band").
 */
export function quoteDeviationBps(quote: { bid: string; ask: string }, reference: { bid: string; ask: string }): number {
  const twiceMid = scaled(reference.bid) + scaled(reference.ask);
  if (twiceMid <= 0n) return MAX_DEVIATION_BPS;
  const distance = (value: string) => {
    const gap = 2n * scaled(value) - twiceMid;
    return gap < 0n ? -gap : gap;
  };
  const bid = distance(quote.bid);
  const ask = distance(quote.ask);
  const worst = bid > ask ? bid : ask;
  const bps = (worst * 10_000n + twiceMid - 1n) / twiceMid;
  return bps > BigInt(MAX_DEVIATION_BPS) ? MAX_DEVIATION_BPS : Number(bps);
}

/**
 * The audit rows of a walk's closes on manual ticks: one per order closed, in the name of the
 * operator who entered the tick (and naming the one who approved it, if any).
 */
export function manualCloseAudits(
  closes: readonly {
    id: string;
    fields: { closePrice: string; closeTickId: string; reason: ContractCloseReason; pnl: string };
  }[],
  closedIds: readonly string[],
  manual: ReadonlyMap<string, ManualTickRow>,
): ManualCloseAudit[] {
  const closed = new Set(closedIds);
  return closes.flatMap(({ id, fields }) => {
    const tick = manual.get(fields.closeTickId);
    if (!tick || !closed.has(id)) return [];
    return [
      {
        operatorId: tick.entered_by,
        orderId: id,
        after: {
          tickId: tick.tick_id,
          enteredBy: tick.entered_by,
          approvedBy: tick.approved_by,
          proposalId: tick.proposal_id,
          reason: fields.reason,
          closePrice: fields.closePrice,
          pnl: fields.pnl,
        },
      },
    ];
  });
}
