import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, numeric, pgSequence, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { accounts, members } from './schema-core.js';
import { journalEntries } from './schema-ledger.js';

/**
 * USDT on chain (docs/decisions/009-chain-deposits.md): deposit addresses derived from extended public
 * keys, the deposits the watchers saw, and each watcher's cursor.
 */

const NETWORK_CHECK = `in ('BEP20', 'TRC20')`;

/** One index per address: BIP-44 `…/0/index` under the network's account key. */
export const depositAddressIndex = pgSequence('deposit_address_index', { startWith: 0, minValue: 0 });

export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    /** Deposits are credited to the member's main account. */
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    network: text('network').notNull(),
    derivationIndex: integer('derivation_index').notNull(),
    /** As shown to the member: EIP-55 checksum (BEP20) or base58check (TRC20). */
    address: text('address').notNull(),
    /** The 20-byte account hash as lowercase 0x-hex: what both chains' transfer events carry. */
    matchKey: text('match_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('deposit_addresses_network_check', sql.raw(`network ${NETWORK_CHECK}`)),
    unique('deposit_addresses_member_network').on(table.memberId, table.network),
    unique('deposit_addresses_network_index').on(table.network, table.derivationIndex),
    unique('deposit_addresses_network_match').on(table.network, table.matchKey),
  ],
);

export const chainDeposits = pgTable(
  'chain_deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    network: text('network').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    fromAddress: text('from_address').notNull(),
    depositAddressId: uuid('deposit_address_id')
      .notNull()
      .references(() => depositAddresses.id),
    /** Token units as on chain (e.g. 18 decimals on BSC). */
    rawAmount: numeric('raw_amount', { precision: 78, scale: 0 }).notNull(),
    /** 4 places, rounded down from `raw_amount`. */
    amount: numeric('amount', { precision: 38, scale: 4 }).notNull(),
    status: text('status').notNull(),
    entryId: bigint('entry_id', { mode: 'bigint' }).references(() => journalEntries.id),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('chain_deposits_network_check', sql.raw(`network ${NETWORK_CHECK}`)),
    check('chain_deposits_status_check', sql`${table.status} in ('confirming', 'credited', 'below_minimum', 'orphaned')`),
    check('chain_deposits_credit_check', sql`(${table.status} = 'credited') = (${table.entryId} is not null)`),
    // A transfer event is credited at most once, whatever the watchers do.
    unique('chain_deposits_event').on(table.network, table.txHash, table.logIndex),
    index('chain_deposits_address_idx').on(table.depositAddressId, table.seenAt),
    index('chain_deposits_status_idx').on(table.network, table.status, table.blockNumber),
  ],
);

/** Where each watcher stands: every block up to `scanned_block` is scanned and final. */
export const chainCursors = pgTable(
  'chain_cursors',
  {
    network: text('network').primaryKey(),
    scannedBlock: bigint('scanned_block', { mode: 'bigint' }).notNull(),
    scannedHash: text('scanned_hash'),
    headBlock: bigint('head_block', { mode: 'bigint' }),
    lastScanAt: timestamp('last_scan_at', { withTimezone: true }),
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  () => [check('chain_cursors_network_check', sql.raw(`network ${NETWORK_CHECK}`))],
);

/** What `npm run sweep` moved from deposit addresses to the collection wallet (and the gas it sent first). */
export const chainSweeps = pgTable(
  'chain_sweeps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    network: text('network').notNull(),
    depositAddressId: uuid('deposit_address_id')
      .notNull()
      .references(() => depositAddresses.id),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    rawAmount: numeric('raw_amount', { precision: 78, scale: 0 }).notNull(),
    amount: numeric('amount', { precision: 38, scale: 4 }).notNull(),
    gasTxHash: text('gas_tx_hash'),
    txHash: text('tx_hash'),
    /** sent, or failed with the error. */
    status: text('status').notNull(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('chain_sweeps_status_check', sql`${table.status} in ('sent', 'failed')`),
    index('chain_sweeps_created_idx').on(table.createdAt),
  ],
);
