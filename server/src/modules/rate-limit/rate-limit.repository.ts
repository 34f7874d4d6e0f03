import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';

export interface BucketState {
  attempts: number;
  /** Seconds until the window resets. */
  resetInS: number;
}

export class RateLimitRepository {
  constructor(private readonly db: Db) {}

  /** Counts one attempt in the key's fixed window, starting a new window when the old one is over. */
  async hit(key: string, windowS: number): Promise<BucketState> {
    const rows = await queryRows<{ attempts: number; reset_in_s: number }>(
      this.db,
      sql`
      insert into rate_limit_buckets as b (key, window_started_at, attempts)
      values (${key}, now(), 1)
      on conflict (key) do update set
        window_started_at = case when b.window_started_at <= now() - make_interval(secs => ${windowS}) then now() else b.window_started_at end,
        attempts = case when b.window_started_at <= now() - make_interval(secs => ${windowS}) then 1 else b.attempts + 1 end
      returning attempts,
        greatest(1, ceil(extract(epoch from (window_started_at + make_interval(secs => ${windowS}) - now()))))::int as reset_in_s`,
    );
    const row = rows[0];
    if (!row) throw new Error('rate limit upsert returned no row');
    return { attempts: Number(row.attempts), resetInS: Number(row.reset_in_s) };
  }

  /** The current window's count without adding to it (null when no window is open). */
  async peek(key: string, windowS: number): Promise<BucketState | null> {
    const rows = await queryRows<{ attempts: number; reset_in_s: number }>(
      this.db,
      sql`select attempts,
            greatest(1, ceil(extract(epoch from (window_started_at + make_interval(secs => ${windowS}) - now()))))::int as reset_in_s
          from rate_limit_buckets
          where key = ${key} and window_started_at > now() - make_interval(secs => ${windowS})`,
    );
    const row = rows[0];
    return row ? { attempts: Number(row.attempts), resetInS: Number(row.reset_in_s) } : null;
  }

  async clear(key: string): Promise<void> {
    await this.db.execute(sql`delete from rate_limit_buckets where key = ${key}`);
  }

  /** Removes buckets whose window ended long ago. */
  async purgeOlderThan(ageS: number): Promise<number> {
    const rows = await queryRows(
      this.db,
      sql`delete from rate_limit_buckets where window_started_at < now() - make_interval(secs => ${ageS}) returning 1`,
    );
    return rows.length;
  }
}
