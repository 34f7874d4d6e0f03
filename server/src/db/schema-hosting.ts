import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, members, operators } from './schema-core.js';
import { journalEntries } from './schema-ledger.js';

/** Hosting (custody) and the daily settlement (docs/decisions/011-hosting-and-settlement.md). */

const money = (name: string) => numeric(name, { precision: 38, scale: 4 });
const rate = (name: string) => numeric(name, { precision: 20, scale: 8 });

export const hostingPlans = pgTable(
  'hosting_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    periodDays: integer('period_days').notNull(),
    dailyRate: rate('daily_rate').notNull(),
    minAmount: money('min_amount').notNull(),
    maxAmount: money('max_amount').notNull(),
    earlyPenaltyRate: rate('early_penalty_rate').notNull(),
    autoRenewAllowed: boolean('auto_renew_allowed').notNull().default(true),
    /** A retired plan takes no new orders and renews none; its orders run to their end. */
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('hosting_plans_status_check', sql`${table.status} in ('active', 'retired')`),
    check(
      'hosting_plans_terms_check',
      sql`${table.periodDays} > 0 and ${table.dailyRate} >= 0 and ${table.minAmount} > 0 and ${table.maxAmount} >= ${table.minAmount}
        and ${table.earlyPenaltyRate} >= 0 and ${table.earlyPenaltyRate} < 1`,
    ),
  ],
);

export const hostingOrders = pgTable(
  'hosting_orders',
  {
    id: uuid('id').primaryKey(),
    /** Dense order number: the settlement works through orders in ranges of it. */
    seq: bigserial('seq', { mode: 'bigint' }).notNull().unique(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    planId: uuid('plan_id')
      .notNull()
      .references(() => hostingPlans.id),
    // The terms as they were when the order was made (or renewed).
    planName: text('plan_name').notNull(),
    amount: money('amount').notNull(),
    periodDays: integer('period_days').notNull(),
    dailyRate: rate('daily_rate').notNull(),
    earlyPenaltyRate: rate('early_penalty_rate').notNull(),
    /** Platform dates: interest accrues for each day after `start_date` up to and including `end_date`. */
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    status: text('status').notNull().default('active'),
    autoRenew: boolean('auto_renew').notNull().default(false),
    renewedFromId: uuid('renewed_from_id'),
    clientKey: text('client_key'),
    requestHash: text('request_hash'),
    daysAccrued: integer('days_accrued').notNull().default(0),
    interestTotal: money('interest_total').notNull().default('0'),
    returnedAmount: money('returned_amount'),
    penalty: money('penalty'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /**
     * Platform date of an early redemption: the order was held at the end of every day before it, so
     * the settlement of those days counts it whenever it runs (decision 021).
     */
    redeemedOn: date('redeemed_on'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('hosting_orders_status_check', sql`${table.status} in ('active', 'expired', 'redeemed')`),
    check('hosting_orders_amount_check', sql`${table.amount} > 0 and ${table.endDate} > ${table.startDate}`),
    unique('hosting_orders_client_key').on(table.accountId, table.clientKey),
    // A renewal happens once per order.
    unique('hosting_orders_renewed_from').on(table.renewedFromId),
    index('hosting_orders_account_idx').on(table.accountId, table.createdAt),
    index('hosting_orders_due_idx').on(table.status, table.endDate),
    check('hosting_orders_redeemed_on_check', sql`(${table.status} = 'redeemed') = (${table.redeemedOn} is not null)`),
  ],
);

/** One row per order per day of interest: what makes the settlement pay each day exactly once. */
export const hostingAccruals = pgTable(
  'hosting_accruals',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => hostingOrders.id),
    day: date('day').notNull(),
    amount: money('amount').notNull(),
    entryId: bigint('entry_id', { mode: 'bigint' })
      .notNull()
      .references(() => journalEntries.id),
  },
  // The day's accruals by day: team earnings read a day's static income (docs/decisions/024-team-earnings.md).
  (table) => [primaryKey({ columns: [table.orderId, table.day] }), index('hosting_accruals_day_idx').on(table.day)],
);

/** Events of an order other than daily interest (which `hosting_accruals` holds). */
export const hostingOrderEvents = pgTable(
  'hosting_order_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => hostingOrders.id),
    event: text('event').notNull(),
    amount: money('amount'),
    day: date('day'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('hosting_order_events_order_idx').on(table.orderId, table.at)],
);

/** One run of the daily settlement per platform day. */
export const settlementRuns = pgTable(
  'settlement_runs',
  {
    day: date('day').primaryKey(),
    status: text('status').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ordersAccrued: integer('orders_accrued').notNull().default(0),
    interestTotal: money('interest_total').notNull().default('0'),
    ordersExpired: integer('orders_expired').notNull().default(0),
    ordersRenewed: integer('orders_renewed').notNull().default(0),
    machinesMined: integer('machines_mined').notNull().default(0),
    outputTotal: money('output_total').notNull().default('0'),
    dividendShares: integer('dividend_shares').notNull().default(0),
    dividendTotal: money('dividend_total').notNull().default('0'),
    error: text('error'),
    rerunBy: uuid('rerun_by').references(() => operators.id),
    /** A fresh id per start: only the attempt that is still the day's current one may mark it failed. */
    attempt: uuid('attempt'),
  },
  (table) => [check('settlement_runs_status_check', sql`${table.status} in ('running', 'completed', 'failed')`)],
);

/** Orders whose principal an expiry entry returned (what the ledger posts from, and proof it happened once). */
export const hostingExpiries = pgTable('hosting_expiries', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => hostingOrders.id),
  entryId: bigint('entry_id', { mode: 'bigint' })
    .notNull()
    .references(() => journalEntries.id),
});
