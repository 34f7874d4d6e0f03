import { sql, type SQL } from 'drizzle-orm';
import type { OtcActor, OtcCancelReason, OtcListingState, OtcOrderState, OtcPaymentType, OtcSide } from '@custos/contract';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';
import type {
  ListingRow,
  OrderRow,
  StepRow,
  ReputationRow,
  PartyRow,
  PaymentMethodRow,
  ListingInsert,
  OrderInsert,
  OrderFilter,
} from './otc.rows.js';
import { textArray, uuidArray } from './otc.sql.js';

const LISTING_COLUMNS = sql`l.id::text as id, l.listing_no, l.member_id::text as member_id, l.account_id::text as account_id,
  l.side, l.state, l.price::text as price, l.quantity::text as quantity, l.available::text as available,
  l.completed::text as completed, l.min_per_order::text as min_per_order, l.max_per_order::text as max_per_order,
  l.splittable, l.payment_method_ids::text[] as payment_method_ids, l.payment_types, l.payment_window_minutes, l.terms,
  l.fee_pct, l.fee_remaining::text as fee_remaining, l.escrow_seq, l.deposit::text as deposit, l.deposit_status,
  l.client_key, l.request_hash, l.created_at, l.updated_at, l.closed_at,
  coalesce((select sum(o.amount) from otc_orders o where o.listing_id = l.id
             and o.state in ('pending_payment', 'paid', 'appeal')), 0)::numeric(38,4)::text as in_orders,
  (select count(*)::int from otc_orders o where o.listing_id = l.id
     and o.state in ('pending_payment', 'paid', 'appeal')) as open_orders`;

const ORDER_COLUMNS = sql`o.id::text as id, o.order_no, o.listing_id::text as listing_id, l.listing_no, o.listing_side,
  l.member_id::text as listing_member_id,
  o.buyer_member_id::text as buyer_member_id, o.buyer_account_id::text as buyer_account_id,
  o.seller_member_id::text as seller_member_id, o.seller_account_id::text as seller_account_id,
  o.taker_member_id::text as taker_member_id, o.taker_role, o.state, o.amount::text as amount, o.price::text as price,
  o.fiat_amount::text as fiat_amount, o.fee::text as fee, o.escrow::text as escrow, o.payment_details, o.terms,
  o.conversation_id::text as conversation_id, o.pay_deadline, o.paid_at, o.appeal_allowed_at, o.release_overdue_at,
  o.completed_at, o.cancelled_at, o.cancel_reason, o.client_key, o.request_hash, o.created_at, o.updated_at`;
const ORDER_FROM = sql`otc_orders o join otc_listings l on l.id = o.listing_id`;

/** Listings, orders, their trail and the escrow checker (appeals and suspensions: `OtcArbitrationRepository`). */
export class OtcRepository {
  constructor(private readonly db: Db) {}

  // ── Members ──────────────────────────────────────────────────────────────────────────────────

  async realNameApproved(memberId: string, db: Db | Tx = this.db): Promise<boolean> {
    const rows = await queryRows<{ ok: boolean }>(
      db,
      sql`select exists (select 1 from identity_verifications where member_id = ${memberId}::uuid and status = 'approved') as ok`,
    );
    return rows[0]?.ok ?? false;
  }

  /** The member's own payment methods usable for OTC (bank card, wechat, alipay), oldest first. */
  paymentMethods(memberId: string, db: Db | Tx = this.db, ids?: readonly string[]): Promise<PaymentMethodRow[]> {
    const only = ids ? sql`and id = any(${uuidArray(ids)})` : sql``;
    return queryRows<PaymentMethodRow>(
      db,
      sql`select id::text as id, type, holder_name, bank_name, branch, card_number, account from withdraw_methods
          where member_id = ${memberId}::uuid and deleted_at is null and type in ('bank', 'wechat', 'alipay') ${only}
          order by created_at, id`,
    );
  }

