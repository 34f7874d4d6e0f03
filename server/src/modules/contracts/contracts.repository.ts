import { sql, type SQL } from 'drizzle-orm';
import type {
  ContractCloseReason,
  ContractOrderState,
  ContractSession,
  ContractSide,
  ContractTickSource,
} from '@custos/contract';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';

/** A market product with its contract settings (null columns when it has none) and its last tick. */
export interface ProductRow {
  id: string;
  symbol: string;
  display_name: string;
  enabled: boolean;
  source: string;
  sort_order: number;
  configured: boolean;
  digits: number | null;
  contract_size: string | null;
  leverages: number[] | null;
  min_lots: string | null;
  lot_step: string | null;
  max_lots: string | null;
  spread_markup_points: number | null;
  sessions: ContractSession[] | null;
  swap_enabled: boolean | null;
  swap_long_pct: string | null;
  swap_short_pct: string | null;
  trading_enabled: boolean | null;
  tick_id: string | null;
  raw_bid: string | null;
  raw_ask: string | null;
  tick_source: ContractTickSource | null;
  quoted_at: Date | string | null;
  /** The product's price in force 24 h ago (quotes history), for the daily change. */
  day_ago_price: string | null;
  /** The latest price of the quotes history (a product without ticks converts through it). */
  market_price: string | null;
  open_orders: number;
}

export interface OrderRow {
  id: string;
  order_no: string;
  member_id: string;
  account_id: string;
  product_id: string;
  parent_id: string | null;
  parent_order_no: string | null;
  symbol: string;
  display_name: string;
  side: ContractSide;
  state: ContractOrderState;
  lots: string;
  leverage: number;
  contract_size: string;
  digits: number;
  open_price: string;
  opened_at: Date | string;
  open_tick_id: string;
  /** The product's last tick when targets were set on the open order (null: set at opening). */
  targets_tick_id: string | null;
  margin: string;
  spread_cost: string;
  take_profit: string | null;
  stop_loss: string | null;
  swap: string;
  swap_day: string | null;
  close_price: string | null;
  closed_at: Date | string | null;
  close_reason: ContractCloseReason | null;
  pnl: string | null;
  close_note: string | null;
  request_hash: string | null;
  close_hash: string | null;
  email: string;
}

export interface TickRow {
  id: string;
  product_id: string;
  bid: string;
  ask: string;
  observed_at: Date | string;
}

export interface NewOrder {
  id: string;
  orderNo: string;
  memberId: string;
  accountId: string;
  productId: string;
  parentId: string | null;
  side: ContractSide;
  lots: string;
  leverage: number;
  contractSize: string;
  digits: number;
  openPrice: string;
  openedAt: Date;
  openTickId: string;
  margin: string;
  spreadCost: string;
  takeProfit: string | null;
  stopLoss: string | null;
  swap: string;
  clientKey: string | null;
  requestHash: string | null;
  /** A member's new order: the first walk that sees it checks it against the ticks since it opened. */
  awaitingWalk: boolean;
}

export interface CloseFields {
  closePrice: string;
  closedAt: Date;
  closeTickId: string;
  reason: ContractCloseReason;
  pnl: string;
  swap: string;
  note: string | null;
  closedBy: string | null;
  closeKey: string | null;
  closeHash: string | null;
}

export interface ProductSettingsInput {
  digits: number;
  contractSize: string;
  leverages: number[];
  minLots: string;
  lotStep: string;
  maxLots: string;
  spreadMarkupPoints: number;
  sessions: ContractSession[];
  swapEnabled: boolean;
  swapLongPct: string;
  swapShortPct: string;
  tradingEnabled: boolean;
}

const PRODUCT_COLUMNS = sql`mp.id::text as id, mp.symbol, mp.display_name, mp.enabled, mp.source, mp.sort_order,
  cp.product_id is not null as configured, cp.digits, cp.contract_size::text as contract_size, cp.leverages,
  cp.min_lots::text as min_lots, cp.lot_step::text as lot_step, cp.max_lots::text as max_lots, cp.spread_markup_points,
  cp.sessions, cp.swap_enabled, cp.swap_long_pct::text as swap_long_pct, cp.swap_short_pct::text as swap_short_pct,
  cp.trading_enabled, t.id::text as tick_id, t.bid::text as raw_bid, t.ask::text as raw_ask, t.source as tick_source,
  t.observed_at as quoted_at`;

