import {
  money,
  type AdminOtcOrder,
  type AdminOtcOrderDetail,
  type AdminOtcParty,
  type OtcChatMessage,
  type OtcListingDetail,
  type OtcMarketListing,
  type OtcMyListing,
  type OtcOrder,
  type OtcOrderDetail,
  type OtcOrderStep,
  type OtcPaymentDetail,
  type OtcRole,
  type OtcSettings,
} from '@custos/contract';
import { AppError } from '../../http/app-error.js';
import type { OrderChatMessage } from '../support-chat/support-chat.service.js';
import type { AppealRow, ListingRow, OrderRow, ReputationRow, StepRow } from './otc.rows.js';
import {
  OPEN_STATES,
  iso,
  isoOrNull,
  parse,
  format,
  toPaymentDetail,
  toReputation,
  toAppeal,
  needsAction,
} from './otc.shared.js';
import { OtcUnit } from './otc.unit.js';

/** What members and the console see of listings and orders (read-only: no state changes here). */
export class OtcViews extends OtcUnit {
  toMarketListing(row: ListingRow, reputations: Map<string, ReputationRow>, viewerId: string | null): OtcMarketListing {
    const available = parse(row.available);
    const min = row.splittable ? money.min(parse(row.min_per_order), available) : available;
    const max = row.splittable ? money.min(parse(row.max_per_order), available) : available;
    return {
      id: row.id,
      listingNo: row.listing_no,
      side: row.side,
      trader: toReputation(reputations.get(row.member_id)),
      price: row.price,
      quantity: row.quantity,
      available: row.available,
      minPerOrder: format(min),
      maxPerOrder: format(max),
      splittable: row.splittable,
      paymentTypes: row.payment_types,
      paymentWindowMinutes: row.payment_window_minutes,
      terms: row.terms,
      deposit: row.deposit,
      createdAt: iso(row.created_at),
      mine: viewerId === row.member_id,
    };
  }

  async toMyListing(row: ListingRow, reputations: Map<string, ReputationRow>): Promise<OtcMyListing> {
    const methods = await this.repository.paymentMethods(row.member_id, this.db, row.payment_method_ids);
    return {
      ...this.toMarketListing(row, reputations, row.member_id),
      state: row.state,
      inOrders: row.in_orders,
      completed: row.completed,
      openOrders: row.open_orders,
      makerFeePct: row.fee_pct,
      escrowHeld: row.side === 'sell' ? format(money.add(parse(row.available), parse(row.fee_remaining))) : '0.0000',
      depositStatus: row.deposit_status,
      paymentMethods: methods.map((method) => toPaymentDetail(method, false)),
      updatedAt: iso(row.updated_at),
    };
  }

  trail<T extends string>(rows: StepRow[]) {
    return rows.map((row) => ({
      step: row.step as T,
      actor: row.actor,
      orderNo: row.order_no,
      note: row.note,
      at: iso(row.created_at),
    }));
  }

  async listingDetail(row: ListingRow, reputations: Map<string, ReputationRow>): Promise<OtcListingDetail> {
    return {
      ...(await this.toMyListing(row, reputations)),
      trail: this.trail(await this.repository.listingTrail(row.id)),
    };
  }

  async pendingOrders(memberId: string) {
    const { rows } = await this.repository.orders({ memberId, states: OPEN_STATES }, 100, 0);
    const views = await this.orderViews(rows, memberId);
    const items = views.map((view) => ({ ...view, needsMyAction: needsAction(view) }));
    return items.sort((a, b) => Number(b.needsMyAction) - Number(a.needsMyAction));
  }

  async orderViews(rows: OrderRow[], viewerId: string): Promise<OtcOrder[]> {
    if (rows.length === 0) return [];
    const settings = await this.settings.get('otc');
    const now = this.now();
    const counterparts = rows.map((row) => (row.buyer_member_id === viewerId ? row.seller_member_id : row.buyer_member_id));
    const [reputations, appeals] = await Promise.all([
      this.repository.reputations([...new Set(counterparts)], now),
      this.arbitration.appealsOf(rows.map((row) => row.id)),
    ]);
    return rows.map((row) =>
      this.toOrder(
        row,
        viewerId,
        reputations,
        appeals.filter((appeal) => appeal.order_id === row.id),
        settings,
        now,
      ),
    );
  }

  async orderDetail(row: OrderRow, viewerId: string): Promise<OtcOrderDetail> {
    const [view] = await this.orderViews([row], viewerId);
    return { ...view!, trail: this.trail<OtcOrderStep>(await this.repository.orderTrail(row.id)) };
  }

