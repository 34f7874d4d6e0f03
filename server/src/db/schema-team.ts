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
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, operators } from './schema-core.js';
import { journalEntries } from './schema-ledger.js';

/**
 * The referral team (docs/decisions/020-team-tree-and-levels.md): one node per account with its
 * team figures kept up to date by triggers in the same transaction as the account or custody
 * change, a closure table of every ancestor, new team custody per day, and the operator's level
 * table in versions.
 */

const money = (name: string) => numeric(name, { precision: 38, scale: 4 });
const percent = (name: string) => numeric(name, { precision: 7, scale: 4 });

export const teamNodes = pgTable(
  'team_nodes',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => accounts.id),
    /** Dense join order: the closure table and the members list work on it (newest = highest). */
    seq: bigserial('seq', { mode: 'bigint' }).notNull().unique(),
    inviterSeq: bigint('inviter_seq', { mode: 'bigint' }),
    /** Generations below the top of the tree (0 for an account nobody invited). */
    depth: integer('depth').notNull(),
    /** The account's own custody: the sum of its active custody orders. */
    ownCustody: money('own_custody').notNull().default('0'),
    /** Team performance: the custody of everyone below (not the account's own). */
    teamPerformance: money('team_performance').notNull().default('0'),
    directCount: integer('direct_count').notNull().default(0),
    /** Everyone below, direct members included. */
    teamCount: integer('team_count').notNull().default(0),
    validDirectCount: integer('valid_direct_count').notNull().default(0),
    /** Everyone below holding at least the valid custody (500 USDT), direct members included. */
    validTeamCount: integer('valid_team_count').notNull().default(0),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('team_nodes_inviter_idx').on(table.inviterSeq, table.seq),
    check(
      'team_nodes_figures_check',
      sql`${table.ownCustody} >= 0 and ${table.teamPerformance} >= 0 and ${table.directCount} >= 0
        and ${table.teamCount} >= ${table.directCount} and ${table.validDirectCount} between 0 and ${table.directCount}
        and ${table.validTeamCount} between ${table.validDirectCount} and ${table.teamCount}`,
    ),
  ],
);

/** Every (ancestor, descendant) pair with the number of generations between them (1 = direct). */
export const teamClosure = pgTable(
  'team_closure',
  {
    ancestorSeq: bigint('ancestor_seq', { mode: 'bigint' }).notNull(),
    descendantSeq: bigint('descendant_seq', { mode: 'bigint' }).notNull(),
    depth: integer('depth').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.ancestorSeq, table.descendantSeq] }),
    index('team_closure_descendant_idx').on(table.descendantSeq, table.depth),
    // A member's direct list (depth 1) in join order, without scanning the whole team under them:
    // one row per member, so the index stays small however deep the tree is.
    index('team_closure_direct_idx')
      .on(table.ancestorSeq, table.descendantSeq)
      .where(sql`${table.depth} = 1`),
    check('team_closure_depth_check', sql`${table.depth} >= 1`),
  ],
);

/** New custody opened below an account per platform day (renewals are not new): today's and this month's performance. */
export const teamPerformanceDays = pgTable(
  'team_performance_days',
  {
    accountSeq: bigint('account_seq', { mode: 'bigint' }).notNull(),
    day: date('day').notNull(),
    opened: money('opened').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.accountSeq, table.day] }),
    // A day's new performance for every member at once (community earnings).
    index('team_performance_days_day_idx').on(table.day),
  ],
);

