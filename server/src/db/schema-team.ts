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
  (table) => [primaryKey({ columns: [table.accountSeq, table.day] })],
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