function productQuery(where: SQL, dayAgo: Date, withOpenOrders: boolean): SQL {
  return sql`select ${PRODUCT_COLUMNS},
      (select price::text from market_prices where product_id = mp.id and observed_at <= ${dayAgo}
        order by observed_at desc limit 1) as day_ago_price,
      (select price::text from market_prices where product_id = mp.id order by observed_at desc limit 1) as market_price,
      ${withOpenOrders ? sql`(select count(*)::int from contract_orders o where o.product_id = mp.id and o.state = 'open')` : sql`0`} as open_orders
    from market_products mp
    left join contract_products cp on cp.product_id = mp.id
    left join lateral (select id, bid, ask, source, observed_at from contract_ticks where product_id = mp.id order by id desc limit 1) t on true
    where ${where}
    order by mp.sort_order, mp.symbol`;
}

const ORDER_COLUMNS = sql`o.id::text as id, o.order_no, o.member_id::text as member_id, o.account_id::text as account_id,
  o.product_id::text as product_id, o.parent_id::text as parent_id, p.order_no as parent_order_no, mp.symbol,
  mp.display_name, o.side, o.state, o.lots::text as lots, o.leverage, o.contract_size::text as contract_size, o.digits,
  o.open_price::text as open_price, o.opened_at, o.open_tick_id::text as open_tick_id,
  o.targets_tick_id::text as targets_tick_id, o.margin::text as margin,
  o.spread_cost::text as spread_cost, o.take_profit::text as take_profit, o.stop_loss::text as stop_loss,
  o.swap::text as swap, o.swap_day::text as swap_day, o.close_price::text as close_price, o.closed_at, o.close_reason,
  o.pnl::text as pnl, o.close_note, o.request_hash, o.close_hash, m.email`;
/** What an order row (`o`) is joined to for `ORDER_COLUMNS`. */
const ORDER_JOINS = sql`join market_products mp on mp.id = o.product_id
  join members m on m.id = o.member_id
  left join contract_orders p on p.id = o.parent_id`;
const ORDER_FROM = sql`from contract_orders o ${ORDER_JOINS}`;

/** A product's close price for one side, and its conversion to USDT (the stop-out sweep's prices). */
export interface CloseQuote {
  productId: string;
  side: ContractSide;
  closePrice: string;
  conversion: { op: 'mul' | 'div'; rate: string };
}

/** Contracts' SQL (docs/decisions/034-contracts.md); the ledger's own tables are written by the ledger module only. */
export class ContractsRepository {
  constructor(private readonly db: Db) {}

  // ── Products and ticks ──

  /**
   * Every product but RAB/USDT (the exchange's), configured or not, for the console. The handle is
   * the caller's to name: inside a transaction it must be that transaction (on PGlite a query on the
   * root handle waits for the open transaction, which waits for it). `openOrders` counts each one's
   * open orders (the console's product list; every other reader does without).
   */
  allProducts(db: Db | Tx, dayAgo: Date, options: { openOrders?: boolean } = {}): Promise<ProductRow[]> {
    return queryRows<ProductRow>(db, productQuery(sql`mp.source <> 'exchange'`, dayAgo, options.openOrders ?? false));
  }

  /** The products members trade: shown (enabled) and set up for contracts. */
  tradedProducts(dayAgo: Date): Promise<ProductRow[]> {
    return queryRows<ProductRow>(this.db, productQuery(sql`mp.enabled and cp.product_id is not null`, dayAgo, false));
  }

  async product(db: Db | Tx, id: string, dayAgo: Date): Promise<ProductRow | undefined> {
    const [row] = await queryRows<ProductRow>(db, productQuery(sql`mp.id = ${id}::uuid`, dayAgo, false));
    return row;
  }

  /** The last price of every product (tick mid, else the quotes history), by symbol: for USDT conversion. */
  async lastPrices(db: Db | Tx): Promise<{ symbol: string; bid: string | null; ask: string | null; price: string | null }[]> {
    return queryRows(
      db,
      sql`select mp.symbol, t.bid::text as bid, t.ask::text as ask,
            (select price::text from market_prices where product_id = mp.id order by observed_at desc limit 1) as price
          from market_products mp
          left join lateral (select bid, ask from contract_ticks where product_id = mp.id order by id desc limit 1) t on true`,
    );
  }

  async upsertSettings(tx: Tx, productId: string, input: ProductSettingsInput): Promise<void> {
    await runStatement(
      tx,
      sql`insert into contract_products (product_id, digits, contract_size, leverages, min_lots, lot_step, max_lots,
            spread_markup_points, sessions, swap_enabled, swap_long_pct, swap_short_pct, trading_enabled)
          values (${productId}::uuid, ${input.digits}, ${input.contractSize}, ${sql.raw(`array[${input.leverages.map((value) => String(Math.trunc(value))).join(',')}]::int[]`)},
            ${input.minLots}, ${input.lotStep}, ${input.maxLots}, ${input.spreadMarkupPoints}, ${JSON.stringify(input.sessions)}::jsonb,
            ${input.swapEnabled}, ${input.swapLongPct}, ${input.swapShortPct}, ${input.tradingEnabled})
          on conflict (product_id) do update set digits = excluded.digits, contract_size = excluded.contract_size,
            leverages = excluded.leverages, min_lots = excluded.min_lots, lot_step = excluded.lot_step,
            max_lots = excluded.max_lots, spread_markup_points = excluded.spread_markup_points, sessions = excluded.sessions,
            swap_enabled = excluded.swap_enabled, swap_long_pct = excluded.swap_long_pct,
            swap_short_pct = excluded.swap_short_pct, trading_enabled = excluded.trading_enabled, updated_at = now()`,
    );
    // The watcher starts after the ticks the product already has (they were never watched).
    await runStatement(
      tx,
      sql`insert into contract_watch (product_id, watched_tick_id)
          values (${productId}::uuid, coalesce((select max(id) from contract_ticks where product_id = ${productId}::uuid), 0))
          on conflict (product_id) do nothing`,
    );
  }

