import { sql, type SQL } from 'drizzle-orm';
import type { ContractSession, ContractTickSource } from '@custos/contract';
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

/** Contract products' SQL (decision 034): the market products, their contract settings and their last prices. */
export class ContractProductsRepository {
  constructor(private readonly db: Db) {}

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
}
