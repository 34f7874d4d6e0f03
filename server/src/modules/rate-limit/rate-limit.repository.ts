import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';

export interface BucketState {
  attempts: number;
  /** Seconds until the window resets. */
  resetInS: number;
}

/** A counted attempt that may be handed back (when it turns out not to be a failure). */
export interface BucketClaim {
  key: string;
  /** As PostgreSQL printed it: a Date would lose the microseconds and never match again. */
  windowStartedAt: string;
  /** The window's count, this attempt included. */
  attempts: number;
}

export interface AccountGuardPolicy {
  /** Failures over all addresses in one window before further attempts are spaced out. */
  ceiling: number;
  windowS: number;
  /** The wait after the first failure past the ceiling; each further one doubles it. */
  firstDelayS: number;
  maxDelayS: number;
}

export type AccountGuardClaim =
  { claimed: true; failures: number; windowStartedAt: string } | { claimed: false; retryAfterS: number };

/** Seconds an attempt must wait after the last failure once `failures` have been counted. */
function delaySql(failures: unknown, policy: AccountGuardPolicy) {
  return sql`least(${policy.maxDelayS}::float8, ${policy.firstDelayS}::float8 * power(2::float8, greatest(${failures} - ${policy.ceiling}, 0)::float8))`;
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

  /**
   * Counts one attempt only while the window has room (fewer than `maxAttempts`), in one statement:
   * concurrent callers queue on the row, so no more than `maxAttempts` are ever let through. Null
   * when the window is full.
   */
  async claim(key: string, windowS: number, maxAttempts: number): Promise<BucketClaim | null> {
    const rows = await queryRows<{ window_started_at: string; attempts: number }>(
      this.db,
      sql`
      insert into rate_limit_buckets as b (key, window_started_at, attempts)
      values (${key}, now(), 1)
      on conflict (key) do update set
        window_started_at = case when b.window_started_at <= now() - make_interval(secs => ${windowS}) then now() else b.window_started_at end,
        attempts = case when b.window_started_at <= now() - make_interval(secs => ${windowS}) then 1 else b.attempts + 1 end
      where b.window_started_at <= now() - make_interval(secs => ${windowS}) or b.attempts < ${maxAttempts}
      returning window_started_at::text as window_started_at, attempts`,
    );
    const row = rows[0];
    return row ? { key, windowStartedAt: row.window_started_at, attempts: Number(row.attempts) } : null;
  }

  /** Hands a claimed attempt back, unless its window has since been replaced. */
  async release(claim: BucketClaim): Promise<void> {
    await this.db.execute(
      sql`update rate_limit_buckets set attempts = greatest(attempts - 1, 0)
          where key = ${claim.key} and window_started_at = ${claim.windowStartedAt}::timestamptz`,
    );
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

  /**
   * Counts a possible failure against an account over all addresses. Below the ceiling it is always
   * counted; past it, only when the growing delay since the last failure has passed (or `exempt`),
   * so parallel guesses wait their turn one by one. Refused claims are not counted.
   */
  async claimAccountAttempt(key: string, policy: AccountGuardPolicy, exempt: boolean): Promise<AccountGuardClaim> {
    const expired = sql`g.window_started_at <= now() - make_interval(secs => ${policy.windowS})`;
    const rows = await queryRows<{ failures: number; window_started_at: string }>(
      this.db,
      sql`
      insert into account_login_guards as g (key, window_started_at, failures, last_failure_at)
      values (${key}, now(), 1, now())
      on conflict (key) do update set
        window_started_at = case when ${expired} then now() else g.window_started_at end,
        failures = case when ${expired} then 1 else g.failures + 1 end,
        last_failure_at = now()
      where ${exempt} or ${expired} or g.failures < ${policy.ceiling}
        or g.last_failure_at <= now() - make_interval(secs => ${delaySql(sql`g.failures`, policy)})
      returning failures, window_started_at::text as window_started_at`,
    );
    const row = rows[0];
    if (row) return { claimed: true, failures: Number(row.failures), windowStartedAt: row.window_started_at };
    const waits = await queryRows<{ retry_after_s: number }>(
      this.db,
      sql`select greatest(1, ceil(extract(epoch from (last_failure_at + make_interval(secs => ${delaySql(sql`failures`, policy)}) - now()))))::int as retry_after_s
          from account_login_guards where key = ${key}`,
    );
    return { claimed: false, retryAfterS: Number(waits[0]?.retry_after_s ?? 1) };
  }

  /** Hands back an account attempt that was not a failure. */
  async releaseAccountAttempt(key: string, windowStartedAt: string): Promise<void> {
    await this.db.execute(
      sql`update account_login_guards set failures = greatest(failures - 1, 0)
          where key = ${key} and window_started_at = ${windowStartedAt}::timestamptz`,
    );
  }

  /** True once per window: the caller should tell the owner that the ceiling was crossed. */
  async markAccountNoticeDue(key: string, ceiling: number): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      sql`update account_login_guards set noticed_window_started_at = window_started_at
          where key = ${key} and failures >= ${ceiling}
            and noticed_window_started_at is distinct from window_started_at
          returning 1`,
    );
    return rows.length === 1;
  }

  async clearAccount(key: string): Promise<void> {
    await this.db.execute(sql`delete from account_login_guards where key = ${key}`);
  }

  /** Removes buckets whose window ended long ago. */
  async purgeOlderThan(ageS: number): Promise<number> {
    const rows = await queryRows(
      this.db,
      sql`delete from rate_limit_buckets where window_started_at < now() - make_interval(secs => ${ageS}) returning 1`,
    );
    const guards = await queryRows(
      this.db,
      sql`delete from account_login_guards where last_failure_at < now() - make_interval(secs => ${ageS})
            and window_started_at < now() - make_interval(secs => ${ageS}) returning 1`,
    );
    return rows.length + guards.length;
  }
}
