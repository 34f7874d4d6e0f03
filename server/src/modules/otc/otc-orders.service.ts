import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  money,
  otcFee,
  otcFiatAmount,
  type Money,
  type OtcOrderDetail,
  type OtcOrderState,
  type OtcRole,
  type OtcSide,
  type otcAppealRequest,
  type otcBuyRequest,
  type otcReleaseRequest,
  type otcSellRequest,
} from '@custos/contract';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../http/app-error.js';
import { fingerprint } from '../../lib/fingerprint.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { OrderRow, PaymentMethodRow } from './otc.rows.js';
import {
  OPEN_STATES,
  iso,
  parse,
  format,
  newNumber,
  toPaymentDetail,
  listingHoldRef,
  orderHoldRef,
  type OtcDeps,
} from './otc.shared.js';
import { OtcUnit } from './otc.unit.js';
import type { OtcEscrow } from './otc.escrow.js';
import type { OtcViews } from './otc.views.js';

/**
 * A member's orders (decision 031): taking a listing (buy, sell), paying, cancelling, releasing,
 * appealing and the member's order lists. Each state change is one transaction that first holds the
 * listing row and then changes the order only if it is still in the state the action expects.
 */
export class OtcOrdersService extends OtcUnit {
  constructor(
    deps: OtcDeps,
    private readonly escrow: OtcEscrow,
    private readonly views: OtcViews,
  ) {
    super(deps);
  }

  // ── Taking a listing ─────────────────────────────────────────────────────────────────────────

  /** POST /api/otc/buy: take a sell listing. */
  buy(context: MemberSessionContext, body: z.output<typeof otcBuyRequest>): Promise<OtcOrderDetail> {
    return this.take(context, 'sell', body, undefined, async () => {});
  }

  /** POST /api/otc/sell: take a buy listing, holding the taker's USDT. */
  async sell(context: MemberSessionContext, body: z.output<typeof otcSellRequest>): Promise<OtcOrderDetail> {
    // What a withdrawal needs (decision 051): the USDT is committed to leave the account.
    await this.security.verifyTradePassword(context.member, body.tradePassword, context.sessionId);
    return this.take(context, 'buy', body, body.paymentMethodIds, async () => {
      await this.requireNotCoolingOff(context);
      // Checked last among the member's inputs: a wrong code is counted.
      await this.security.requireAuthenticatorCode(context.member, body.googleCode);
    });
  }