/** A level table as the operator saved it; it applies from `effective_from` until a later version's day. */
export const teamLevelVersions = pgTable('team_level_versions', {
  id: uuid('id').primaryKey().defaultRandom(),
  effectiveFrom: date('effective_from').notNull().unique(),
  createdBy: uuid('created_by').references(() => operators.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const teamLevels = pgTable(
  'team_levels',
  {
    versionId: uuid('version_id')
      .notNull()
      .references(() => teamLevelVersions.id, { onDelete: 'cascade' }),
    level: integer('level').notNull(),
    name: text('name').notNull(),
    minOwnCustody: money('min_own_custody').notNull(),
    minValidDirect: integer('min_valid_direct').notNull(),
    minTeamPerformance: money('min_team_performance').notNull(),
    /** How many direct members must themselves meet `legs_level`'s thresholds (0: no such requirement). */
    minLegs: integer('min_legs').notNull().default(0),
    legsLevel: integer('legs_level'),
    // Rates of the team earnings (paid by a later settlement step), in percent.
    directRatePct: percent('direct_rate_pct').notNull().default('0'),
    indirectRatePct: percent('indirect_rate_pct').notNull().default('0'),
    indirectGenerations: integer('indirect_generations').notNull().default(0),
    communityRatePct: percent('community_rate_pct').notNull().default('0'),
    managementRatePct: percent('management_rate_pct').notNull().default('0'),
    dividendRatePct: percent('dividend_rate_pct').notNull().default('0'),
    promotionBonus: money('promotion_bonus').notNull().default('0'),
  },
  (table) => [
    primaryKey({ columns: [table.versionId, table.level] }),
    check(
      'team_levels_values_check',
      sql`${table.level} >= 0 and ${table.minOwnCustody} >= 0 and ${table.minValidDirect} >= 0 and ${table.minTeamPerformance} >= 0
        and ${table.minLegs} >= 0 and (${table.minLegs} = 0 or (${table.legsLevel} is not null and ${table.legsLevel} < ${table.level}))
        and ${table.indirectGenerations} >= 0 and ${table.promotionBonus} >= 0
        and ${table.directRatePct} between 0 and 100 and ${table.indirectRatePct} between 0 and 100
        and ${table.communityRatePct} between 0 and 100 and ${table.managementRatePct} between 0 and 100
        and ${table.dividendRatePct} between 0 and 100`,
    ),
  ],
);

/**
 * A settled day's team computation, once per day: the row is written in the same transaction as the
 * day's levels, items and earnings, so a re-run or a second instance finds it and computes nothing.
 */
export const teamEarningDays = pgTable('team_earning_days', {
  day: date('day').primaryKey(),
  versionId: uuid('version_id')
    .notNull()
    .references(() => teamLevelVersions.id),
  arrivalDelayDays: integer('arrival_delay_days').notNull(),
  staticTotal: money('static_total').notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Each member's level as the day ended (members above V0 only), with the figures it came from. */
export const teamDayLevels = pgTable(
  'team_day_levels',
  {
    day: date('day').notNull(),
    seq: bigint('seq', { mode: 'bigint' }).notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    level: integer('level').notNull(),
    ownCustody: money('own_custody').notNull(),
    validDirect: integer('valid_direct').notNull(),
    teamPerformance: money('team_performance').notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.seq] })],
);

/**
 * One member's earning of one type on one day: "to arrive" until the settlement of `arrive_on`
 * posts it as one ledger entry (key `team-earning:<account>:<day>:<type>`), then "arrived".
 */
export const teamEarnings = pgTable(
  'team_earnings',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    day: date('day').notNull(),
    type: text('type').notNull(),
    seq: bigint('seq', { mode: 'bigint' }).notNull(),
    amount: money('amount').notNull(),
    arriveOn: date('arrive_on').notNull(),
    status: text('status').notNull().default('to_arrive'),
    entryId: bigint('entry_id', { mode: 'bigint' }).references(() => journalEntries.id),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.type] }),
    index('team_earnings_due_idx')
      .on(table.arriveOn, table.seq)
      .where(sql`status = 'to_arrive'`),
    index('team_earnings_day_idx').on(table.day, table.type),
    check(
      'team_earnings_values_check',
      sql`${table.type} in ('direct', 'indirect', 'community', 'management', 'promotion', 'level_dividend')
        and ${table.amount} > 0 and ${table.status} in ('to_arrive', 'arrived')
        and (${table.status} = 'arrived') = (${table.entryId} is not null)`,
    ),
  ],
);

/**
 * What each earning is made of, so a member can check every figure: the source member (direct,
 * indirect, management), the generation, the base (their static income of the day, the day's new
 * team performance, or a level's dividend pool), the rate and the amount (rounded down).
 */
export const teamEarningItems = pgTable(
  'team_earning_items',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    day: date('day').notNull(),
    type: text('type').notNull(),
    sourceAccountId: uuid('source_account_id').references(() => accounts.id),
    generation: integer('generation'),
    level: integer('level').notNull(),
    base: money('base').notNull(),
    ratePct: numeric('rate_pct', { precision: 7, scale: 4 }),
    /** Level dividend: how many members shared the pool. */
    sharedBy: integer('shared_by'),
    amount: money('amount').notNull(),
  },
  (table) => [index('team_earning_items_account_idx').on(table.accountId, table.day, table.type)],
);

/** Promotion bonuses: once per member and level, ever (the primary key). */
export const teamPromotions = pgTable(
  'team_promotions',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    level: integer('level').notNull(),
    day: date('day').notNull(),
    bonus: money('bonus').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.level] }), index('team_promotions_day_idx').on(table.day)],
);
