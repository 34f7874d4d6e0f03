import type { z } from 'zod';
import type {
  AdminOtcAppealItem,
  AdminOtcOrderDetail,
  OtcRole,
  adminOtcChatSendRequest,
  adminOtcRuleRequest,
} from '@custos/contract';
import { AppError } from '../../http/app-error.js';
import type { OrderRow } from './otc.rows.js';
import { DEPOSIT_HOLD, iso, preview, toAppeal, type OperatorActor, type OtcDeps } from './otc.shared.js';
import { OtcUnit } from './otc.unit.js';
import type { OtcEscrow } from './otc.escrow.js';
import type { OtcViews } from './otc.views.js';

/** The arbiters' side of an appeal: the ruling, the appeal queue, the arbiter's messages and suspensions. */
export class OtcRulingsService extends OtcUnit {
  constructor(
    deps: OtcDeps,
    private readonly escrow: OtcEscrow,
    private readonly views: OtcViews,
  ) {
    super(deps);
  }

  /** The arbiter writes to both parties (audited: the ruling's record). */
  async adminChatSend(actor: OperatorActor, orderId: string, body: z.output<typeof adminOtcChatSendRequest>) {
    const order = await this.repository.findOrder(orderId);
    if (!order) throw AppError.notFound();
    const message = await this.db.transaction(async (tx) => {
      const posted = await this.chat.postOrderMessage(
        tx,
        order.conversation_id!,
        { operatorId: actor.operatorId, ownerMemberId: order.seller_member_id },
        { text: body.text, imageBase64: body.imageBase64 },
      );
      for (const memberId of [order.buyer_member_id, order.seller_member_id]) {
        await this.memberEvents.publish(tx, memberId, {
          kind: 'otc.chat',
          orderId: order.id,
          messageId: posted.id,
          preview: preview(body.text),
        });
      }
      await this.operatorEvents.publishOtc(tx, { kind: 'otc.chat', orderId: order.id, messageId: posted.id });
      await this.recordAudit(tx, actor, 'otc.chat_message', 'otc_order', order.id, null, {
        messageId: posted.id,
        text: body.text ?? null,
        image: body.imageBase64 !== undefined,
      });
      return posted;
    });
    return { ...this.views.toChatMessage(message, order, null), agentName: message.agentName };
  }