  private async take(
    context: MemberSessionContext,
    listingSide: OtcSide,
    body: { listingId: string; amount: string; idempotencyKey: string },
    paymentMethodIds: readonly string[] | undefined,
    /** The side's own checks, after a replay is answered and before anything is held. */
    authorise: () => Promise<void>,
  ): Promise<OtcOrderDetail> {
    const memberId = context.member.id;
    const amount = parse(body.amount);
    const requestHash = fingerprint({
      listingId: body.listingId,
      amount: format(amount),
      side: listingSide,
      methods: [...(paymentMethodIds ?? [])].sort().join(','),
    });
    const replay = (row: OrderRow) => {
      if (row.request_hash !== requestHash) throw AppError.conflict('otc.idempotency_mismatch');
      return this.views.orderDetail(row, memberId);
    };
    const earlier = await this.repository.orderByClientKey(this.db, memberId, body.idempotencyKey);
    if (earlier) return replay(earlier);
    const settings = await this.requireTrader(context);
    await this.requireNotBarred(context, settings);

    // A seller-taker's payment details: their own methods, of a type the buy listing accepts.
    let takerMethods: PaymentMethodRow[] = [];
    if (paymentMethodIds) {
      takerMethods = await this.repository.paymentMethods(memberId, this.db, paymentMethodIds);
      if (takerMethods.length !== paymentMethodIds.length) throw AppError.badRequest('otc.payment_method_invalid');
    }
    await authorise();

    const now = this.now();
    const orderId = randomUUID();
    try {
      const order = await this.db.transaction(async (tx) => {
        // The taker first (the open-order limit is counted under it), then the listing.
        await this.repository.lockMember(tx, memberId);
        const listing = await this.repository.lockListing(tx, body.listingId);
        if (!listing || listing.side !== listingSide) throw AppError.notFound();
        const winner = await this.repository.orderByClientKey(tx, memberId, body.idempotencyKey);
        if (winner) return winner;
        if (listing.member_id === memberId) throw AppError.conflict('otc.own_listing');
        if (listing.state !== 'matching') throw AppError.conflict('otc.listing_unavailable');
        if (!(await this.arbitration.listerAvailable(tx, listing.member_id, now)))
          throw AppError.conflict('otc.listing_unavailable');
        const available = parse(listing.available);
        if (available === 0n) throw AppError.conflict('otc.listing_unavailable');
        if (!listing.splittable) {
          if (amount !== available) throw AppError.badRequest('otc.not_splittable', { quantity: listing.available });
        } else {
          if (amount > available) throw AppError.conflict('otc.insufficient_available', { available: listing.available });
          const min = money.min(parse(listing.min_per_order), available);
          const max = money.min(parse(listing.max_per_order), available);
          if (amount < min) throw AppError.badRequest('otc.amount_below_min', { min: format(min) });
          if (amount > max) throw AppError.badRequest('otc.amount_above_max', { max: format(max) });
        }
        if ((await this.repository.openTakerOrders(tx, memberId)) >= settings.maxOpenTakerOrders) {
          throw AppError.conflict('otc.too_many_open_orders', { count: settings.maxOpenTakerOrders });
        }
        await this.requireNotBarred(context, settings, tx);

        const takerRole: OtcRole = listingSide === 'sell' ? 'buyer' : 'seller';
        let fee: Money;
        let escrow: Money;
        let paymentDetails: PaymentMethodRow[];
        let feeRemaining = parse(listing.fee_remaining);
        if (listingSide === 'sell') {
          // The maker (seller) pays the fee: this order's share of the listing's escrowed fee.
          const remaining = parse(listing.fee_remaining);
          fee = amount === available ? remaining : money.min(parse(otcFee(format(amount), listing.fee_pct)), remaining);
          escrow = money.add(amount, fee);
          feeRemaining = money.subtract(remaining, fee);
          paymentDetails = await this.repository.paymentMethods(listing.member_id, tx, listing.payment_method_ids);
          if (paymentDetails.length === 0) throw AppError.conflict('otc.listing_unavailable');
        } else {
          // The maker (buyer) pays the fee out of the USDT received.
          fee = parse(otcFee(format(amount), listing.fee_pct));
          if (fee >= amount) throw AppError.badRequest('otc.amount_below_min', { min: listing.min_per_order });
          escrow = amount;
          if (takerMethods.some((method) => !listing.payment_types.includes(method.type))) {
            throw AppError.badRequest('otc.payment_type_not_accepted');
          }
          paymentDetails = takerMethods;
        }
        const buyer =
          takerRole === 'buyer'
            ? { memberId, accountId: context.account.id }
            : { memberId: listing.member_id, accountId: listing.account_id };
        const seller =
          takerRole === 'seller'
            ? { memberId, accountId: context.account.id }
            : { memberId: listing.member_id, accountId: listing.account_id };
        await this.repository.insertOrder(tx, {
          id: orderId,
          orderNo: newNumber('P', now, this.options.timeZone),
          listingId: listing.id,
          listingSide,
          buyerMemberId: buyer.memberId,
          buyerAccountId: buyer.accountId,
          sellerMemberId: seller.memberId,
          sellerAccountId: seller.accountId,
          takerMemberId: memberId,
          takerRole,
          amount: format(amount),
          price: listing.price,
          fiatAmount: otcFiatAmount(format(amount), listing.price),
          fee: format(fee),
          escrow: format(escrow),
          paymentDetails: paymentDetails.map((method) => toPaymentDetail(method, true)),
          terms: listing.terms,
          payDeadline: new Date(now.getTime() + listing.payment_window_minutes * 60_000),
          clientKey: body.idempotencyKey,
          requestHash,
          now,
        });
        const newAvailable = money.subtract(available, amount);
        if (listingSide === 'sell') {
          await this.ledger.moveHold(tx, {
            from: listingHoldRef(listing),
            to: orderHoldRef(orderId),
            amount: escrow,
            idempotencyKey: `otc:take:${orderId}`,
            recordType: 'otc_escrow',
          });
        } else {
          await this.ledger.hold(tx, {
            ownerAccountId: context.account.id,
            asset: 'USDT',
            amount: escrow,
            ...orderHoldRef(orderId),
            recordType: 'otc_escrow',
          });
        }
        const usedUp = listingSide === 'sell' && newAvailable === 0n && feeRemaining === 0n;
        await this.repository.updateListing(tx, listing.id, {
          available: format(newAvailable),
          feeRemaining: format(feeRemaining),
          ...(usedUp ? { escrowSeq: listing.escrow_seq + 1 } : {}),
          now,
        });
        const conversationId = await this.chat.openOrderConversation(tx, {
          buyerMemberId: buyer.memberId,
          sellerMemberId: seller.memberId,
        });
        await this.repository.setConversation(tx, orderId, conversationId);
        await this.repository.insertStep(tx, {
          scope: 'order',
          listingId: listing.id,
          orderId,
          step: 'created',
          actor: takerRole,
          now,
        });
        await this.repository.insertStep(tx, {
          scope: 'listing',
          listingId: listing.id,
          orderId,
          step: 'order_opened',
          actor: takerRole,
          now,
        });
        const row = (await this.repository.findOrder(orderId, tx))!;
        await this.announce(tx, row, 'created');
        await this.memberEvents.publish(tx, listing.member_id, {
          kind: 'otc.listing',
          listingId: listing.id,
          state: 'matching',
          available: format(newAvailable),
        });
        return row;
      });
      return await replay(order);
    } catch (error) {
      if (isUniqueViolation(error)) {
        const winner = await this.repository.orderByClientKey(this.db, memberId, body.idempotencyKey);
        if (winner) return replay(winner);
      }
      throw error;
    }
  }