  toOrder(
    row: OrderRow,
    viewerId: string,
    reputations: Map<string, ReputationRow>,
    appeals: AppealRow[],
    settings: OtcSettings,
    now: Date,
  ): OtcOrder {
    const role: OtcRole = row.buyer_member_id === viewerId ? 'buyer' : 'seller';
    const counterpart = role === 'buyer' ? row.seller_member_id : row.buyer_member_id;
    const open = OPEN_STATES.includes(row.state);
    const pending = row.state === 'pending_payment';
    const myAppeal = appeals.some((appeal) => appeal.by_role === role);
    const appealOpen =
      (row.state === 'paid' && row.appeal_allowed_at !== null && new Date(row.appeal_allowed_at) <= now) ||
      (row.state === 'appeal' && !myAppeal);
    const amount = parse(row.amount);
    return {
      id: row.id,
      orderNo: row.order_no,
      listingId: row.listing_id,
      listingNo: row.listing_no,
      myRole: role,
      iAmMaker: row.listing_member_id === viewerId,
      state: row.state,
      amount: row.amount,
      price: row.price,
      fiatCurrency: settings.fiatCurrency,
      fiatAmount: row.fiat_amount,
      fee: row.fee,
      buyerReceives: format(row.listing_side === 'sell' ? amount : money.subtract(amount, parse(row.fee))),
      counterparty: toReputation(reputations.get(counterpart)),
      paymentMethods: role === 'buyer' && open ? (row.payment_details as OtcPaymentDetail[]) : [],
      payDeadline: iso(row.pay_deadline),
      paidAt: isoOrNull(row.paid_at),
      appealAllowedAt: isoOrNull(row.appeal_allowed_at),
      completedAt: isoOrNull(row.completed_at),
      cancelledAt: isoOrNull(row.cancelled_at),
      cancelReason: row.cancel_reason,
      appeals: appeals.map(toAppeal),
      actions: {
        confirmPay: role === 'buyer' && pending && new Date(row.pay_deadline) > now,
        buyerCancel: role === 'buyer' && pending,
        sellerCancel: role === 'seller' && pending,
        release: role === 'seller' && (pending || row.state === 'paid'),
        appeal: appealOpen,
        chat: open,
      },
      terms: row.terms,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
      serverTime: now.toISOString(),
    };
  }

  toChatMessage(message: OrderChatMessage, order: OrderRow, viewerId: string | null): OtcChatMessage {
    const sender =
      message.senderMemberId === null ? 'agent' : message.senderMemberId === order.buyer_member_id ? 'buyer' : 'seller';
    return {
      id: message.id,
      sender,
      mine: viewerId !== null && message.senderMemberId === viewerId,
      text: message.text,
      hasImage: message.hasImage,
      createdAt: message.createdAt,
    };
  }

  async adminParties(memberIds: readonly string[]): Promise<Map<string, AdminOtcParty>> {
    const unique = [...new Set(memberIds)];
    const now = this.now();
    const [parties, reputations] = await Promise.all([this.repository.parties(unique), this.repository.reputations(unique, now)]);
    const result = new Map<string, AdminOtcParty>();
    for (const id of unique) {
      const party = parties.get(id);
      if (!party) continue;
      const until = await this.arbitration.suspendedUntil(id, now);
      result.set(id, {
        memberId: id,
        accountId: party.account_id,
        email: party.email,
        nickname: party.nickname,
        reputation: toReputation(reputations.get(id)),
        suspendedUntil: isoOrNull(until),
      });
    }
    return result;
  }

  async adminOrderViews(rows: OrderRow[]): Promise<AdminOtcOrder[]> {
    const settings = await this.settings.get('otc');
    const parties = await this.adminParties(rows.flatMap((row) => [row.buyer_member_id, row.seller_member_id]));
    return rows.map((row) => ({
      id: row.id,
      orderNo: row.order_no,
      listingId: row.listing_id,
      listingNo: row.listing_no,
      listingSide: row.listing_side,
      state: row.state,
      amount: row.amount,
      price: row.price,
      fiatCurrency: settings.fiatCurrency,
      fiatAmount: row.fiat_amount,
      fee: row.fee,
      buyer: parties.get(row.buyer_member_id)!,
      seller: parties.get(row.seller_member_id)!,
      taker: row.taker_role,
      payDeadline: iso(row.pay_deadline),
      paidAt: isoOrNull(row.paid_at),
      appealAllowedAt: isoOrNull(row.appeal_allowed_at),
      completedAt: isoOrNull(row.completed_at),
      cancelledAt: isoOrNull(row.cancelled_at),
      cancelReason: row.cancel_reason,
      escrowHeld: OPEN_STATES.includes(row.state) ? row.escrow : '0.0000',
      createdAt: iso(row.created_at),
    }));
  }

  async adminOrder(orderId: string): Promise<AdminOtcOrderDetail> {
    const row = await this.repository.findOrder(orderId);
    if (!row) throw AppError.notFound();
    const [[view], appeals, trail, listing] = await Promise.all([
      this.adminOrderViews([row]),
      this.arbitration.appealsOf([row.id]),
      this.repository.orderTrail(row.id),
      this.repository.findListing(row.listing_id),
    ]);
    return {
      ...view!,
      trail: this.trail<OtcOrderStep>(trail),
      appeals: appeals.map(toAppeal),
      paymentMethods: row.payment_details as OtcPaymentDetail[],
      terms: row.terms,
      listingDeposit: listing!.deposit,
      listingDepositStatus: listing!.deposit_status,
      lister: row.taker_role === 'buyer' ? 'seller' : 'buyer',
    };
  }
}
