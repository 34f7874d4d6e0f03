import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, members, operators } from './schema-core.js';

/**
 * The double-entry ledger (docs/decisions/008-ledger.md). Balances live on `ledger_accounts` and are
 * changed only by the ledger module, in the same transaction that appends the entry and its postings.
 */

const money = (name: string) => numeric(name, { precision: 38, scale: 4 });
const ASSET_CHECK = `in ('USDT', 'RAB', 'FUEL', 'TICKET')`;

/** One balance: a member account's asset for one purpose, or a platform account of one asset. */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerAccountId: uuid('owner_account_id').references(() => accounts.id),
    platformCode: text('platform_code'),
    asset: text('asset').notNull(),
    /** available | held | custody | used for members; platform for platform accounts. */
    purpose: text('purpose').notNull(),
    /** Only platform accounts that stand for the outside world (issuance, deposits, expenses) may go below zero. */
    allowNegative: boolean('allow_negative').notNull().default(false),
    balance: money('balance').notNull().default('0'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('ledger_accounts_asset_check', sql.raw(`asset ${ASSET_CHECK}`)),
    check('ledger_accounts_purpose_check', sql`${table.purpose} in ('available', 'held', 'custody', 'used', 'platform')`),
    check(
      'ledger_accounts_owner_check',
      sql`(${table.ownerAccountId} is not null and ${table.platformCode} is null and ${table.purpose} <> 'platform' and not ${table.allowNegative})
        or (${table.ownerAccountId} is null and ${table.platformCode} is not null and ${table.purpose} = 'platform')`,
    ),
    // The database, not only the code, refuses an overdraft.
    check('ledger_accounts_non_negative', sql`${table.allowNegative} or ${table.balance} >= 0`),
    uniqueIndex('ledger_accounts_member_key')
      .on(table.ownerAccountId, table.asset, table.purpose)
      .where(sql`${table.ownerAccountId} is not null`),
    uniqueIndex('ledger_accounts_platform_key')
      .on(table.platformCode, table.asset)
      .where(sql`${table.platformCode} is not null`),
    // Lets postings reference (account, asset) so a posting's asset always matches its account.
    unique('ledger_accounts_id_asset').on(table.id, table.asset),
  ],
);

/** One business event that moves money. Never updated or deleted; mistakes are corrected by new entries. */
export const journalEntries = pgTable(
  'journal_entries',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Unique across the ledger: a retried request with the same key finds the first entry. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    kind: text('kind').notNull(),
    referenceType: text('reference_type'),
    referenceId: text('reference_id'),
    memo: text('memo'),
    operatorId: uuid('operator_id').references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('journal_entries_reference_idx').on(table.referenceType, table.referenceId)],
);

/** The lines of an entry: per asset they sum to zero (checked by the database at commit). */
export const postings = pgTable(
  'postings',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    entryId: bigint('entry_id', { mode: 'bigint' })
      .notNull()
      .references(() => journalEntries.id),
    ledgerAccountId: uuid('ledger_account_id').notNull(),
    asset: text('asset').notNull(),
    amount: money('amount').notNull(),
    balanceAfter: money('balance_after').notNull(),
    /** The member-facing record type (exchange_out, transfer_in…). */
    recordType: text('record_type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('postings_amount_non_zero', sql`${table.amount} <> 0`),
    foreignKey({
      name: 'postings_account_asset_fk',
      columns: [table.ledgerAccountId, table.asset],
      foreignColumns: [ledgerAccounts.id, ledgerAccounts.asset],
    }),
    index('postings_account_idx').on(table.ledgerAccountId, table.id),
    index('postings_entry_idx').on(table.entryId),
  ],
);

/**
 * Two-phase holds: funds move from available to held when something starts (a withdrawal, an OTC
 * escrow) and are later captured (sent on) or released (returned), each step its own entry.
 */
export const ledgerHolds = pgTable(
  'ledger_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => accounts.id),
    asset: text('asset').notNull(),
    amount: money('amount').notNull(),
    status: text('status').notNull().default('pending'),
    referenceType: text('reference_type').notNull(),
    referenceId: text('reference_id').notNull(),
    holdEntryId: bigint('hold_entry_id', { mode: 'bigint' })
      .notNull()
      .references(() => journalEntries.id),
    settleEntryId: bigint('settle_entry_id', { mode: 'bigint' }).references(() => journalEntries.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    check('ledger_holds_asset_check', sql.raw(`asset ${ASSET_CHECK}`)),
    check('ledger_holds_amount_positive', sql`${table.amount} > 0`),
    check('ledger_holds_status_check', sql`${table.status} in ('pending', 'captured', 'released')`),
    check(
      'ledger_holds_settled_check',
      sql`(${table.status} = 'pending') = (${table.settleEntryId} is null and ${table.settledAt} is null)`,
    ),
    uniqueIndex('ledger_holds_reference_key').on(table.referenceType, table.referenceId),
    index('ledger_holds_owner_idx').on(table.ownerAccountId, table.asset, table.status),
  ],
);