  async confirmPay(context: MemberSessionContext, orderId: string): Promise<OtcOrderDetail> {
    const { order, role } = await this.partyOrder(context, orderId);
    if (role !== 'buyer') throw AppError.forbidden();
    const settings = await this.settings.get('otc');
    await this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      const now = this.now();
      const changed = await this.repository.transition(
        tx,
        orderId,
        ['pending_payment'],
        {
          state: 'paid',
          paidAt: now,
          appealAllowedAt: new Date(now.getTime() + settings.releaseWindowMinutes * 60_000),
          now,
        },
        sql`pay_deadline > ${now}`,
      );
      if (!changed) {
        const current = (await this.repository.findOrder(orderId, tx))!;
        if (current.state === 'paid') return;
        if (current.state === 'pending_payment' || current.cancel_reason === 'payment_timeout') {
          throw AppError.conflict('otc.pay_window_passed');
        }
        throw this.stateError(current);
      }
      await this.repository.insertStep(tx, {
        scope: 'order',
        listingId: order.listing_id,
        orderId,
        step: 'paid',
        actor: 'buyer',
        now,
      });
      await this.announce(tx, changed, 'paid');
    });
    return this.views.orderDetail((await this.repository.findOrder(orderId))!, context.member.id);
  }

  buyerCancel(context: MemberSessionContext, orderId: string): Promise<OtcOrderDetail> {
    return this.partyCancel(context, orderId, 'buyer');
  }

  sellerCancel(context: MemberSessionContext, orderId: string): Promise<OtcOrderDetail> {
    return this.partyCancel(context, orderId, 'seller');
  }

  private async partyCancel(context: MemberSessionContext, orderId: string, as: OtcRole): Promise<OtcOrderDetail> {
    const { order, role } = await this.partyOrder(context, orderId);
    if (role !== as) throw AppError.forbidden();
    const reason = as === 'buyer' ? 'buyer_cancelled' : 'seller_cancelled';
    await this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      const now = this.now();
      const changed = await this.repository.transition(tx, orderId, ['pending_payment'], {
        state: 'cancelled',
        cancelledAt: now,
        cancelReason: reason,
        ...(order.taker_role === as ? { takerCancelDay: this.today(now) } : {}),
        now,
      });
      if (!changed) {
        const current = (await this.repository.findOrder(orderId, tx))!;
        if (current.state === 'cancelled' && current.cancel_reason === reason) return;
        if (as === 'seller' && current.state === 'paid') throw AppError.conflict('otc.seller_cancel_after_paid');
        throw this.stateError(current);
      }
      await this.escrow.finishCancelled(tx, changed, as, null, now);
    });
    return this.views.orderDetail((await this.repository.findOrder(orderId))!, context.member.id);
  }

  /** The seller releases: the order's escrow goes to the buyer (less the buyer-maker's fee) and the fee to the platform. */
  async release(context: MemberSessionContext, body: z.output<typeof otcReleaseRequest>): Promise<OtcOrderDetail> {
    const { order, role } = await this.partyOrder(context, body.orderId);
    if (role !== 'seller') throw AppError.forbidden();
    await this.security.verifyTradePassword(context.member, body.tradePassword, context.sessionId);
    if (order.state === 'completed') return this.views.orderDetail(order, context.member.id);
    if (!OPEN_STATES.includes(order.state)) throw this.stateError(order);
    await this.requireNotCoolingOff(context);
    await this.security.requireAuthenticatorCode(context.member, body.googleCode);
    await this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      await this.escrow.lockOrderAccounts(tx, order);
      const now = this.now();
      const changed = await this.repository.transition(tx, order.id, ['pending_payment', 'paid'], {
        state: 'completed',
        completedAt: now,
        now,
      });
      if (!changed) {
        const current = (await this.repository.findOrder(order.id, tx))!;
        if (current.state === 'completed') return;
        throw this.stateError(current);
      }
      await this.escrow.finishCompleted(tx, changed, 'seller', null, now);
    });
    return this.views.orderDetail((await this.repository.findOrder(order.id))!, context.member.id);
  }

  async appeal(context: MemberSessionContext, body: z.output<typeof otcAppealRequest>): Promise<OtcOrderDetail> {
    const { order, role } = await this.partyOrder(context, body.orderId);
    try {
      await this.db.transaction(async (tx) => {
        await this.repository.lockListing(tx, order.listing_id);
        const now = this.now();
        const current = (await this.repository.findOrder(order.id, tx))!;
        if (current.state !== 'paid' && current.state !== 'appeal') throw AppError.conflict('otc.wrong_state');
        if (current.state === 'paid' && current.appeal_allowed_at && new Date(current.appeal_allowed_at) > now) {
          throw AppError.conflict('otc.appeal_too_early', { at: iso(current.appeal_allowed_at) });
        }
        if (!(await this.arbitration.evidenceUsable(tx, context.member.id, body.imageIds))) {
          throw AppError.badRequest('otc.evidence_missing');
        }
        const opening = current.state === 'paid';
        if (opening) {
          const frozen = await this.repository.transition(tx, order.id, ['paid'], { state: 'appeal', now });
          if (!frozen) throw AppError.conflict('otc.wrong_state');
        }
        const appealId = await this.arbitration.insertAppeal(tx, {
          orderId: order.id,
          byRole: role,
          byMemberId: context.member.id,
          opening,
          reason: body.reason,
          description: body.description,
          imageIds: body.imageIds,
          now,
        });
        if (!appealId) throw AppError.conflict('otc.appeal_exists');
        await this.repository.insertStep(tx, {
          scope: 'order',
          listingId: order.listing_id,
          orderId: order.id,
          step: 'appealed',
          actor: role,
          note: body.reason,
          now,
        });
        const row = (await this.repository.findOrder(order.id, tx))!;
        await this.announce(tx, row, 'appealed');
        await this.operatorEvents.publishOtc(tx, { kind: 'otc.appeal', orderId: order.id, appealId, status: 'open' });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict('otc.appeal_exists');
      throw error;
    }
    return this.views.orderDetail((await this.repository.findOrder(order.id))!, context.member.id);
  }

  // ── Lists and detail ─────────────────────────────────────────────────────────────────────────

  async myOrders(context: MemberSessionContext, role: OtcRole, state: OtcOrderState | undefined, page: number, pageSize: number) {
    const filter = role === 'buyer' ? { buyerMemberId: context.member.id } : { sellerMemberId: context.member.id };
    const { rows, total } = await this.repository.orders(
      { ...filter, ...(state ? { state } : {}) },
      pageSize,
      (page - 1) * pageSize,
    );
    return { items: await this.views.orderViews(rows, context.member.id), total, page, pageSize };
  }

  async pendingList(context: MemberSessionContext) {
    return { items: await this.views.pendingOrders(context.member.id) };
  }

  async pendingInfo(context: MemberSessionContext) {
    const items = await this.views.pendingOrders(context.member.id);
    return { open: items.length, needsMyAction: items.filter((item) => item.needsMyAction).length };
  }

  async orderInfo(context: MemberSessionContext, orderId: string): Promise<OtcOrderDetail> {
    const { order } = await this.partyOrder(context, orderId);
    return this.views.orderDetail(order, context.member.id);
  }
}