  async parties(memberIds: readonly string[]): Promise<Map<string, PartyRow>> {
    if (memberIds.length === 0) return new Map();
    const rows = await queryRows<PartyRow>(
      this.db,
      sql`select m.id::text as member_id, a.id::text as account_id, m.email, a.nickname from members m
          join accounts a on a.member_id = m.id and a.kind = 'main' where m.id = any(${uuidArray(memberIds)})`,
    );
    return new Map(rows.map((row) => [row.member_id, row]));
  }

  /** Reputation computed from orders (never stored): 30 days back from `now`, and all-time completions. */
  async reputations(memberIds: readonly string[], now: Date): Promise<Map<string, ReputationRow>> {
    if (memberIds.length === 0) return new Map();
    const since = new Date(now.getTime() - 30 * 86_400_000);
    const rows = await queryRows<ReputationRow>(
      this.db,
      sql`select m.id::text as member_id, a.nickname,
            (select count(*)::int from otc_orders o where o.state = 'completed' and o.completed_at >= ${since}
               and (o.buyer_member_id = m.id or o.seller_member_id = m.id)) as completed_30d,
            (select count(*)::int from otc_orders o where o.state = 'cancelled' and o.cancelled_at >= ${since}
               and ((o.buyer_member_id = m.id and o.cancel_reason in ('buyer_cancelled', 'payment_timeout'))
                 or (o.seller_member_id = m.id and o.cancel_reason = 'seller_cancelled'))) as failed_30d,
            (select round(avg(extract(epoch from (o.completed_at - o.paid_at))))::int from otc_orders o
               where o.state = 'completed' and o.completed_at >= ${since} and o.seller_member_id = m.id
                 and not exists (select 1 from otc_appeals ap where ap.order_id = o.id)) as avg_release_s,
            (select count(*)::int from otc_orders o where o.state = 'completed'
               and (o.buyer_member_id = m.id or o.seller_member_id = m.id)) as completed_total
          from members m join accounts a on a.member_id = m.id and a.kind = 'main'
          where m.id = any(${uuidArray(memberIds)})`,
    );
    return new Map(rows.map((row) => [row.member_id, row]));
  }

  // ── Listings ─────────────────────────────────────────────────────────────────────────────────

  async insertListing(tx: Tx, row: ListingInsert): Promise<void> {
    await runStatement(
      tx,
      sql`insert into otc_listings (id, listing_no, member_id, account_id, side, state, price, quantity, available,
            min_per_order, max_per_order, splittable, payment_method_ids, payment_types, payment_window_minutes, terms,
            fee_pct, fee_remaining, deposit, deposit_status, client_key, request_hash, created_at, updated_at)
          values (${row.id}::uuid, ${row.listingNo}, ${row.memberId}::uuid, ${row.accountId}::uuid, ${row.side}, 'matching',
            ${row.price}::numeric, ${row.quantity}::numeric, ${row.quantity}::numeric, ${row.minPerOrder}::numeric,
            ${row.maxPerOrder}::numeric, ${row.splittable}, ${uuidArray(row.paymentMethodIds)}, ${textArray(row.paymentTypes)},
            ${row.paymentWindowMinutes}, ${row.terms}, ${row.feePct}, ${row.feeRemaining}::numeric, ${row.deposit}::numeric,
            ${row.depositStatus}, ${row.clientKey}, ${row.requestHash}, ${row.now}, ${row.now})`,
    );
  }

  async listingByClientKey(db: Db | Tx, memberId: string, clientKey: string): Promise<ListingRow | null> {
    const rows = await queryRows<ListingRow>(
      db,
      sql`select ${LISTING_COLUMNS} from otc_listings l where l.member_id = ${memberId}::uuid and l.client_key = ${clientKey}`,
    );
    return rows[0] ?? null;
  }

  async findListing(id: string, db: Db | Tx = this.db): Promise<ListingRow | null> {
    const rows = await queryRows<ListingRow>(db, sql`select ${LISTING_COLUMNS} from otc_listings l where l.id = ${id}::uuid`);
    return rows[0] ?? null;
  }

