import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Market products and their quotes (issue 13, decision 027): the pairs the operator lists on Home
 * (and, later, the forex products contracts trade on, issue 15), each priced by a source, with every
 * price kept as a history row so a 24 h change is computed against the value in force a day earlier.
 */

/**
 * A product members see: `BTC/USDT`, its display name, its order and whether it shows. `source`
 * says where its price comes from: `manual` (the operator), `feed` (the public ticker adapter) or
 * `exchange` (RAB/USDT: the platform's own exchange price; only that one row, created by the migration).
 */
export const marketProducts = pgTable(
  'market_products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    symbol: text('symbol').notNull(),
    displayName: text('display_name').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    source: text('source').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('market_products_symbol_key').on(table.symbol),
    check('market_products_source_check', sql`${table.source} in ('manual', 'feed', 'exchange')`),
    check('market_products_symbol_check', sql`${table.symbol} ~ '^[A-Z0-9]{2,12}/[A-Z0-9]{2,12}$'`),
  ],
);

/**
 * Every price a product has had, as of `observed_at` (the operator's save, the exchange setting's
 * change, or the feed's close time). `change_pct_24h` is the feed's own figure; manual and exchange
 * prices leave it null and the change is computed from these rows. One row per product and instant:
 * two instances writing the same observation write it once.
 */
export const marketPrices = pgTable(
  'market_prices',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    productId: uuid('product_id')
      .notNull()
      .references(() => marketProducts.id),
    price: numeric('price', { precision: 30, scale: 8 }).notNull(),
    changePct24h: numeric('change_pct_24h', { precision: 20, scale: 4 }),
    source: text('source').notNull(),
    observedAt: timestamp('observed_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('market_prices_product_observed_key').on(table.productId, table.observedAt),
    index('market_prices_observed_idx').on(table.observedAt),
    check('market_prices_price_check', sql`${table.price} > 0`),
    check('market_prices_source_check', sql`${table.source} in ('manual', 'feed', 'exchange')`),
  ],
);

/**
 * The feed's last run (one row): the interval slot it claimed (one fetch per interval across
 * instances), when it last tried and succeeded, and the last error, for the console.
 */
export const marketFeedState = pgTable(
  'market_feed_state',
  {
    id: smallint('id').primaryKey().default(1),
    claimedSlot: integer('claimed_slot').notNull().default(0),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    lastError: text('last_error'),
    lastUpdated: integer('last_updated').notNull().default(0),
  },
  (table) => [check('market_feed_state_single_check', sql`${table.id} = 1`)],
);
