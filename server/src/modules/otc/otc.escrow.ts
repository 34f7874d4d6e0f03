import { money, type OtcActor } from '@custos/contract';
import type { Tx } from '../../db/client.js';
import type { LedgerAccountRef } from '../ledger/ledger.service.js';
import type { ListingRow, OrderRow } from './otc.rows.js';
import { DEPOSIT_HOLD, parse, format, listingHoldRef, orderHoldRef } from './otc.shared.js';
import { OtcUnit } from './otc.unit.js';

/**
 * Where an order's or a listing's escrow goes when it ends (decision 031): back to the listing or the
 * seller, to the buyer and the fee account, and the listing's deposit when nothing stands behind it.
 */
export class OtcEscrow extends OtcUnit {
  async closeListing(tx: Tx, listing: ListingRow, actor: OtcActor, note: string | null): Promise<void> {
    const now = this.now();
    const escrow = money.add(parse(listing.available), parse(listing.fee_remaining));
    if (listing.side === 'sell' && escrow > 0n) {
      await this.ledger.releaseHold(tx, listingHoldRef(listing), 'otc_refund');
    }
    // The escrow sequence stays: it names a listing's next hold, and a cancelled listing never holds again.
    await this.repository.updateListing(tx, listing.id, { available: '0', feeRemaining: '0', state: 'cancelled', now });
    await this.repository.insertStep(tx, { scope: 'listing', listingId: listing.id, step: 'revoked', actor, note, now });
    await this.settleListingIfDone(tx, listing.id, now);
  }

  /**
   * After an order of the listing ended (or the listing was closed): a listing with nothing left and
   * no open order has ended; a closed listing with no open order gives its deposit back.
   */
  async settleListingIfDone(tx: Tx, listingId: string, now: Date): Promise<void> {
    const listing = (await this.repository.findListing(listingId, tx))!;
    let state = listing.state;
    if (state === 'matching' && parse(listing.available) === 0n && listing.open_orders === 0) {
      state = 'ended';
      await this.repository.updateListing(tx, listingId, { state, now });
      await this.repository.insertStep(tx, { scope: 'listing', listingId, step: 'ended', actor: 'system', now });
    }
    if (state !== 'matching' && listing.open_orders === 0 && listing.deposit_status === 'held') {
      await this.ledger.releaseHold(tx, { referenceType: DEPOSIT_HOLD, referenceId: listingId }, 'otc_refund');
      await this.repository.updateListing(tx, listingId, { depositStatus: 'released', now });
      await this.repository.insertStep(tx, { scope: 'listing', listingId, step: 'deposit_released', actor: 'system', now });
    }
    await this.memberEvents.publish(tx, listing.member_id, {
      kind: 'otc.listing',
      listingId,
      state,
      available: format(parse(listing.available)),
    });
  }

  /** A cancelled order's escrow goes back: to its listing while the listing is on the market, else to the seller. */
  async finishCancelled(tx: Tx, order: OrderRow, actor: OtcActor, note: string | null, now: Date): Promise<void> {
    const listing = (await this.repository.findListing(order.listing_id, tx))!;
    const amount = parse(order.amount);
    if (order.listing_side === 'sell' && listing.state === 'matching') {
      await this.ledger.moveHold(tx, {
        from: orderHoldRef(order.id),
        to: listingHoldRef(listing),
        amount: parse(order.escrow),
        idempotencyKey: `otc:return:${order.id}`,
        recordType: 'otc_escrow',
      });
      await this.repository.updateListing(tx, listing.id, {
        available: format(money.add(parse(listing.available), amount)),
        feeRemaining: format(money.add(parse(listing.fee_remaining), parse(order.fee))),
        now,
      });
    } else {
      await this.ledger.releaseHold(tx, orderHoldRef(order.id), 'otc_refund');
      if (order.listing_side === 'buy' && listing.state === 'matching') {
        await this.repository.updateListing(tx, listing.id, {
          available: format(money.add(parse(listing.available), amount)),
          now,
        });
      }
    }
    await this.repository.insertStep(tx, {
      scope: 'order',
      listingId: order.listing_id,
      orderId: order.id,
      step: 'cancelled',
      actor,
      note: note ?? order.cancel_reason,
      now,
    });
    await this.repository.insertStep(tx, {
      scope: 'listing',
      listingId: order.listing_id,
      orderId: order.id,
      step: 'order_cancelled',
      actor,
      now,
    });
    await this.announce(tx, order, 'cancelled');
    await this.settleListingIfDone(tx, order.listing_id, now);
  }

  /** Locks every account a settlement of the order may touch, in the ledger's one order (no deadlocks between entries). */
  async lockOrderAccounts(tx: Tx, order: OrderRow): Promise<void> {
    const listing = (await this.repository.findListing(order.listing_id, tx))!;
    const refs: LedgerAccountRef[] = [
      { ownerAccountId: order.seller_account_id, asset: 'USDT', purpose: 'held' },
      { ownerAccountId: order.seller_account_id, asset: 'USDT', purpose: 'available' },
      { ownerAccountId: order.buyer_account_id, asset: 'USDT', purpose: 'available' },
      { ownerAccountId: listing.account_id, asset: 'USDT', purpose: 'held' },
      { ownerAccountId: listing.account_id, asset: 'USDT', purpose: 'available' },
      { platformCode: 'fees', asset: 'USDT' },
    ];
    await this.ledger.lockBalances(tx, refs);
  }

  async finishCompleted(tx: Tx, order: OrderRow, actor: OtcActor, note: string | null, now: Date): Promise<void> {
    const amount = parse(order.amount);
    const fee = parse(order.fee);
    const received = order.listing_side === 'sell' ? amount : money.subtract(amount, fee);
    await this.ledger.captureHoldSplit(
      tx,
      orderHoldRef(order.id),
      [
        {
          account: { ownerAccountId: order.buyer_account_id, asset: 'USDT', purpose: 'available' },
          amount: received,
          recordType: 'otc_received',
        },
        { account: { platformCode: 'fees', asset: 'USDT' }, amount: fee, recordType: 'otc_release' },
      ],
      'otc_release',
    );
    await this.repository.updateListing(tx, order.listing_id, { completedDelta: format(amount), now });
    await this.repository.insertStep(tx, {
      scope: 'order',
      listingId: order.listing_id,
      orderId: order.id,
      step: 'released',
      actor,
      note,
      now,
    });
    await this.repository.insertStep(tx, {
      scope: 'listing',
      listingId: order.listing_id,
      orderId: order.id,
      step: 'order_completed',
      actor,
      now,
    });
    await this.announce(tx, order, 'released');
    await this.settleListingIfDone(tx, order.listing_id, now);
  }
}
