import { sql } from 'drizzle-orm';
import { TIMER_BATCH, type OtcDeps } from './otc.shared.js';
import { OtcUnit } from './otc.unit.js';
import type { OtcEscrow } from './otc.escrow.js';

/** The OTC timers (the `otc.timers` job): payment windows that passed, release windows that passed. */
export class OtcTimersService extends OtcUnit {
  constructor(
    deps: OtcDeps,
    private readonly escrow: OtcEscrow,
  ) {
    super(deps);
  }

  /**
   * The timers' one run (a job every minute, on any number of instances): payment windows that
   * passed cancel their orders, release windows that passed are marked (appeals open). Each order is
   * its own transaction whose change is conditional, so a run repeated, or running on two instances
   * at once, or meeting a member's or operator's action, changes an order at most once; an order
   * under appeal matches neither condition, so nothing happens to it.
   */
  async runTimers(): Promise<{ expired: number; overdue: number }> {
    const now = this.now();
    let expired = 0;
    let overdue = 0;
    for (const id of await this.repository.dueForTimeout(now, TIMER_BATCH)) if (await this.expire(id)) expired += 1;
    for (const id of await this.repository.dueForOverdue(now, TIMER_BATCH)) if (await this.markOverdue(id)) overdue += 1;
    return { expired, overdue };
  }

  /** Cancels one order whose payment window passed; false when it was not (any longer) due. */
  async expire(orderId: string): Promise<boolean> {
    const order = await this.repository.findOrder(orderId);
    if (!order) return false;
    return this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      const now = this.now();
      const changed = await this.repository.transition(
        tx,
        orderId,
        ['pending_payment'],
        {
          state: 'cancelled',
          cancelledAt: now,
          cancelReason: 'payment_timeout',
          // The buyer let the window pass: it counts as the buyer's cancellation when the buyer took the listing.
          ...(order.taker_role === 'buyer' ? { takerCancelDay: this.today(now) } : {}),
          now,
        },
        sql`pay_deadline <= ${now}`,
      );
      if (!changed) return false;
      await this.escrow.finishCancelled(tx, changed, 'system', 'payment_timeout', now);
      return true;
    });
  }

  async markOverdue(orderId: string): Promise<boolean> {
    const order = await this.repository.findOrder(orderId);
    if (!order) return false;
    return this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      const now = this.now();
      const changed = await this.repository.transition(
        tx,
        orderId,
        ['paid'],
        { releaseOverdueAt: now, now },
        sql`release_overdue_at is null and appeal_allowed_at <= ${now}`,
      );
      if (!changed) return false;
      await this.repository.insertStep(tx, {
        scope: 'order',
        listingId: order.listing_id,
        orderId,
        step: 'release_overdue',
        actor: 'system',
        now,
      });
      await this.announce(tx, changed, 'release_overdue');
      return true;
    });
  }
}