  /**
   * Appends ticks (raw bid/ask) of configured products and records each product's last mid in the
   * quotes history (decision 027), in one statement: Home and the console keep showing contract
   * prices without a row per tick, since the product's latest history row moves with its ticks while
   * it is younger than `everyMs`, then a new row starts. Answers the stored ticks in order, with their
   * product's symbol; a tick of a product without contract settings is not stored.
   */
  async insertTicks(
    db: Db | Tx,
    ticks: readonly { productId: string; bid: string; ask: string; observedAt: Date }[],
    source: ContractTickSource,
    history: { mids: readonly { productId: string; mid: string; observedAt: Date }[]; everyMs: number } | null = null,
  ): Promise<{ id: string; productId: string; symbol: string }[]> {
    if (ticks.length === 0) return [];
    const mids = history?.mids ?? [];
    const everyMs = history?.everyMs ?? 0;
    const historySource = source === 'feed' ? 'feed' : 'manual';
    const tickValues = ticks.map(
      (tick, index) =>
        sql`(${index}::int, ${tick.productId}::uuid, ${tick.bid}::numeric, ${tick.ask}::numeric, ${tick.observedAt}::timestamptz)`,
    );
    const midValues = mids.map(
      (mid) =>
        sql`(${mid.productId}::uuid, ${mid.mid}::numeric, ${mid.observedAt}::timestamptz, ${new Date(mid.observedAt.getTime() - everyMs)}::timestamptz)`,
    );
    return queryRows<{ id: string; productId: string; symbol: string }>(
      db,
      sql`with incoming (n, product_id, bid, ask, observed_at) as (values ${sql.join(tickValues, sql`, `)}),
          -- Ticks of a product are numbered and committed one store at a time (the product's row is
          -- held to the commit): a walk that has seen a tick has seen every earlier one (decision 045).
          products as (
            select product_id from contract_products where product_id in (select product_id from incoming)
            order by product_id for no key update
          ),
          stored as (
            insert into contract_ticks (product_id, bid, ask, source, observed_at)
            select i.product_id, i.bid, i.ask, ${source}, i.observed_at
            from incoming i join products cp on cp.product_id = i.product_id
            order by i.n
            returning id, product_id
          )${
            mids.length === 0
              ? sql``
              : sql`,
          mids (product_id, price, observed_at, fresh_after) as (
            select v.* from (values ${sql.join(midValues, sql`, `)}) v (product_id, price, observed_at, fresh_after)
            where exists (select 1 from contract_products cp where cp.product_id = v.product_id)
          ),
          moved as (
            update market_prices m set price = mids.price, observed_at = greatest(m.observed_at, mids.observed_at)
            from mids
            where m.id = (select id from market_prices where product_id = mids.product_id order by observed_at desc limit 1)
              and m.observed_at > mids.fresh_after and m.source = ${historySource}
            returning m.product_id
          ),
          added as (
            insert into market_prices (product_id, price, change_pct_24h, source, observed_at)
            select mids.product_id, mids.price, null, ${historySource}, mids.observed_at from mids
            where not exists (select 1 from moved where moved.product_id = mids.product_id)
            on conflict do nothing
          )`
          }
          select s.id::text as id, s.product_id::text as "productId", mp.symbol
          from stored s join market_products mp on mp.id = s.product_id
          order by s.id`,
    );
  }

  // ── The watcher ──

