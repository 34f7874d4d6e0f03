import { sql } from 'drizzle-orm';
import type { ContractTickSource } from '@custos/contract';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';
import { ORDER_COLUMNS, ORDER_JOINS, type OrderRow } from './orders.repository.js';

export interface TickRow {
  id: string;
  product_id: string;
  bid: string;
  ask: string;
  observed_at: Date | string;
}

/**
 * The watcher's SQL (decisions 034, 045): contract ticks as they are stored, the walks over them
 * with the open orders they could reach, and their purge.
 */
export class ContractTicksRepository {
  constructor(private readonly db: Db) {}

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

  /** Removes ticks older than `before` that the watcher has walked (the newest of each product stays). */
  async purgeTicks(before: Date): Promise<number> {
    return runStatement(
      this.db,
      sql`delete from contract_ticks t using contract_watch w
          where t.product_id = w.product_id and t.observed_at < ${before} and t.id < w.watched_tick_id`,
    );
  }
}
