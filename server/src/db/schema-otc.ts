import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, members, operators } from './schema-core.js';

const money = (name: string) => numeric(name, { precision: 38, scale: 4 });

/**
 * OTC listings (issue 14, docs/decisions/031-otc.md). A sell listing's unmatched escrow
 * (`available` + `fee_remaining`) is held by one ledger hold, reference `otc_listing` /
 * `<id>:<escrow_seq>`; the sequence moves on each time that hold is used up, so escrow coming back
 * later gets a fresh hold. The deposit is held under `otc_deposit` / `<id>`.
 */
export const otcListings = pgTable(
  'otc_listings',
  {
    id: uuid('id').primaryKey(),
    listingNo: text('listing_no').notNull().unique(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    side: text('side').notNull(),
    state: text('state').notNull().default('matching'),
    price: money('price').notNull(),
    quantity: money('quantity').notNull(),
    /** Not in an order yet. */
    available: money('available').notNull(),
    /** Released to buyers so far. */
    completed: money('completed').notNull().default('0'),
    minPerOrder: money('min_per_order').notNull(),
    maxPerOrder: money('max_per_order').notNull(),
    splittable: boolean('splittable').notNull(),
    /** The lister's own payment methods offered (ids) and their types. */
    paymentMethodIds: uuid('payment_method_ids').array().notNull(),
    paymentTypes: text('payment_types').array().notNull(),
    paymentWindowMinutes: integer('payment_window_minutes').notNull(),
    terms: text('terms').notNull().default(''),
    /** The maker fee percent fixed when posted, and (sell listings) the escrowed fee not in an order yet. */
    feePct: text('fee_pct').notNull(),
    feeRemaining: money('fee_remaining').notNull().default('0'),
    escrowSeq: integer('escrow_seq').notNull().default(0),
    deposit: money('deposit').notNull().default('0'),
    depositStatus: text('deposit_status').notNull().default('none'),
    clientKey: text('client_key').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (table) => [
    check('otc_listings_side_check', sql`${table.side} in ('sell', 'buy')`),
    check('otc_listings_state_check', sql`${table.state} in ('matching', 'ended', 'cancelled')`),
    check('otc_listings_deposit_status_check', sql`${table.depositStatus} in ('none', 'held', 'released', 'forfeited')`),
    check('otc_listings_amounts_check', sql`${table.available} >= 0 and ${table.feeRemaining} >= 0 and ${table.completed} >= 0`),
    check('otc_listings_quantity_check', sql`${table.quantity} > 0 and ${table.available} <= ${table.quantity}`),
    check('otc_listings_limits_check', sql`${table.minPerOrder} > 0 and ${table.minPerOrder} <= ${table.maxPerOrder}`),
    check('otc_listings_buy_no_escrow_check', sql`${table.side} = 'sell' or ${table.feeRemaining} = 0`),
    check('otc_listings_closed_check', sql`(${table.state} = 'matching') = (${table.closedAt} is null)`),
    uniqueIndex('otc_listings_client_key').on(table.memberId, table.clientKey),
    index('otc_listings_market_idx').on(table.state, table.side, table.price),
    index('otc_listings_member_idx').on(table.memberId, table.createdAt),
  ],
);

/**
 * OTC orders: one per take. The seller's escrow for the order (`escrow`: the amount, plus the maker
 * fee when the seller is the maker) is held under `otc_order` / `<id>` while the order is open.
 */
export const otcOrders = pgTable(
  'otc_orders',
  {
    id: uuid('id').primaryKey(),
    orderNo: text('order_no').notNull().unique(),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => otcListings.id),
    listingSide: text('listing_side').notNull(),
    buyerMemberId: uuid('buyer_member_id')
      .notNull()
      .references(() => members.id),
    buyerAccountId: uuid('buyer_account_id')
      .notNull()
      .references(() => accounts.id),
    sellerMemberId: uuid('seller_member_id')
      .notNull()
      .references(() => members.id),
    sellerAccountId: uuid('seller_account_id')
      .notNull()
      .references(() => accounts.id),
    takerMemberId: uuid('taker_member_id')
      .notNull()
      .references(() => members.id),
    takerRole: text('taker_role').notNull(),
    state: text('state').notNull().default('pending_payment'),
    amount: money('amount').notNull(),
    price: money('price').notNull(),
    fiatAmount: numeric('fiat_amount', { precision: 38, scale: 2 }).notNull(),
    fee: money('fee').notNull(),
    escrow: money('escrow').notNull(),
    /** The seller's payment details as they were when the order was made (shown to the buyer while open). */
    paymentDetails: jsonb('payment_details').notNull(),
    terms: text('terms').notNull().default(''),
    conversationId: uuid('conversation_id'),
    payDeadline: timestamp('pay_deadline', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    appealAllowedAt: timestamp('appeal_allowed_at', { withTimezone: true }),
    releaseOverdueAt: timestamp('release_overdue_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    /** The taker cancelled (or let the payment window pass as buyer): counts toward the daily limit. */
    takerCancelDay: date('taker_cancel_day'),
    clientKey: text('client_key').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('otc_orders_state_check', sql`${table.state} in ('pending_payment', 'paid', 'appeal', 'completed', 'cancelled')`),
    check('otc_orders_side_check', sql`${table.listingSide} in ('sell', 'buy')`),
    check('otc_orders_taker_role_check', sql`${table.takerRole} in ('buyer', 'seller')`),
    check('otc_orders_parties_check', sql`${table.buyerMemberId} <> ${table.sellerMemberId}`),
    check('otc_orders_amounts_check', sql`${table.amount} > 0 and ${table.fee} >= 0 and ${table.escrow} >= ${table.amount}`),
    check(
      'otc_orders_cancel_reason_check',
      sql`${table.cancelReason} is null or ${table.cancelReason} in ('buyer_cancelled', 'seller_cancelled', 'payment_timeout', 'ruling')`,
    ),
    check('otc_orders_completed_check', sql`(${table.state} = 'completed') = (${table.completedAt} is not null)`),
    check('otc_orders_cancelled_check', sql`(${table.state} = 'cancelled') = (${table.cancelledAt} is not null)`),
    // Paid and appealed orders were marked paid; a seller may release before the buyer marked it.
    check('otc_orders_paid_check', sql`${table.state} not in ('paid', 'appeal') or ${table.paidAt} is not null`),
    uniqueIndex('otc_orders_client_key').on(table.takerMemberId, table.clientKey),
    index('otc_orders_listing_idx').on(table.listingId),
    index('otc_orders_buyer_idx').on(table.buyerMemberId, table.createdAt),
    index('otc_orders_seller_idx').on(table.sellerMemberId, table.createdAt),
    index('otc_orders_due_idx')
      .on(table.payDeadline)
      .where(sql`${table.state} = 'pending_payment'`),
    index('otc_orders_overdue_idx')
      .on(table.appealAllowedAt)
      .where(sql`${table.state} = 'paid' and ${table.releaseOverdueAt} is null`),
    index('otc_orders_taker_cancel_idx').on(table.takerMemberId, table.takerCancelDay),
  ],
);

/** The trail of every step of a listing or an order, with its time (append-only). */
export const otcSteps = pgTable(
  'otc_steps',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    scope: text('scope').notNull(),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => otcListings.id),
    orderId: uuid('order_id').references(() => otcOrders.id),
    step: text('step').notNull(),
    actor: text('actor').notNull(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('otc_steps_scope_check', sql`${table.scope} in ('listing', 'order')`),
    check('otc_steps_actor_check', sql`${table.actor} in ('buyer', 'seller', 'lister', 'system', 'operator')`),
    check('otc_steps_order_check', sql`${table.scope} = 'listing' or ${table.orderId} is not null`),
    index('otc_steps_listing_idx').on(table.listingId, table.id),
    index('otc_steps_order_idx').on(table.orderId, table.id),
  ],
);

/**
 * Appeals: each party may appeal an order once; the first freezes it (`opening`), the other side's
 * appeal adds its evidence. A ruling closes every appeal of the order.
 */
export const otcAppeals = pgTable(
  'otc_appeals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => otcOrders.id),
    byRole: text('by_role').notNull(),
    byMemberId: uuid('by_member_id')
      .notNull()
      .references(() => members.id),
    opening: boolean('opening').notNull(),
    reason: text('reason').notNull(),
    description: text('description').notNull(),
    imageIds: uuid('image_ids').array().notNull(),
    status: text('status').notNull().default('open'),
    ruling: text('ruling'),
    rulingNote: text('ruling_note'),
    ruledBy: uuid('ruled_by').references(() => operators.id),
    ruledAt: timestamp('ruled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('otc_appeals_role_check', sql`${table.byRole} in ('buyer', 'seller')`),
    check('otc_appeals_status_check', sql`${table.status} in ('open', 'ruled')`),
    check(
      'otc_appeals_ruling_check',
      sql`(${table.status} = 'ruled') = (${table.ruling} is not null and ${table.ruledAt} is not null)`,
    ),
    check(
      'otc_appeals_ruling_value_check',
      sql`${table.ruling} is null or ${table.ruling} in ('release_to_buyer', 'return_to_seller')`,
    ),
    uniqueIndex('otc_appeals_once_per_side').on(table.orderId, table.byRole),
    uniqueIndex('otc_appeals_one_opening')
      .on(table.orderId)
      .where(sql`${table.opening}`),
    index('otc_appeals_queue_idx').on(table.status, table.createdAt),
  ],
);

/** Members barred from OTC by an operator's ruling, until a time (lifted early by an operator). */
export const otcSuspensions = pgTable(
  'otc_suspensions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    until: timestamp('until', { withTimezone: true }).notNull(),
    reason: text('reason').notNull(),
    orderId: uuid('order_id').references(() => otcOrders.id),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => operators.id),
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
    liftedBy: uuid('lifted_by').references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('otc_suspensions_member_idx').on(table.memberId, table.until)],
);
