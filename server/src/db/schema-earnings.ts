import { sql } from 'drizzle-orm';
import { bigint, check, date, index, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts, operators } from './schema-core.js';
import { journalEntries } from './schema-ledger.js';

/** The AI dividend: the operator's pool per day and each valid member's share of it. */

const money = (name: string) => numeric(name, { precision: 38, scale: 4 });

export const dividendPools = pgTable('dividend_pools', {
  day: date('day').primaryKey(),
  amount: money('amount').notNull(),
  setBy: uuid('set_by').references(() => operators.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const dividendAllocations = pgTable(
  'dividend_allocations',
  {
    day: date('day')
      .notNull()
      .references(() => dividendPools.day),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    custody: money('custody').notNull(),
    amount: money('amount').notNull(),
    status: text('status').notNull().default('claimable'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    claimEntryId: bigint('claim_entry_id', { mode: 'bigint' }).references(() => journalEntries.id),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.accountId] }),
    check('dividend_allocations_status_check', sql`${table.status} in ('claimable', 'claimed')`),
    check('dividend_allocations_claim_check', sql`(${table.status} = 'claimed') = (${table.claimEntryId} is not null)`),
    index('dividend_allocations_account_idx').on(table.accountId, table.status),
  ],
);