  /**
   * Holds the member for the rest of the transaction: the member's takes and posts (main and
   * sub-accounts alike) go one at a time, so the per-member limits are counted under it. The
   * module's one lock order: member, then listing, then ledger accounts. `no key update` leaves
   * other transactions free to insert rows referencing the member (orders naming them), so two
   * members taking each other's listings do not wait on each other.
   */
  async lockMember(tx: Tx, memberId: string): Promise<void> {
    await queryRows(tx, sql`select id from members where id = ${memberId}::uuid for no key update`);
  }

  /** Holds a listing for the rest of the transaction: takes, cancellations and releases of it go one at a time. */
  async lockListing(tx: Tx, id: string): Promise<ListingRow | null> {
    const locked = await queryRows<{ id: string }>(
      tx,
      sql`select id::text as id from otc_listings where id = ${id}::uuid for update`,
    );
    return locked[0] ? this.findListing(id, tx) : null;
  }

  async updateListing(
    tx: Tx,
    id: string,
    patch: {
      available?: string;
      feeRemaining?: string;
      completedDelta?: string;
      escrowSeq?: number;
      state?: OtcListingState;
      depositStatus?: ListingRow['deposit_status'];
      now: Date;
    },
  ): Promise<void> {
    const sets: SQL[] = [sql`updated_at = ${patch.now}`];
    if (patch.available !== undefined) sets.push(sql`available = ${patch.available}::numeric`);
    if (patch.feeRemaining !== undefined) sets.push(sql`fee_remaining = ${patch.feeRemaining}::numeric`);
    if (patch.completedDelta !== undefined) sets.push(sql`completed = completed + ${patch.completedDelta}::numeric`);
    if (patch.escrowSeq !== undefined) sets.push(sql`escrow_seq = ${patch.escrowSeq}`);
    if (patch.state !== undefined) {
      sets.push(sql`state = ${patch.state}`);
      sets.push(patch.state === 'matching' ? sql`closed_at = null` : sql`closed_at = coalesce(closed_at, ${patch.now})`);
    }
    if (patch.depositStatus !== undefined) sets.push(sql`deposit_status = ${patch.depositStatus}`);
    await runStatement(tx, sql`update otc_listings set ${sql.join(sets, sql`, `)} where id = ${id}::uuid`);
  }

  async countMatchingListings(tx: Tx, memberId: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from otc_listings where member_id = ${memberId}::uuid and state = 'matching'`,
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * The market: matching listings of a side with something left, takeable for `amount` when given
   * (within the per-order limits as they stand), accepting `paymentType`; best price first.
   */
  async market(
    filter: { side: OtcSide; amount?: string | undefined; paymentType?: OtcPaymentType | undefined; now: Date },
    limit: number,
    offset: number,
  ): Promise<{ rows: ListingRow[]; total: number }> {
    const conditions: SQL[] = [
      sql`l.state = 'matching'`,
      sql`l.side = ${filter.side}`,
      sql`l.available > 0`,
      // A suspended or frozen lister's listings are off the market while that lasts.
      sql`not exists (select 1 from otc_suspensions s where s.member_id = l.member_id and s.lifted_at is null and s.until > ${filter.now})`,
      sql`exists (select 1 from members m where m.id = l.member_id and m.status = 'active')`,
    ];
    if (filter.amount !== undefined) {
      const amount = sql`${filter.amount}::numeric`;
      conditions.push(sql`${amount} <= least(l.max_per_order, l.available)`);
      conditions.push(
        sql`(case when l.splittable then ${amount} >= least(l.min_per_order, l.available) else ${amount} = l.available end)`,
      );
    }
    if (filter.paymentType !== undefined) conditions.push(sql`${filter.paymentType} = any(l.payment_types)`);
    const where = sql.join(conditions, sql` and `);
    const order = filter.side === 'sell' ? sql`l.price asc` : sql`l.price desc`;
    const rows = await queryRows<ListingRow>(
      this.db,
      sql`select ${LISTING_COLUMNS} from otc_listings l where ${where} order by ${order}, l.created_at, l.id
          limit ${limit} offset ${offset}`,
    );
    const [total] = await queryRows<{ n: number }>(this.db, sql`select count(*)::int as n from otc_listings l where ${where}`);
    return { rows, total: total?.n ?? 0 };
  }

  async listings(
    filter: { memberId?: string; state?: OtcListingState | undefined; side?: OtcSide | undefined; query?: string | undefined },
    limit: number,
    offset: number,
  ): Promise<{ rows: ListingRow[]; total: number }> {
    const conditions: SQL[] = [sql`true`];
    if (filter.memberId) conditions.push(sql`l.member_id = ${filter.memberId}::uuid`);
    if (filter.state) conditions.push(sql`l.state = ${filter.state}`);
    if (filter.side) conditions.push(sql`l.side = ${filter.side}`);
    if (filter.query) {
      const like = `%${filter.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conditions.push(
        sql`(lower(l.listing_no) like ${like} or exists (select 1 from members m where m.id = l.member_id and m.email like ${like}))`,
      );
    }
    const where = sql.join(conditions, sql` and `);
    const rows = await queryRows<ListingRow>(
      this.db,
      sql`select ${LISTING_COLUMNS} from otc_listings l where ${where} order by l.created_at desc, l.id limit ${limit} offset ${offset}`,
    );
    const [total] = await queryRows<{ n: number }>(this.db, sql`select count(*)::int as n from otc_listings l where ${where}`);
    return { rows, total: total?.n ?? 0 };
  }

