import { sql } from 'drizzle-orm';
import type { QuoteSource } from '@custos/contract';
import { queryRows, type Db, type Tx } from '../../db/client.js';

export interface ProductRow {
  id: string;
  symbol: string;
  display_name: string;
  sort_order: number;
  enabled: boolean;
  source: QuoteSource;
  updated_at: Date | string;
}

/** A product with its price in force now and its 24 h change (the feed's, or computed from history). */
export interface QuotedProductRow extends ProductRow {
  price: string | null;
  price_source: QuoteSource | null;
  observed_at: Date | string | null;
  change_pct_24h: string | null;
}

export interface FeedStateRow {
  last_attempt_at: Date | string | null;
  last_success_at: Date | string | null;
  last_error: string | null;
  last_updated: number;
}

const PRODUCT_COLUMNS = sql.raw(`p.id, p.symbol, p.display_name, p.sort_order, p.enabled, p.source, p.updated_at`);

/** Market products, their price history and the feed's last run; the only SQL of quotes. */
export class QuotesRepository {
  constructor(private readonly db: Db) {}

  /**
   * Every product (or only those showing) with the latest price observed by `now`. The 24 h change
   * of a feed price is the feed's own; otherwise it is computed against the price in force at
   * `now − 24 h` (the latest row at or before it), or, for a product younger than a day, against its
   * first price inside the window. Exact decimals throughout, rounded to two places.
   */
  async listQuoted(now: Date, options: { enabledOnly: boolean }): Promise<QuotedProductRow[]> {
    const dayAgo = new Date(now.getTime() - 24 * 3600_000);
    return queryRows<QuotedProductRow>(
      this.db,
      sql`select ${PRODUCT_COLUMNS}, cur.price::text as price, cur.source as price_source, cur.observed_at,
            case
              when cur.price is null then null
              when cur.source = 'feed' then round(cur.change_pct_24h, 2)::text
              when coalesce(before_window.price, first_in_window.price) is null then null
              else round((cur.price - coalesce(before_window.price, first_in_window.price))
                         / coalesce(before_window.price, first_in_window.price) * 100, 2)::text
            end as change_pct_24h
          from market_products p
          left join lateral (
            select price, change_pct_24h, source, observed_at from market_prices
            where product_id = p.id and observed_at <= ${now.toISOString()}::timestamptz
            order by observed_at desc limit 1
          ) cur on true
          left join lateral (
            select price from market_prices
            where product_id = p.id and observed_at <= ${dayAgo.toISOString()}::timestamptz
            order by observed_at desc limit 1
          ) before_window on true
          left join lateral (
            select price from market_prices
            where product_id = p.id and observed_at > ${dayAgo.toISOString()}::timestamptz
              and observed_at <= ${now.toISOString()}::timestamptz
            order by observed_at asc limit 1
          ) first_in_window on true
          where ${options.enabledOnly ? sql`p.enabled` : sql`true`}
          order by p.sort_order, p.source <> 'exchange', p.symbol`,
    );
  }

  async findProduct(db: Db | Tx, id: string): Promise<ProductRow | null> {
    const rows = await queryRows<ProductRow>(db, sql`select ${PRODUCT_COLUMNS} from market_products p where p.id = ${id}::uuid`);
    return rows[0] ?? null;
  }

  /** Null when the symbol is already listed. */
  async insertProduct(
    tx: Tx,
    product: { symbol: string; displayName: string; sortOrder: number; enabled: boolean; source: QuoteSource },
  ): Promise<ProductRow | null> {
    const rows = await queryRows<ProductRow>(
      tx,
      sql`insert into market_products as p (symbol, display_name, sort_order, enabled, source)
          values (${product.symbol}, ${product.displayName}, ${product.sortOrder}, ${product.enabled}, ${product.source})
          on conflict (symbol) do nothing
          returning ${PRODUCT_COLUMNS}`,
    );
    return rows[0] ?? null;
  }