  /**
   * A walk's batch over several products in one statement (decision 034): each product's watch row
   * claimed (skip locked, in product order: a product another walk holds is left out), its ticks
   * after its cursor in id order (at most `limit`), its cursor moved past them (the walk's
   * transaction commits or rolls back the move with its closes), the two settings it prices them with
   * (null when it has no contract settings), and the open orders its ticks could reach, locked in id
   * order across products. A buy closes at bid: its take-profit at or under the batch's highest bid,
   * its stop-loss at or over the lowest; a sell at ask, the other way; the bid and ask are the
   * platform's (rounded to the product's digits and marked up as `contractQuote` does), so the
   * orders are exactly those some tick reaches; the walk finds which tick.
   *
   * New orders no walk has seen yet (`contract_unseen_orders`, decision 045) are candidates too,
   * whatever the ticks: an order that committed after an earlier walk read the open orders missed
   * that walk's ticks, so they come back as `earlyTicks` (after the order's open tick, up to the
   * cursor), and their unseen rows are deleted in this transaction.
   */
  async claimWalks(
    tx: Tx,
    productIds: readonly string[],
    limit: number,
  ): Promise<
    {
      productId: string;
      pricing: { digits: number; spreadMarkupPoints: number } | null;
      ticks: TickRow[];
      earlyTicks: TickRow[];
      candidates: (OrderRow & { awaiting: boolean })[];
    }[]
  > {
    if (productIds.length === 0) return [];
    // A parameter holding an array literal: one statement text for any number of products.
    const ids = sql`${`{${productIds.join(',')}}`}::uuid[]`;
    const rows = await queryRows<{
      product_id: string;
      digits: number | null;
      spread_markup_points: number | null;
      ticks: { id: string; bid: string; ask: string; observed_at: string }[] | null;
      early_ticks: { id: string; bid: string; ask: string; observed_at: string }[] | null;
      candidates: (OrderRow & { awaiting: boolean })[] | null;
    }>(
      tx,
      sql`with w as (
            select product_id, watched_tick_id from contract_watch where product_id = any(${ids})
            order by product_id for update skip locked
          ),
          t as (
            select w.product_id, ct.id, ct.bid, ct.ask, ct.observed_at from w cross join lateral (
              select id, bid, ask, observed_at from contract_ticks
              where product_id = w.product_id and id > w.watched_tick_id order by id limit ${limit}
            ) ct
          ),
          pricing as (
            select product_id, digits, spread_markup_points, power(10::numeric, digits) as scale
            from contract_products where product_id in (select product_id from w)
          ),
          moved as (
            update contract_watch c set watched_tick_id = last.id, updated_at = now()
            from (select product_id, max(id) as id from t group by product_id) last
            where c.product_id = last.product_id
            returning c.product_id
          ),
          band as (
            select t.product_id,
              (max(floor(t.bid * pr.scale)) - pr.spread_markup_points / 2) / pr.scale as max_bid,
              (min(floor(t.bid * pr.scale)) - pr.spread_markup_points / 2) / pr.scale as min_bid,
              (max(ceil(t.ask * pr.scale)) + (pr.spread_markup_points - pr.spread_markup_points / 2)) / pr.scale as max_ask,
              (min(ceil(t.ask * pr.scale)) + (pr.spread_markup_points - pr.spread_markup_points / 2)) / pr.scale as min_ask
            from t join pricing pr on pr.product_id = t.product_id
            group by t.product_id, pr.scale, pr.spread_markup_points
          ),
          -- Per product, four range scans of the take-profit and stop-loss indexes (lateral: the
          -- planner cannot know the band's bounds, and would scan every open order instead).
          reached as (
            select r.id from band b cross join lateral (
              select id from contract_orders where product_id = b.product_id and state = 'open' and side = 'buy'
                and take_profit is not null and take_profit <= b.max_bid
              union all select id from contract_orders where product_id = b.product_id and state = 'open' and side = 'buy'
                and stop_loss is not null and stop_loss >= b.min_bid
              union all select id from contract_orders where product_id = b.product_id and state = 'open' and side = 'sell'
                and take_profit is not null and take_profit >= b.min_ask
              union all select id from contract_orders where product_id = b.product_id and state = 'open' and side = 'sell'
                and stop_loss is not null and stop_loss <= b.max_ask
            ) r
          ),
          awaiting as (
            select o.id, o.product_id, o.open_tick_id from w
            join contract_unseen_orders u on u.product_id = w.product_id
            join contract_orders o on o.id = u.order_id
            where o.state = 'open'
          ),
          -- The ids as an array: primary-key lookups. As a join, the planner expects a thousand
          -- candidates and hashes a scan of every order (35 ms under load) for the usual few.
          -- The candidates' figures come from these locked rows themselves: a row locked after a wait is
          -- the version that won (a partial close's lots and margin); another scan of contract_orders
          -- in this statement would still see the version of its snapshot (issue 31).
          locked as (
            select o.*, o.id = any(array(select id from awaiting)) as awaiting from contract_orders o
            where o.id = any(array(select id from reached union select id from awaiting)) and o.state = 'open'
            order by o.id for update of o
          ),
          -- Every unseen row of the claimed products this statement sees (an order closed meanwhile
          -- has nothing left to check); a row committed after it stays for the next walk.
          seen as (
            delete from contract_unseen_orders u where u.product_id = any(array(select product_id from w))
            returning u.order_id
          ),
          early_from as (
            select a.product_id, min(a.open_tick_id) as open_tick_id from awaiting a group by a.product_id
          ),
          early as (
            select w.product_id, ct.id, ct.bid, ct.ask, ct.observed_at
            from w join early_from e on e.product_id = w.product_id cross join lateral (
              select id, bid, ask, observed_at from contract_ticks
              where product_id = w.product_id and id > e.open_tick_id and id <= w.watched_tick_id
            ) ct
          )
          select w.product_id::text as product_id, pr.digits, pr.spread_markup_points,
            (select json_agg(json_build_object('id', t.id::text, 'bid', t.bid::text, 'ask', t.ask::text, 'observed_at', t.observed_at) order by t.id)
              from t where t.product_id = w.product_id) as ticks,
            (select json_agg(json_build_object('id', e.id::text, 'bid', e.bid::text, 'ask', e.ask::text, 'observed_at', e.observed_at) order by e.id)
              from early e where e.product_id = w.product_id) as early_ticks,
            (select json_agg(c order by c.id) from (
              select ${ORDER_COLUMNS}, o.awaiting from locked o ${ORDER_JOINS}
              where o.product_id = w.product_id
            ) c) as candidates
          from w left join pricing pr on pr.product_id = w.product_id
          order by w.product_id`,
    );
    return rows.map((row) => ({
      productId: row.product_id,
      pricing: row.digits === null ? null : { digits: row.digits, spreadMarkupPoints: row.spread_markup_points ?? 0 },
      ticks: (row.ticks ?? []).map((tick) => ({ ...tick, product_id: row.product_id })),
      earlyTicks: (row.early_ticks ?? []).map((tick) => ({ ...tick, product_id: row.product_id })),
      candidates: row.candidates ?? [],
    }));
  }