  /**
   * A ruling on an appealed order: release to the buyer or return to the seller, optionally forfeit
   * the lister's deposit (only when the ruling goes against the lister) and suspend a party. The
   * order must still be under appeal: the ruling and any timer are serialised on the listing row
   * and the order's conditional change, and a timer never matches an appealed order.
   */
  async rule(actor: OperatorActor, orderId: string, body: z.output<typeof adminOtcRuleRequest>): Promise<AdminOtcOrderDetail> {
    const order = await this.repository.findOrder(orderId);
    if (!order) throw AppError.notFound();
    // An operator who replaced a party's credentials may be the one holding them: during the pause
    // after that reset, another arbiter rules (decision 051).
    const { securityCoolingOffHours } = await this.settings.get('withdraw');
    if (securityCoolingOffHours > 0) {
      const since = new Date(this.now().getTime() - securityCoolingOffHours * 3_600_000);
      const parties = [order.buyer_member_id, order.seller_member_id];
      if (await this.arbitration.operatorResetAny(actor.operatorId, parties, since))
        throw AppError.conflict('otc.arbiter_reset_party', { hours: securityCoolingOffHours });
    }
    await this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      await this.escrow.lockOrderAccounts(tx, order);
      const now = this.now();
      const listing = (await this.repository.findListing(order.listing_id, tx))!;
      const listerRole: OtcRole = order.taker_role === 'buyer' ? 'seller' : 'buyer';
      const offender: OtcRole = body.ruling === 'release_to_buyer' ? 'seller' : 'buyer';
      if (body.forfeitDeposit) {
        if (offender !== listerRole) throw AppError.conflict('otc.forfeit_not_lister');
        if (listing.deposit_status !== 'held') throw AppError.conflict('otc.no_deposit');
      }
      const changed = await this.repository.transition(
        tx,
        orderId,
        ['appeal'],
        body.ruling === 'release_to_buyer'
          ? { state: 'completed', completedAt: now, now }
          : { state: 'cancelled', cancelledAt: now, cancelReason: 'ruling', now },
      );
      if (!changed) throw AppError.conflict('otc.not_under_appeal');
      await this.announce(tx, changed, 'ruled');
      await this.arbitration.ruleAppeals(tx, orderId, {
        ruling: body.ruling,
        note: body.note,
        operatorId: actor.operatorId,
        now,
      });
      await this.repository.insertStep(tx, {
        scope: 'order',
        listingId: order.listing_id,
        orderId,
        step: 'ruled',
        actor: 'operator',
        note: `${body.ruling}: ${body.note}`,
        now,
      });
      if (body.forfeitDeposit) {
        await this.ledger.captureHold(
          tx,
          { referenceType: DEPOSIT_HOLD, referenceId: listing.id },
          { platformCode: 'fees', asset: 'USDT' },
          { from: 'otc_release', to: 'otc_release' },
        );
        await this.repository.updateListing(tx, listing.id, { depositStatus: 'forfeited', now });
        await this.repository.insertStep(tx, {
          scope: 'listing',
          listingId: listing.id,
          orderId,
          step: 'deposit_forfeited',
          actor: 'operator',
          note: body.note,
          now,
        });
      }
      let suspended: { memberId: string; until: string } | null = null;
      if (body.suspend) {
        const memberId = body.suspend.role === 'buyer' ? order.buyer_member_id : order.seller_member_id;
        const until = new Date(now.getTime() + body.suspend.days * 86_400_000);
        await this.arbitration.insertSuspension(tx, {
          memberId,
          until,
          reason: body.note,
          orderId,
          operatorId: actor.operatorId,
          now,
        });
        suspended = { memberId, until: until.toISOString() };
      }
      if (body.ruling === 'release_to_buyer') await this.escrow.finishCompleted(tx, changed, 'operator', body.note, now);
      else await this.escrow.finishCancelled(tx, changed, 'operator', 'ruling', now);
      if (body.forfeitDeposit) {
        // A lister found at fault loses the deposit that stood behind the listing: with nothing behind
        // it, the listing leaves the market (what is left returns as on a take-down).
        const after = (await this.repository.findListing(listing.id, tx))!;
        if (after.state === 'matching') await this.escrow.closeListing(tx, after, 'operator', body.note);
      }
      const appeals = await this.arbitration.appealsOf([orderId], tx);
      const opening = appeals.find((appeal) => appeal.opening);
      if (opening)
        await this.operatorEvents.publishOtc(tx, { kind: 'otc.appeal', orderId, appealId: opening.id, status: 'ruled' });
      await this.recordAudit(
        tx,
        actor,
        'otc.appeal_ruled',
        'otc_order',
        orderId,
        { state: order.state, escrow: order.escrow, depositStatus: listing.deposit_status },
        { ruling: body.ruling, note: body.note, forfeitDeposit: body.forfeitDeposit, suspended },
      );
    });
    return this.views.adminOrder(orderId);
  }

  async appealQueue(status: 'open' | 'ruled', page: number, pageSize: number) {
    const { rows, total, open } = await this.arbitration.appealQueue(status, pageSize, (page - 1) * pageSize);
    const orders = await Promise.all(rows.map((row) => this.repository.findOrder(row.order_id)));
    const views = await this.views.adminOrderViews(orders.filter((row): row is OrderRow => row !== null));
    const byId = new Map(views.map((view) => [view.id, view]));
    const items: AdminOtcAppealItem[] = rows.map((row) => ({
      ...toAppeal(row),
      order: byId.get(row.order_id)!,
      ruledBy: row.ruled_by_name,
    }));
    return { items, total, page, pageSize, openTotal: open };
  }

  async suspensions() {
    const rows = await this.arbitration.activeSuspensions(this.now());
    return {
      items: rows.map((row) => ({
        memberId: row.member_id,
        email: row.email,
        nickname: row.nickname,
        until: iso(row.until),
        reason: row.reason,
        orderNo: row.order_no,
        createdAt: iso(row.created_at),
      })),
    };
  }

  async liftSuspension(actor: OperatorActor, memberId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const lifted = await this.arbitration.liftSuspensions(tx, memberId, actor.operatorId, this.now());
      if (lifted === 0) throw AppError.notFound();
      await this.recordAudit(tx, actor, 'otc.suspension_lifted', 'member', memberId, { suspended: true }, { suspended: false });
    });
  }
}