  /** Null when another product has the symbol. */
  async updateProduct(
    tx: Tx,
    id: string,
    product: { symbol: string; displayName: string; sortOrder: number; enabled: boolean; source: QuoteSource },
  ): Promise<ProductRow | null> {
    const rows = await queryRows<ProductRow>(
      tx,
      sql`update market_products as p set symbol = ${product.symbol}, display_name = ${product.displayName},
            sort_order = ${product.sortOrder}, enabled = ${product.enabled}, source = ${product.source}, updated_at = now()
          where p.id = ${id}::uuid
            and not exists (select 1 from market_products o where o.symbol = ${product.symbol} and o.id <> ${id}::uuid)
          returning ${PRODUCT_COLUMNS}`,
    );
    return rows[0] ?? null;
  }

  /** Enabled products the feed prices. */
  async feedProducts(): Promise<ProductRow[]> {
    return queryRows<ProductRow>(
      this.db,
      sql`select ${PRODUCT_COLUMNS} from market_products p where p.source = 'feed' and p.enabled order by p.symbol`,
    );
  }

  /**
   * Records a price as of `observedAt`. The same product and instant is one row: a feed observation
   * written by two instances is written once, and a second manual save in the same instant wins.
   */
  async insertPrice(
    db: Db | Tx,
    price: { productId: string; price: string; changePct24h: string | null; source: QuoteSource; observedAt: Date },
  ): Promise<void> {
    await queryRows(
      db,
      sql`insert into market_prices (product_id, price, change_pct_24h, source, observed_at)
          values (${price.productId}::uuid, ${price.price}::numeric, ${price.changePct24h}::numeric, ${price.source},
                  ${price.observedAt.toISOString()}::timestamptz)
          on conflict (product_id, observed_at)
          do update set price = excluded.price, change_pct_24h = excluded.change_pct_24h, source = excluded.source`,
    );
  }

  /**
   * RAB/USDT follows the exchange setting: a row is added only when the setting's price differs
   * from the latest row, as of the setting's last change (never before the latest row). Safe to run
   * on every read and on several instances at once.
   */
  async followExchangePrice(price: string, changedAt: Date): Promise<void> {
    await queryRows(
      this.db,
      sql`insert into market_prices (product_id, price, source, observed_at)
          select p.id, ${price}::numeric, 'exchange',
                 greatest(${changedAt.toISOString()}::timestamptz, coalesce(latest.observed_at + interval '1 millisecond', '-infinity'))
          from market_products p
          left join lateral (
            select price, observed_at from market_prices where product_id = p.id order by observed_at desc limit 1
          ) latest on true
          where p.source = 'exchange' and (latest.price is null or latest.price <> ${price}::numeric)
          on conflict (product_id, observed_at) do nothing`,
    );
  }

  /** Claims an interval slot for a fetch: true for exactly one caller per slot. */
  async claimFeedSlot(slot: number): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      this.db,
      sql`insert into market_feed_state (id, claimed_slot) values (1, ${slot})
          on conflict (id) do update set claimed_slot = excluded.claimed_slot
          where market_feed_state.claimed_slot < excluded.claimed_slot
          returning id`,
    );
    return rows.length > 0;
  }

  async recordFeedRun(
    db: Db | Tx,
    run: { attemptAt: Date; succeeded: boolean; error: string | null; updated: number },
  ): Promise<void> {
    const attempt = run.attemptAt.toISOString();
    await queryRows(
      db,
      sql`insert into market_feed_state (id, last_attempt_at, last_success_at, last_error, last_updated)
          values (1, ${attempt}::timestamptz, ${run.succeeded ? attempt : null}::timestamptz, ${run.error}, ${run.updated})
          on conflict (id) do update set last_attempt_at = excluded.last_attempt_at,
            last_success_at = coalesce(excluded.last_success_at, market_feed_state.last_success_at),
            last_error = excluded.last_error, last_updated = excluded.last_updated`,
    );
  }

  async feedState(): Promise<FeedStateRow | null> {
    const rows = await queryRows<FeedStateRow>(
      this.db,
      sql`select last_attempt_at, last_success_at, last_error, last_updated from market_feed_state where id = 1`,
    );
    return rows[0] ?? null;
  }
}