  /** Products with ticks the watcher has not walked yet, or new orders no walk has seen. */
  async productsBehind(): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select w.product_id::text as id from contract_watch w
          where exists (select 1 from contract_ticks t where t.product_id = w.product_id and t.id > w.watched_tick_id)
            or exists (select 1 from contract_unseen_orders u where u.product_id = w.product_id)`,
    );
    return rows.map((row) => row.id);
  }

  // ── Orders ──

  async insertOrder(tx: Tx, order: NewOrder): Promise<void> {
    await runStatement(
      tx,
      sql`with inserted as (
          insert into contract_orders (id, order_no, member_id, account_id, product_id, parent_id, side, lots, leverage,
            contract_size, digits, open_price, opened_at, open_tick_id, margin, spread_cost, take_profit, stop_loss, swap,
            client_key, request_hash)
          values (${order.id}::uuid, ${order.orderNo}, ${order.memberId}::uuid, ${order.accountId}::uuid, ${order.productId}::uuid,
            ${order.parentId}::uuid, ${order.side}, ${order.lots}, ${order.leverage}, ${order.contractSize}, ${order.digits},
            ${order.openPrice}, ${order.openedAt}, ${order.openTickId}::bigint, ${order.margin}, ${order.spreadCost},
            ${order.takeProfit}, ${order.stopLoss}, ${order.swap}, ${order.clientKey}, ${order.requestHash})
          returning id, product_id
        )
        insert into contract_unseen_orders (order_id, product_id)
        select id, product_id from inserted where ${order.awaitingWalk}`,
    );
  }

  async order(db: Db | Tx, id: string, options: { lock?: boolean } = {}): Promise<OrderRow | undefined> {
    const [row] = await queryRows<OrderRow>(
      db,
      sql`select ${ORDER_COLUMNS} ${ORDER_FROM} where o.id = ${id}::uuid ${options.lock ? sql`for update of o` : sql``}`,
    );
    return row;
  }

  async orderByClientKey(db: Db | Tx, memberId: string, key: string): Promise<OrderRow | undefined> {
    const [row] = await queryRows<OrderRow>(
      db,
      sql`select ${ORDER_COLUMNS} ${ORDER_FROM} where o.member_id = ${memberId}::uuid and o.client_key = ${key}`,
    );
    return row;
  }

  async orderByCloseKey(db: Db | Tx, memberId: string, key: string): Promise<OrderRow | undefined> {
    const [row] = await queryRows<OrderRow>(
      db,
      sql`select ${ORDER_COLUMNS} ${ORDER_FROM} where o.member_id = ${memberId}::uuid and o.close_key = ${key}`,
    );
    return row;
  }

  async countOpen(tx: Tx, accountId: string): Promise<number> {
    const [row] = await queryRows<{ count: number }>(
      tx,
      sql`select count(*)::int as count from contract_orders where account_id = ${accountId}::uuid and state = 'open'`,
    );
    return row?.count ?? 0;
  }

  /** An account's open orders, newest first (locked in id order when asked: stop-out). */
  openOrdersOf(db: Db | Tx, accountId: string, options: { lock?: boolean } = {}): Promise<OrderRow[]> {
    if (options.lock) {
      return queryRows<OrderRow>(
        db,
        sql`select ${ORDER_COLUMNS} ${ORDER_FROM} where o.account_id = ${accountId}::uuid and o.state = 'open'
            order by o.id for update of o`,
      );
    }
    return queryRows<OrderRow>(
      db,
      sql`select ${ORDER_COLUMNS} ${ORDER_FROM} where o.account_id = ${accountId}::uuid and o.state = 'open'
          order by o.opened_at desc, o.order_no desc`,
    );
  }

  /**
   * Accounts whose margin level may be below `stopOutLevelPct` at these close prices: every open
   * order priced as `contractPnl` does (its result floored to 4 places; none without a price), summed
   * per account with margins and swaps. The test leans towards including: each order's result counts
   * 0.0002 lower (the division's last digit), and the level is compared one hundredth above the
   * setting. The caller checks each account exactly before closing anything.
   */
  async accountsNearStopOut(closes: readonly CloseQuote[], stopOutLevelPct: string): Promise<string[]> {
    const array = (values: readonly string[], type: string) =>
      sql`${`{${values.map((value) => `"${value}"`).join(',')}}`}::${sql.raw(type)}[]`;
    const rows = await queryRows<{ account_id: string }>(
      this.db,
      sql`with q (product_id, side, close_price, op, rate) as (
            select * from unnest(${array(
              closes.map((close) => close.productId),
              'uuid',
            )}, ${array(
              closes.map((close) => close.side),
              'text',
            )}, ${array(
              closes.map((close) => close.closePrice),
              'numeric',
            )}, ${array(
              closes.map((close) => close.conversion.op),
              'text',
            )}, ${array(
              closes.map((close) => close.conversion.rate),
              'numeric',
            )})
          ),
          priced as (
            select o.account_id, o.margin, o.swap,
              coalesce(floor(case when q.op = 'mul' then v.value * q.rate else v.value / q.rate end * 10000) / 10000, 0) as pnl
            from contract_orders o
            left join q on q.product_id = o.product_id and q.side = o.side
            cross join lateral (
              select o.lots * o.contract_size * case when o.side = 'buy' then q.close_price - o.open_price else o.open_price - q.close_price end as value
            ) v
            where o.state = 'open'
          )
          select account_id::text as account_id from priced
          group by account_id
          having sum(margin) > 0
            and (sum(margin) + sum(swap) + sum(pnl) - count(*) * 0.0002) * 100 < (${stopOutLevelPct}::numeric + 0.01) * sum(margin)
          order by account_id`,
    );
    return rows.map((row) => row.account_id);
  }

  /** Every open order (stop-out sweep, the book): the few columns the figures need. */
  allOpenOrders(): Promise<
    {
      id: string;
      order_no: string;
      member_id: string;
      account_id: string;
      product_id: string;
      side: ContractSide;
      lots: string;
      contract_size: string;
      open_price: string;
      opened_at: Date | string;
      margin: string;
      swap: string;
      symbol: string;
      email: string;
    }[]
  > {
    return queryRows(
      this.db,
      sql`select o.id::text as id, o.order_no, o.member_id::text as member_id, o.account_id::text as account_id,
            o.product_id::text as product_id, o.side, o.lots::text as lots, o.contract_size::text as contract_size, o.open_price::text as open_price, o.opened_at,
            o.margin::text as margin, o.swap::text as swap, mp.symbol, m.email
          from contract_orders o join market_products mp on mp.id = o.product_id join members m on m.id = o.member_id
          where o.state = 'open'`,
    );
  }

  async closedOf(
    accountId: string,
    productId: string | undefined,
    page: number,
    pageSize: number,
  ): Promise<{ rows: OrderRow[]; total: number }> {
    const where = sql`o.account_id = ${accountId}::uuid and o.state = 'closed' ${productId ? sql`and o.product_id = ${productId}::uuid` : sql``}`;
    const rows = await queryRows<OrderRow>(
      this.db,
      sql`select ${ORDER_COLUMNS} ${ORDER_FROM} where ${where} order by o.closed_at desc, o.order_no desc
          limit ${pageSize} offset ${(page - 1) * pageSize}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from contract_orders o where ${where}`,
    );
    return { rows, total: count?.total ?? 0 };
  }

  async adminOrders(
    filter: { state?: ContractOrderState; productId?: string; query?: string },
    page: number,
    pageSize: number,
  ): Promise<{ rows: OrderRow[]; total: number }> {
    const parts: SQL[] = [sql`true`];
    if (filter.state) parts.push(sql`o.state = ${filter.state}`);
    if (filter.productId) parts.push(sql`o.product_id = ${filter.productId}::uuid`);
    if (filter.query) {
      const like = `%${filter.query.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
      parts.push(sql`(o.order_no = ${filter.query} or m.email ilike ${like})`);
    }
    const where = sql.join(parts, sql` and `);
    const rows = await queryRows<OrderRow>(
      this.db,
      sql`select ${ORDER_COLUMNS} ${ORDER_FROM} where ${where}
          order by coalesce(o.closed_at, o.opened_at) desc, o.order_no desc limit ${pageSize} offset ${(page - 1) * pageSize}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from contract_orders o join members m on m.id = o.member_id where ${where}`,
    );
    return { rows, total: count?.total ?? 0 };
  }

  /** Closes an open order (the whole of it); false when it was no longer open. */
  async closeOrder(tx: Tx, id: string, fields: CloseFields): Promise<boolean> {
    const changed = await runStatement(
      tx,
      sql`update contract_orders set state = 'closed', close_price = ${fields.closePrice}, closed_at = ${fields.closedAt},
            close_tick_id = ${fields.closeTickId}::bigint, close_reason = ${fields.reason}, pnl = ${fields.pnl},
            swap = ${fields.swap}, close_note = ${fields.note}, closed_by = ${fields.closedBy}::uuid,
            close_key = ${fields.closeKey}, close_hash = ${fields.closeHash}, updated_at = now()
          where id = ${id}::uuid and state = 'open'`,
    );
    return changed === 1;
  }

  /**
   * Closes open orders with their figures; answers the ids closed (an order no longer open is left).
   * `awaitingSettlement`: the ledger moves their margin and result in a later transaction (decision 046).
   */
  async closeOrders(
    tx: Tx,
    closes: readonly { id: string; lots?: string; margin?: string; fields: CloseFields }[],
    options: { awaitingSettlement?: boolean } = {},
  ): Promise<string[]> {
    if (closes.length === 0) return [];
    const source = JSON.stringify(
      closes.map(({ id, lots, margin, fields }) => ({
        id,
        lots: lots ?? null,
        margin: margin ?? null,
        close_price: fields.closePrice,
        closed_at: fields.closedAt.toISOString(),
        close_tick_id: fields.closeTickId,
        close_reason: fields.reason,
        pnl: fields.pnl,
        swap: fields.swap,
        close_note: fields.note,
        closed_by: fields.closedBy,
        close_key: fields.closeKey,
        close_hash: fields.closeHash,
      })),
    );
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`with closed as (
          update contract_orders o set state = 'closed', close_price = v.close_price, closed_at = v.closed_at,
            close_tick_id = v.close_tick_id, close_reason = v.close_reason, pnl = v.pnl, swap = v.swap,
            close_note = v.close_note, closed_by = v.closed_by, close_key = v.close_key, close_hash = v.close_hash,
            updated_at = now()
          from jsonb_to_recordset(${source}::jsonb) as v(id uuid, lots numeric, margin numeric, close_price numeric,
            closed_at timestamptz, close_tick_id bigint, close_reason text, pnl numeric, swap numeric, close_note text,
            closed_by uuid, close_key text, close_hash text)
          -- Only the order as the caller priced it: lots and margin it read, when given.
          where o.id = v.id and o.state = 'open' and (v.lots is null or o.lots = v.lots)
            and (v.margin is null or o.margin = v.margin)
          returning o.id
        ),
        due as (
          insert into contract_settlements_due (order_id) select id from closed where ${options.awaitingSettlement ?? false}
        )
        select id::text as id from closed`,
    );
    return rows.map((row) => row.id);
  }

  /**
   * Closed orders awaiting their settlement, at most `limit`, in id order (skip locked: another
   * settler's are left to it), taken out of the awaiting state in the caller's transaction.
   */
  async claimSettlements(tx: Tx, limit: number): Promise<(OrderRow & { held: string | null })[]> {
    return queryRows<OrderRow & { held: string | null }>(
      tx,
      sql`with due as (
            select order_id from contract_settlements_due order by order_id limit ${limit} for update skip locked
          ),
          taken as (
            delete from contract_settlements_due d where d.order_id = any(array(select order_id from due)) returning d.order_id
          )
          select ${ORDER_COLUMNS},
            (select h.amount::text from ledger_holds h where h.reference_type = 'contract_order'
              and h.reference_id = o.id::text and h.status = 'pending') as held
          ${ORDER_FROM} join taken on taken.order_id = o.id order by o.id`,
    );
  }

  /** A closed order's result once its account's equity was floored at zero (decision 049). */
  async setSettledResult(tx: Tx, id: string, pnl: string): Promise<void> {
    await runStatement(
      tx,
      sql`update contract_orders set pnl = ${pnl}, updated_at = now() where id = ${id}::uuid and state = 'closed'`,
    );
  }

  /** Whether any closed order awaits its settlement (the watcher's sweep). */
  async settlementsDue(): Promise<boolean> {
    const [row] = await queryRows<{ due: boolean }>(this.db, sql`select exists (select 1 from contract_settlements_due) as due`);
    return row?.due ?? false;
  }

  /** What stays open after a partial close; false when the order was no longer open. */
  async shrinkOrder(
    tx: Tx,
    id: string,
    left: { lots: string; margin: string; spreadCost: string; swap: string },
  ): Promise<boolean> {
    const changed = await runStatement(
      tx,
      sql`update contract_orders set lots = ${left.lots}, margin = ${left.margin}, spread_cost = ${left.spreadCost},
            swap = ${left.swap}, updated_at = now()
          where id = ${id}::uuid and state = 'open'`,
    );
    return changed === 1;
  }

  async setTargets(tx: Tx, id: string, targets: { takeProfit: string | null; stopLoss: string | null }): Promise<boolean> {
    const changed = await runStatement(
      tx,
      // Ticks of a product commit in id order (decision 045): every tick after this one is stored after the targets.
      sql`update contract_orders set take_profit = ${targets.takeProfit}, stop_loss = ${targets.stopLoss},
            targets_tick_id = (select max(id) from contract_ticks where product_id = contract_orders.product_id),
            updated_at = now()
          where id = ${id}::uuid and state = 'open'`,
    );
    return changed === 1;
  }

  /** Open orders of a product not yet charged swap for `day` (opened before the rollover). */
  swapDue(tx: Tx, productId: string, day: string, rollover: Date, limit: number): Promise<OrderRow[]> {
    return queryRows<OrderRow>(
      tx,
      sql`select ${ORDER_COLUMNS} ${ORDER_FROM}
          where o.product_id = ${productId}::uuid and o.state = 'open' and o.opened_at < ${rollover}
            and (o.swap_day is null or o.swap_day < ${day}::date)
          order by o.id limit ${limit} for update of o skip locked`,
    );
  }

  async addSwap(tx: Tx, id: string, swap: string, day: string): Promise<void> {
    await runStatement(
      tx,
      sql`update contract_orders set swap = swap + ${swap}::numeric, swap_day = ${day}::date, updated_at = now()
          where id = ${id}::uuid and state = 'open' and (swap_day is null or swap_day < ${day}::date)`,
    );
  }

  /** The platform book account's USDT balance. */
  async bookBalance(): Promise<string> {
    const [row] = await queryRows<{ balance: string }>(
      this.db,
      sql`select balance::text as balance from ledger_accounts where platform_code = 'contracts_book' and asset = 'USDT'`,
    );
    return row?.balance ?? '0';
  }

  /** Holds of contract orders that do not match their order (the contracts checker). */
  marginProblems(): Promise<{ id: string; problem: string }[]> {
    return queryRows(
      this.db,
      sql`select o.id::text as id,
            case when o.state = 'open' and h.id is null then 'open order without a pending hold'
                 when o.state = 'open' and h.amount <> o.margin then 'hold differs from margin'
                 when o.state = 'closed' and not o.awaiting_settlement and h.id is not null then 'closed order still holds margin'
                 when o.state = 'closed' and o.awaiting_settlement and h.id is null then 'order awaiting settlement without its hold'
                 when o.state = 'closed' and o.awaiting_settlement then 'hold differs from margin'
                 else 'pending hold of a contract order missing' end as problem
          from (select o.*, exists (select 1 from contract_settlements_due d where d.order_id = o.id) as awaiting_settlement
                from contract_orders o) o
          left join ledger_holds h on h.reference_type = 'contract_order' and h.reference_id = o.id::text and h.status = 'pending'
          where (o.state = 'open' and (h.id is null or h.amount <> o.margin))
            or (o.state = 'closed' and not o.awaiting_settlement and h.id is not null)
            or (o.state = 'closed' and o.awaiting_settlement and (h.id is null or h.amount <> o.margin))
          union all
          select h.id::text, 'pending hold without an open order' from ledger_holds h
          where h.reference_type = 'contract_order' and h.status = 'pending'
            and not exists (select 1 from contract_orders o where o.id::text = h.reference_id
              and (o.state = 'open' or exists (select 1 from contract_settlements_due d where d.order_id = o.id)))`,
    );
  }

  /** Removes ticks older than `before` that the watcher has walked (the newest of each product stays). */
  async purgeTicks(before: Date): Promise<number> {
    return runStatement(
      this.db,
      sql`delete from contract_ticks t using contract_watch w
          where t.product_id = w.product_id and t.observed_at < ${before} and t.id < w.watched_tick_id`,
    );
  }
}
