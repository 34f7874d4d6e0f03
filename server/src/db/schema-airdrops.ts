import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts, operators } from './schema-core.js';
import { journalEntries } from './schema-ledger.js';

/**
 * Airdrop campaigns (docs/decisions/025-team-operations.md): RAB an operator gives members chosen by
 * level or by list. The recipients are fixed when the campaign is created (what the operator previewed
 * is what arrives); each is paid by one ledger entry keyed by campaign and account when it arrives.
 */

const money = (name: string) => numeric(name, { precision: 38, scale: 4 });

export const airdropCampaigns = pgTable(
  'airdrop_campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    asset: text('asset').notNull().default('RAB'),
    /** Per recipient. */
    amount: money('amount').notNull(),
    /** 'level' (members at or above `min_level` on `day`) or 'list'. */
    selection: text('selection').notNull(),
    minLevel: integer('min_level'),
    /** The platform day the campaign arrives on: the level table of this day chose the recipients. */
    day: date('day').notNull(),
    arriveAt: timestamp('arrive_at', { withTimezone: true }).notNull(),
    /** scheduled → arriving (the job has begun paying; no cancel any more) → arrived; or scheduled → cancelled. */
    status: text('status').notNull().default('scheduled'),
    recipients: integer('recipients').notNull(),
    total: money('total').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    cancelledBy: uuid('cancelled_by').references(() => operators.id),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
  },
  (table) => [
    check('airdrop_campaigns_status_check', sql`${table.status} in ('scheduled', 'arriving', 'arrived', 'cancelled')`),
    check(
      'airdrop_campaigns_selection_check',
      sql`${table.selection} in ('level', 'list')
      and (${table.selection} = 'list') = (${table.minLevel} is null)`,
    ),
    check('airdrop_campaigns_amount_check', sql`${table.amount} > 0 and ${table.asset} = 'RAB' and ${table.recipients} > 0`),
    check('airdrop_campaigns_cancel_check', sql`(${table.status} = 'cancelled') = (${table.cancelledAt} is not null)`),
    index('airdrop_campaigns_due_idx').on(table.status, table.arriveAt),
  ],
);

export const airdropRecipients = pgTable(
  'airdrop_recipients',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => airdropCampaigns.id),
    /** The member's main account (a person is one node of the team; sub-accounts receive nothing). */
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    entryId: bigint('entry_id', { mode: 'bigint' }).references(() => journalEntries.id),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.campaignId, table.accountId] }),
    index('airdrop_recipients_account_idx').on(table.accountId),
    check('airdrop_recipients_paid_check', sql`(${table.entryId} is null) = (${table.paidAt} is null)`),
  ],
);
