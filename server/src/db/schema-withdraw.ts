import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, members, operators } from './schema-core.js';

/** Withdrawals (docs/decisions/010-withdrawals.md): saved methods, requests with their payout, holidays. */

const money = (name: string) => numeric(name, { precision: 38, scale: 4 });

export const withdrawMethods = pgTable(
  'withdraw_methods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    type: text('type').notNull(),
    network: text('network'),
    address: text('address'),
    bankName: text('bank_name'),
    cardNumber: text('card_number'),
    holderName: text('holder_name'),
    branch: text('branch'),
    account: text('account'),
    /** What makes two methods the same (network+address, card number, wallet account). */
    identity: text('identity').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Deleted methods stay for the withdrawals that used them. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    check('withdraw_methods_type_check', sql`${table.type} in ('crypto', 'bank', 'wechat', 'alipay')`),
    check(
      'withdraw_methods_fields_check',
      sql`(${table.type} = 'crypto' and ${table.network} in ('BEP20', 'TRC20') and ${table.address} is not null)
        or (${table.type} = 'bank' and ${table.cardNumber} is not null and ${table.bankName} is not null)
        or (${table.type} in ('wechat', 'alipay') and ${table.account} is not null)`,
    ),
    uniqueIndex('withdraw_methods_active_identity')
      .on(table.memberId, table.identity)
      .where(sql`${table.deletedAt} is null`),
  ],
);

export const withdrawals = pgTable(
  'withdrawals',
  {
    id: uuid('id').primaryKey(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    methodId: uuid('method_id')
      .notNull()
      .references(() => withdrawMethods.id),
    methodType: text('method_type').notNull(),
    network: text('network'),
    /** The destination as it was at request time (the method may be deleted later). */
    destination: text('destination').notNull(),
    amount: money('amount').notNull(),
    fee: money('fee').notNull(),
    received: money('received').notNull(),
    status: text('status').notNull(),
    clientKey: text('client_key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** The platform day (time zone from config) the request counts against for the daily limit. */
    platformDay: date('platform_day').notNull(),
    reason: text('reason'),
    txHash: text('tx_hash'),
    payoutReference: text('payout_reference'),
    /** The signed BEP20 payout, kept before broadcasting so a retry sends the very same transaction. */
    payoutRawTx: text('payout_raw_tx'),
    payoutNonce: bigint('payout_nonce', { mode: 'bigint' }),
    payoutError: text('payout_error'),
    payoutAttempts: integer('payout_attempts').notNull().default(0),
    /** When the payout tracker last looked at this payout: it takes the least recently looked at first. */
    payoutCheckedAt: timestamp('payout_checked_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => operators.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('withdrawals_status_check', sql`${table.status} in ('pending', 'processing', 'success', 'failed', 'refunded')`),
    check(
      'withdrawals_amounts_check',
      sql`${table.amount} > 0 and ${table.fee} >= 0 and ${table.received} = ${table.amount} - ${table.fee} and ${table.received} > 0`,
    ),
    unique('withdrawals_client_key').on(table.accountId, table.clientKey),
    uniqueIndex('withdrawals_payout_nonce')
      .on(table.network, table.payoutNonce)
      .where(sql`${table.payoutNonce} is not null`),
    // One on-chain transfer settles one withdrawal (hashes are stored normalised: BEP20 `0x` + lower
    // case, TRC20 bare lower case), so two concurrent mark-paid calls cannot both claim it.
    uniqueIndex('withdrawals_tx_hash')
      .on(table.network, table.txHash)
      .where(sql`${table.txHash} is not null`),
    index('withdrawals_account_day_idx').on(table.accountId, table.platformDay),
    index('withdrawals_status_idx').on(table.status, table.createdAt),
    index('withdrawals_member_idx').on(table.memberId, table.createdAt),
  ],
);

export const withdrawHolidays = pgTable('withdraw_holidays', {
  day: date('day').primaryKey(),
  note: text('note').notNull().default(''),
  createdBy: uuid('created_by').references(() => operators.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
