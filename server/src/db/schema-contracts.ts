import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, members, operators } from './schema-core.js';
import { marketProducts } from './schema-market.js';

const money = (name: string) => numeric(name, { precision: 38, scale: 4 });
const price = (name: string) => numeric(name, { precision: 30, scale: 8 });
const lots = (name: string) => numeric(name, { precision: 12, scale: 2 });

/**
 * Contract settings of a market product (issue 15, docs/decisions/034-contracts.md): a product with a
 * row here trades as contracts. Keyed by the market product (quotes, decision 027).
 */
export const contractProducts = pgTable(
  'contract_products',
  {
    productId: uuid('product_id')
      .primaryKey()
      .references(() => marketProducts.id),
    digits: smallint('digits').notNull(),
    contractSize: numeric('contract_size', { precision: 20, scale: 0 }).notNull(),
    leverages: integer('leverages').array().notNull(),
    minLots: lots('min_lots').notNull(),
    lotStep: lots('lot_step').notNull(),
    maxLots: lots('max_lots').notNull(),
    spreadMarkupPoints: integer('spread_markup_points').notNull().default(0),
    sessions: jsonb('sessions').notNull(),
    swapEnabled: boolean('swap_enabled').notNull().default(false),
    swapLongPct: numeric('swap_long_pct', { precision: 8, scale: 4 }).notNull().default('0'),
    swapShortPct: numeric('swap_short_pct', { precision: 8, scale: 4 }).notNull().default('0'),
    tradingEnabled: boolean('trading_enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('contract_products_digits_check', sql`${table.digits} between 0 and 8`),
    check('contract_products_size_check', sql`${table.contractSize} > 0`),
    check(
      'contract_products_lots_check',
      sql`${table.minLots} > 0 and ${table.lotStep} > 0 and ${table.minLots} <= ${table.maxLots}`,
    ),
    check('contract_products_markup_check', sql`${table.spreadMarkupPoints} >= 0`),
    check('contract_products_leverages_check', sql`cardinality(${table.leverages}) > 0`),
  ],
);

/**
 * Every bid/ask tick of a contract product, raw (before the product's digits and mark-up), in the
 * order it arrived (`id`): from the operator (`manual`), the ticker feed (`feed`) or a replay of
 * recorded ticks (`replay`). The watcher walks them in id order from its cursor.
 */
export const contractTicks = pgTable(
  'contract_ticks',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    productId: uuid('product_id')
      .notNull()
      .references(() => marketProducts.id),
    bid: price('bid').notNull(),
    ask: price('ask').notNull(),
    source: text('source').notNull(),
    observedAt: timestamp('observed_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('contract_ticks_product_idx').on(table.productId, table.id),
    check('contract_ticks_prices_check', sql`${table.bid} > 0 and ${table.ask} >= ${table.bid}`),
    check('contract_ticks_source_check', sql`${table.source} in ('manual', 'feed', 'replay')`),
  ],
);

/**
 * The watcher's place per product: ticks up to `watched_tick_id` have been checked against every
 * open order's take-profit, stop-loss and stop-out. The row is locked (skip locked) by the instance
 * walking the product, so one instance walks it at a time. `swap_day` is the last rollover charged.
 */
export const contractWatch = pgTable('contract_watch', {
  productId: uuid('product_id')
    .primaryKey()
    .references(() => marketProducts.id),
  watchedTickId: bigint('watched_tick_id', { mode: 'bigint' })
    .notNull()
    .default(sql`0`),
  swapDay: date('swap_day'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Contract (settlement) orders (spec §3). An open order's margin is held by the ledger hold
 * `contract_order` / `<id>`. A partial close makes a new closed row (`parent_id` = the order) and
 * moves that share of the hold to it before settling; the order stays open with fewer lots.
 */
export const contractOrders = pgTable(
  'contract_orders',
  {
    id: uuid('id').primaryKey(),
    orderNo: text('order_no').notNull().unique(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    productId: uuid('product_id')
      .notNull()
      .references(() => marketProducts.id),
    parentId: uuid('parent_id'),
    side: text('side').notNull(),
    state: text('state').notNull().default('open'),
    lots: lots('lots').notNull(),
    leverage: integer('leverage').notNull(),
    contractSize: numeric('contract_size', { precision: 20, scale: 0 }).notNull(),
    digits: smallint('digits').notNull(),
    openPrice: price('open_price').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    openTickId: bigint('open_tick_id', { mode: 'bigint' }).notNull(),
    /** The product's last tick when the targets were last set on the open order: they act on later ticks only. */
    targetsTickId: bigint('targets_tick_id', { mode: 'bigint' }),
    margin: money('margin').notNull(),
    spreadCost: money('spread_cost').notNull(),
    takeProfit: price('take_profit'),
    stopLoss: price('stop_loss'),
    swap: money('swap').notNull().default('0'),
    swapDay: date('swap_day'),
    closePrice: price('close_price'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closeTickId: bigint('close_tick_id', { mode: 'bigint' }),
    closeReason: text('close_reason'),
    pnl: money('pnl'),
    closeNote: text('close_note'),
    closedBy: uuid('closed_by').references(() => operators.id),
    clientKey: text('client_key'),
    requestHash: text('request_hash'),
    closeKey: text('close_key'),
    closeHash: text('close_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('contract_orders_client_key').on(table.memberId, table.clientKey),
    uniqueIndex('contract_orders_close_key').on(table.memberId, table.closeKey),
    index('contract_orders_account_open_idx')
      .on(table.accountId, table.openedAt)
      .where(sql`${table.state} = 'open'`),
    index('contract_orders_account_closed_idx')
      .on(table.accountId, table.closedAt)
      .where(sql`${table.state} = 'closed'`),
    index('contract_orders_product_open_idx')
      .on(table.productId, table.side)
      .where(sql`${table.state} = 'open'`),
    index('contract_orders_take_profit_idx')
      .on(table.productId, table.side, table.takeProfit)
      .where(sql`${table.state} = 'open' and ${table.takeProfit} is not null`),
    index('contract_orders_stop_loss_idx')
      .on(table.productId, table.side, table.stopLoss)
      .where(sql`${table.state} = 'open' and ${table.stopLoss} is not null`),
    index('contract_orders_closed_idx')
      .on(table.closedAt)
      .where(sql`${table.state} = 'closed'`),
    check('contract_orders_side_check', sql`${table.side} in ('buy', 'sell')`),
    check('contract_orders_state_check', sql`${table.state} in ('open', 'closed')`),
    check('contract_orders_amounts_check', sql`${table.lots} > 0 and ${table.leverage} > 0 and ${table.margin} > 0`),
    check(
      'contract_orders_close_reason_check',
      sql`${table.closeReason} is null or ${table.closeReason} in ('member', 'take_profit', 'stop_loss', 'stop_out', 'operator')`,
    ),
    check(
      'contract_orders_closed_check',
      sql`(${table.state} = 'closed') = (${table.closedAt} is not null and ${table.closePrice} is not null and ${table.closeReason} is not null and ${table.pnl} is not null)`,
    ),
  ],
);

/**
 * A member's new orders that no walk has seen yet (decision 045): the first walk of the product that
 * sees one checks it against the ticks walked while it was being opened, and deletes its row. A
 * queue of its own, not a flag on the order: a row in and out is cheaper than an order's update.
 */
export const contractUnseenOrders = pgTable(
  'contract_unseen_orders',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => contractOrders.id),
    productId: uuid('product_id').notNull(),
  },
  (table) => [index('contract_unseen_orders_product_idx').on(table.productId)],
);

/** Orders the watcher closed whose margin and result the ledger has not moved yet (decision 046). */
export const contractSettlementsDue = pgTable('contract_settlements_due', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => contractOrders.id),
});