  // ── Orders ───────────────────────────────────────────────────────────────────────────────────

  async insertOrder(tx: Tx, row: OrderInsert): Promise<void> {
    await runStatement(
      tx,
      sql`insert into otc_orders (id, order_no, listing_id, listing_side, buyer_member_id, buyer_account_id, seller_member_id,
            seller_account_id, taker_member_id, taker_role, state, amount, price, fiat_amount, fee, escrow, payment_details,
            terms, pay_deadline, client_key, request_hash, created_at, updated_at)
          values (${row.id}::uuid, ${row.orderNo}, ${row.listingId}::uuid, ${row.listingSide}, ${row.buyerMemberId}::uuid,
            ${row.buyerAccountId}::uuid, ${row.sellerMemberId}::uuid, ${row.sellerAccountId}::uuid, ${row.takerMemberId}::uuid,
            ${row.takerRole}, 'pending_payment', ${row.amount}::numeric, ${row.price}::numeric, ${row.fiatAmount}::numeric,
            ${row.fee}::numeric, ${row.escrow}::numeric, ${JSON.stringify(row.paymentDetails)}::jsonb, ${row.terms},
            ${row.payDeadline}, ${row.clientKey}, ${row.requestHash}, ${row.now}, ${row.now})`,
    );
  }

  async setConversation(tx: Tx, orderId: string, conversationId: string): Promise<void> {
    await runStatement(tx, sql`update otc_orders set conversation_id = ${conversationId}::uuid where id = ${orderId}::uuid`);
  }

  async orderByClientKey(db: Db | Tx, takerMemberId: string, clientKey: string): Promise<OrderRow | null> {
    const rows = await queryRows<OrderRow>(
      db,
      sql`select ${ORDER_COLUMNS} from ${ORDER_FROM} where o.taker_member_id = ${takerMemberId}::uuid and o.client_key = ${clientKey}`,
    );
    return rows[0] ?? null;
  }

  async findOrder(id: string, db: Db | Tx = this.db): Promise<OrderRow | null> {
    const rows = await queryRows<OrderRow>(db, sql`select ${ORDER_COLUMNS} from ${ORDER_FROM} where o.id = ${id}::uuid`);
    return rows[0] ?? null;
  }