/** RAB ⇄ USDT exchanges (withdraw6; records in blance_record3). */
export const exchangeOrders = pgTable(
  'exchange_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    clientKey: text('client_key').notNull(),
    /** SHA-256 of what was asked, so a reused key with different details is refused, not replayed. */
    requestHash: text('request_hash').notNull(),
    direction: text('direction').notNull(),
    fromAsset: text('from_asset').notNull(),
    toAsset: text('to_asset').notNull(),
    fromAmount: money('from_amount').notNull(),
    toAmount: money('to_amount').notNull(),
    price: numeric('price', { precision: 20, scale: 8 }).notNull(),
    fee: money('fee').notNull(),
    feeFuel: money('fee_fuel').notNull(),
    feeUsdt: money('fee_usdt').notNull(),
    entryId: bigint('entry_id', { mode: 'bigint' })
      .notNull()
      .references(() => journalEntries.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('exchange_orders_direction_check', sql`${table.direction} in ('rab_to_usdt', 'usdt_to_rab')`),
    check('exchange_orders_amounts_check', sql`${table.fromAmount} > 0 and ${table.toAmount} > 0`),
    check(
      'exchange_orders_fee_check',
      sql`${table.fee} = ${table.feeFuel} + ${table.feeUsdt} and ${table.feeFuel} >= 0 and ${table.feeUsdt} >= 0`,
    ),
    uniqueIndex('exchange_orders_client_key').on(table.accountId, table.clientKey),
    index('exchange_orders_account_idx').on(table.accountId, table.createdAt),
  ],
);

/** Transfers between a member's own accounts (withdraw5; records in withdraw_record6). */
export const accountTransfers = pgTable(
  'account_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    fromAccountId: uuid('from_account_id')
      .notNull()
      .references(() => accounts.id),
    toAccountId: uuid('to_account_id')
      .notNull()
      .references(() => accounts.id),
    clientKey: text('client_key').notNull(),
    requestHash: text('request_hash').notNull(),
    asset: text('asset').notNull(),
    amount: money('amount').notNull(),
    entryId: bigint('entry_id', { mode: 'bigint' })
      .notNull()
      .references(() => journalEntries.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('account_transfers_distinct', sql`${table.fromAccountId} <> ${table.toAccountId}`),
    check('account_transfers_amount_positive', sql`${table.amount} > 0`),
    uniqueIndex('account_transfers_client_key').on(table.fromAccountId, table.clientKey),
    index('account_transfers_from_idx').on(table.fromAccountId, table.createdAt),
    index('account_transfers_to_idx').on(table.toAccountId, table.createdAt),
  ],
);

/** Manual credits and debits: one operator proposes, a different one approves (four eyes). */
export const ledgerAdjustments = pgTable(
  'ledger_adjustments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    asset: text('asset').notNull(),
    direction: text('direction').notNull(),
    amount: money('amount').notNull(),
    reason: text('reason').notNull(),
    status: text('status').notNull().default('proposed'),
    proposedBy: uuid('proposed_by')
      .notNull()
      .references(() => operators.id),
    proposedAt: timestamp('proposed_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: uuid('decided_by').references(() => operators.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
    entryId: bigint('entry_id', { mode: 'bigint' }).references(() => journalEntries.id),
  },
  (table) => [
    check('ledger_adjustments_asset_check', sql.raw(`asset ${ASSET_CHECK}`)),
    check('ledger_adjustments_direction_check', sql`${table.direction} in ('credit', 'debit')`),
    check('ledger_adjustments_status_check', sql`${table.status} in ('proposed', 'approved', 'rejected')`),
    check('ledger_adjustments_amount_positive', sql`${table.amount} > 0`),
    check('ledger_adjustments_four_eyes', sql`${table.decidedBy} is null or ${table.decidedBy} <> ${table.proposedBy}`),
    check('ledger_adjustments_approved_posted', sql`(${table.status} = 'approved') = (${table.entryId} is not null)`),
    index('ledger_adjustments_status_idx').on(table.status, table.proposedAt),
  ],
);
