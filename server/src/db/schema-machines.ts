import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
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
import { accounts, members } from './schema-core.js';
import { journalEntries } from './schema-ledger.js';

/** Mining machines: products on sale, the machines members bought, and each day's output. */

const money = (name: string) => numeric(name, { precision: 38, scale: 4 });

export const machineProducts = pgTable(
  'machine_products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    hashrate: numeric('hashrate', { precision: 20, scale: 4 }).notNull(),
    priceUsdt: money('price_usdt').notNull(),
    priceTickets: money('price_tickets').notNull(),
    dailyOutputPerT: numeric('daily_output_per_t', { precision: 20, scale: 8 }).notNull(),
    lifetimeDays: integer('lifetime_days').notNull(),
    /** A retired machine is no longer sold; bought ones run to their end. */
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('machine_products_status_check', sql`${table.status} in ('active', 'retired')`),
    check(
      'machine_products_terms_check',
      sql`${table.hashrate} > 0 and ${table.priceUsdt} > 0 and ${table.priceTickets} > 0 and ${table.dailyOutputPerT} >= 0 and ${table.lifetimeDays} > 0`,
    ),
  ],
);

export const memberMachines = pgTable(
  'member_machines',
  {
    id: uuid('id').primaryKey(),
    /** Dense number: the settlement works through machines in ranges of it. */
    seq: bigserial('seq', { mode: 'bigint' }).notNull().unique(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    productId: uuid('product_id')
      .notNull()
      .references(() => machineProducts.id),
    name: text('name').notNull(),
    hashrate: numeric('hashrate', { precision: 20, scale: 4 }).notNull(),
    /** RAB a day, fixed at purchase (hashrate × output per T, rounded down). */
    dailyOutput: money('daily_output').notNull(),
    paidAsset: text('paid_asset').notNull(),
    paidAmount: money('paid_amount').notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    status: text('status').notNull().default('running'),
    daysMined: integer('days_mined').notNull().default(0),
    outputTotal: money('output_total').notNull().default('0'),
    clientKey: text('client_key').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('member_machines_status_check', sql`${table.status} in ('running', 'expired')`),
    check('member_machines_paid_check', sql`${table.paidAsset} in ('USDT', 'TICKET') and ${table.paidAmount} > 0`),
    unique('member_machines_client_key').on(table.accountId, table.clientKey),
    index('member_machines_account_idx').on(table.accountId, table.createdAt),
    index('member_machines_due_idx').on(table.status, table.endDate),
  ],
);

/** One row per machine per day of output: what makes the settlement pay each day exactly once. */
export const machineOutputs = pgTable(
  'machine_outputs',
  {
    machineId: uuid('machine_id')
      .notNull()
      .references(() => memberMachines.id),
    day: date('day').notNull(),
    amount: money('amount').notNull(),
    entryId: bigint('entry_id', { mode: 'bigint' })
      .notNull()
      .references(() => journalEntries.id),
  },
  (table) => [primaryKey({ columns: [table.machineId, table.day] })],
);