  /**
   * Moves an order from one of `from` to a new state only if it is still there (and `extra` holds):
   * of two racing actions exactly one gets the row back. Null: the order was not in such a state.
   */
  async transition(
    tx: Tx,
    id: string,
    from: readonly OtcOrderState[],
    patch: {
      state?: OtcOrderState;
      paidAt?: Date;
      appealAllowedAt?: Date;
      releaseOverdueAt?: Date;
      completedAt?: Date;
      cancelledAt?: Date;
      cancelReason?: OtcCancelReason;
      takerCancelDay?: string;
      now: Date;
    },
    extra: SQL = sql`true`,
  ): Promise<OrderRow | null> {
    const sets: SQL[] = [sql`updated_at = ${patch.now}`];
    if (patch.state) sets.push(sql`state = ${patch.state}`);
    if (patch.paidAt) sets.push(sql`paid_at = ${patch.paidAt}`);
    if (patch.appealAllowedAt) sets.push(sql`appeal_allowed_at = ${patch.appealAllowedAt}`);
    if (patch.releaseOverdueAt) sets.push(sql`release_overdue_at = ${patch.releaseOverdueAt}`);
    if (patch.completedAt) sets.push(sql`completed_at = ${patch.completedAt}`);
    if (patch.cancelledAt) sets.push(sql`cancelled_at = ${patch.cancelledAt}`);
    if (patch.cancelReason) sets.push(sql`cancel_reason = ${patch.cancelReason}`);
    if (patch.takerCancelDay) sets.push(sql`taker_cancel_day = ${patch.takerCancelDay}::date`);
    const changed = await queryRows<{ id: string }>(
      tx,
      sql`update otc_orders set ${sql.join(sets, sql`, `)}
          where id = ${id}::uuid and state = any(${textArray(from)}) and ${extra} returning id::text as id`,
    );
    return changed[0] ? this.findOrder(id, tx) : null;
  }

  async orders(filter: OrderFilter, limit: number, offset: number): Promise<{ rows: OrderRow[]; total: number }> {
    const conditions: SQL[] = [sql`true`];
    if (filter.id) conditions.push(sql`o.id = ${filter.id}::uuid`);
    if (filter.buyerMemberId) conditions.push(sql`o.buyer_member_id = ${filter.buyerMemberId}::uuid`);
    if (filter.sellerMemberId) conditions.push(sql`o.seller_member_id = ${filter.sellerMemberId}::uuid`);
    if (filter.memberId)
      conditions.push(sql`(o.buyer_member_id = ${filter.memberId}::uuid or o.seller_member_id = ${filter.memberId}::uuid)`);
    if (filter.state) conditions.push(sql`o.state = ${filter.state}`);
    if (filter.states) conditions.push(sql`o.state = any(${textArray(filter.states)})`);
    if (filter.side) conditions.push(sql`l.side = ${filter.side}`);
    if (filter.createdFrom) conditions.push(sql`o.created_at >= ${filter.createdFrom.toISOString()}::timestamptz`);
    if (filter.createdBefore) conditions.push(sql`o.created_at < ${filter.createdBefore.toISOString()}::timestamptz`);
    if (filter.query) {
      const like = `%${filter.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conditions.push(sql`(lower(o.order_no) like ${like} or lower(l.listing_no) like ${like}
        or exists (select 1 from members m where m.id in (o.buyer_member_id, o.seller_member_id) and m.email like ${like}))`);
    }
    const where = sql.join(conditions, sql` and `);
    const rows = await queryRows<OrderRow>(
      this.db,
      sql`select ${ORDER_COLUMNS} from ${ORDER_FROM} where ${where} order by o.created_at desc, o.id limit ${limit} offset ${offset}`,
    );
    const [total] = await queryRows<{ n: number }>(this.db, sql`select count(*)::int as n from ${ORDER_FROM} where ${where}`);
    return { rows, total: total?.n ?? 0 };
  }

  async openTakerOrders(tx: Tx, memberId: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from otc_orders where taker_member_id = ${memberId}::uuid
          and state in ('pending_payment', 'paid', 'appeal')`,
    );
    return rows[0]?.n ?? 0;
  }

  async takerCancels(db: Db | Tx, memberId: string, day: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from otc_orders where taker_member_id = ${memberId}::uuid and taker_cancel_day = ${day}::date`,
    );
    return rows[0]?.n ?? 0;
  }

  /** Orders whose payment window has passed (the timer cancels each in its own transaction). */
  async dueForTimeout(now: Date, limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select id::text as id from otc_orders where state = 'pending_payment' and pay_deadline <= ${now}
          order by pay_deadline limit ${limit}`,
    );
    return rows.map((row) => row.id);
  }

  /** Paid orders whose release window has passed and that were not yet marked overdue. */
  async dueForOverdue(now: Date, limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select id::text as id from otc_orders where state = 'paid' and release_overdue_at is null
            and appeal_allowed_at <= ${now} order by appeal_allowed_at limit ${limit}`,
    );
    return rows.map((row) => row.id);
  }

  // ── Trail ────────────────────────────────────────────────────────────────────────────────────

  async insertStep(
    tx: Tx,
    step: {
      scope: 'listing' | 'order';
      listingId: string;
      orderId?: string;
      step: string;
      actor: OtcActor;
      note?: string | null;
      now: Date;
    },
  ): Promise<void> {
    await runStatement(
      tx,
      sql`insert into otc_steps (scope, listing_id, order_id, step, actor, note, created_at)
          values (${step.scope}, ${step.listingId}::uuid, ${step.orderId ?? null}::uuid, ${step.step}, ${step.actor},
                  ${step.note ?? null}, ${step.now})`,
    );
  }

  listingTrail(listingId: string): Promise<StepRow[]> {
    return queryRows<StepRow>(
      this.db,
      sql`select s.step, s.actor, o.order_no, s.note, s.created_at from otc_steps s left join otc_orders o on o.id = s.order_id
          where s.listing_id = ${listingId}::uuid and s.scope = 'listing' order by s.id`,
    );
  }

  orderTrail(orderId: string): Promise<StepRow[]> {
    return queryRows<StepRow>(
      this.db,
      sql`select s.step, s.actor, null::text as order_no, s.note, s.created_at from otc_steps s
          where s.order_id = ${orderId}::uuid and s.scope = 'order' order by s.id`,
    );
  }

  // ── The checker ──────────────────────────────────────────────────────────────────────────────

  /**
   * Escrow against the books (decision 031): for every sell listing, its pending `otc_listing`
   * holds equal available + fee_remaining; for every open order its `otc_order` hold equals its
   * escrow, and no settled order still holds; deposits are held exactly while `held`. Answers the
   * rows that disagree (empty: clean).
   */
  async escrowProblems(): Promise<{ kind: string; id: string; expected: string; held: string }[]> {
    return queryRows(
      this.db,
      sql`select 'listing' as kind, l.id::text as id,
                 (case when l.side = 'sell' then l.available + l.fee_remaining else 0 end)::text as expected,
                 coalesce(h.total, 0)::text as held
          from otc_listings l
          left join (select split_part(reference_id, ':', 1) as listing_id, sum(amount) as total from ledger_holds
                     where reference_type = 'otc_listing' and status = 'pending' group by 1) h on h.listing_id = l.id::text
          where coalesce(h.total, 0) <> (case when l.side = 'sell' then l.available + l.fee_remaining else 0 end)
          union all
          select 'order', o.id::text,
                 (case when o.state in ('pending_payment', 'paid', 'appeal') then o.escrow else 0 end)::text,
                 coalesce(h.amount, 0)::text
          from otc_orders o
          left join ledger_holds h on h.reference_type = 'otc_order' and h.reference_id = o.id::text and h.status = 'pending'
          where coalesce(h.amount, 0) <> (case when o.state in ('pending_payment', 'paid', 'appeal') then o.escrow else 0 end)
          union all
          select 'deposit', l.id::text, (case when l.deposit_status = 'held' then l.deposit else 0 end)::text,
                 coalesce(h.amount, 0)::text
          from otc_listings l
          left join ledger_holds h on h.reference_type = 'otc_deposit' and h.reference_id = l.id::text and h.status = 'pending'
          where coalesce(h.amount, 0) <> (case when l.deposit_status = 'held' then l.deposit else 0 end)
          union all
          select 'listing_quantity', l.id::text, l.quantity::text,
                 (l.available + l.completed + coalesce((select sum(o.amount) from otc_orders o where o.listing_id = l.id
                    and o.state in ('pending_payment', 'paid', 'appeal')), 0))::text
          from otc_listings l
          where l.state = 'matching' and l.available + l.completed + coalesce((select sum(o.amount) from otc_orders o
                  where o.listing_id = l.id and o.state in ('pending_payment', 'paid', 'appeal')), 0) <> l.quantity`,
    );
  }
}
