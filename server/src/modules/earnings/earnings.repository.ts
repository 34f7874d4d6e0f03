import { sql, type SQL } from 'drizzle-orm';
import type { DividendStatus, IncomeType } from '@custos/contract';
import { queryRows, type Db, type Tx } from '../../db/client.js';
import { AirdropsRepository } from '../airdrops/airdrops.repository.js';

export interface AllocationRow {
  day: string;
  custody: string;
  amount: string;
  status: DividendStatus;
  claimed_at: Date | string | null;
}

export interface PoolRow {
  day: string;
  amount: string;
  distributed: string | null;
  members: number | null;
  claimed: string;
}

export interface IncomeRow {
  type: IncomeType;
  asset: string;
  amount: string;
  state: 'to_arrive' | 'arrived';
  source: string;
  day: string;
  /** Team earnings only: what the figure was computed from (raw e-mail, masked by the service). */
  team?: TeamIncomeRow | null;
}

export interface TeamIncomeRow {
  source_email: string | null;
  source_nickname: string | null;
  generation: number | null;
  level: number;
  base: string;
  rate_pct: string | null;
  shared_by: number | null;
}

/** The AI dividend and the income log: the only SQL of the earnings module. */
export class EarningsRepository {
  constructor(private readonly db: Db) {}

  // ── The dividend ───────────────────────────────────────────────────────────────────────────────

  async setPool(tx: Tx, day: string, amount: string, operatorId: string): Promise<void> {
    await tx.execute(
      sql`insert into dividend_pools (day, amount, set_by) values (${day}::date, ${amount}::numeric, ${operatorId}::uuid)
          on conflict (day) do update set amount = excluded.amount, set_by = excluded.set_by, updated_at = now()`,
    );
  }

  async removePool(tx: Tx, day: string): Promise<void> {
    await tx.execute(sql`delete from dividend_pools where day = ${day}::date`);
  }

  async pool(db: Db | Tx, day: string): Promise<{ amount: string } | null> {
    const rows = await queryRows<{ amount: string }>(
      db,
      sql`select amount::text as amount from dividend_pools where day = ${day}::date`,
    );
    return rows[0] ?? null;
  }

  /** Serialises sharing out and changing a day's pool (several instances may settle at once). */
  async lockPool(tx: Tx, day: string): Promise<void> {
    await queryRows(tx, sql`select day from dividend_pools where day = ${day}::date for update`);
  }

  async isDistributed(db: Db | Tx, day: string): Promise<boolean> {
    const rows = await queryRows<{ done: boolean }>(
      db,
      sql`select exists (select 1 from dividend_allocations where day = ${day}::date) as done`,
    );
    return rows[0]?.done ?? false;
  }

  pools(limit: number): Promise<PoolRow[]> {
    return queryRows<PoolRow>(
      this.db,
      sql`select p.day::text as day, p.amount::text as amount,
            (select sum(a.amount)::text from dividend_allocations a where a.day = p.day) as distributed,
            (select count(*)::int from dividend_allocations a where a.day = p.day) as members,
            (select coalesce(sum(a.amount), 0)::text from dividend_allocations a where a.day = p.day and a.status = 'claimed') as claimed
          from dividend_pools p order by p.day desc limit ${limit}`,
    );
  }

  /**
   * Shares the day's pool among the valid members given by `valid` (account_id, custody: the hosting
   * module's custody at the end of the day, at or above the threshold) pro rata to custody, each share
   * rounded down; set-based, once per day (the primary key). Returns how many shares.
   */
  async distribute(tx: Tx, day: string, valid: SQL): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`with pool as (select amount from dividend_pools where day = ${day}::date),
          valid as (${valid}),
          total as (select sum(custody) as custody from valid),
          shared as (
            insert into dividend_allocations (day, account_id, custody, amount)
            select ${day}::date, v.account_id, v.custody, trunc(pool.amount * v.custody / total.custody, 4)
            from valid v, pool, total
            where total.custody > 0 and trunc(pool.amount * v.custody / total.custody, 4) > 0
            on conflict do nothing
            returning 1
          )
          select count(*)::int as n from shared`,
    );
    return rows[0]?.n ?? 0;
  }

  /** Marks every claimable share of the account claimed under `entryId`; returns the total and count. */
  async claimAll(tx: Tx, accountId: string, entryId: string): Promise<{ total: string; days: number }> {
    const rows = await queryRows<{ total: string; days: number }>(
      tx,
      sql`with claimed as (
            update dividend_allocations set status = 'claimed', claimed_at = now(), claim_entry_id = ${entryId}::bigint
            where account_id = ${accountId}::uuid and status = 'claimable'
            returning amount
          )
          select coalesce(sum(amount), 0)::text as total, count(*)::int as days from claimed`,
    );
    return rows[0]!;
  }

  claimSource(entryId: string): SQL {
    return sql`select account_id as owner_account_id, amount from dividend_allocations where claim_entry_id = ${entryId}::bigint`;
  }

  async totals(accountId: string): Promise<{ claimable: string; claimed: string }> {
    const rows = await queryRows<{ claimable: string; claimed: string }>(
      this.db,
      sql`select coalesce(sum(amount) filter (where status = 'claimable'), 0)::text as claimable,
            coalesce(sum(amount) filter (where status = 'claimed'), 0)::text as claimed
          from dividend_allocations where account_id = ${accountId}::uuid`,
    );
    return rows[0]!;
  }

  async allocations(accountId: string, limit: number, offset: number): Promise<{ rows: AllocationRow[]; total: number }> {
    const rows = await queryRows<AllocationRow>(
      this.db,
      sql`select day::text as day, custody::text as custody, amount::text as amount, status, claimed_at
          from dividend_allocations where account_id = ${accountId}::uuid order by day desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from dividend_allocations where account_id = ${accountId}::uuid`,
    );
    return { rows, total: count?.total ?? 0 };
  }

  async lastPool(): Promise<{ day: string; amount: string; members: number } | null> {
    const rows = await queryRows<{ day: string; amount: string; members: number }>(
      this.db,
      sql`select p.day::text as day, p.amount::text as amount, (select count(*)::int from dividend_allocations a where a.day = p.day) as members
          from dividend_pools p where exists (select 1 from dividend_allocations a where a.day = p.day) order by p.day desc limit 1`,
    );
    return rows[0] ?? null;
  }

  // ── The income log ─────────────────────────────────────────────────────────────────────────────

  async income(
    accountId: string,
    type: IncomeType | undefined,
    limit: number,
    offset: number,
    team: SQL | null = null,
  ): Promise<{ rows: IncomeRow[]; total: number }> {
    const parts: SQL[] = [];
    if (!type || type === 'static') {
      parts.push(sql`select 'static'::text as type, 'USDT'::text as asset, a.amount, 'arrived'::text as state, o.plan_name as source, a.day
                     from hosting_accruals a join hosting_orders o on o.id = a.order_id where o.account_id = ${accountId}::uuid`);
    }
    if (!type || type === 'mining') {
      parts.push(sql`select 'mining'::text as type, 'RAB'::text as asset, x.amount, 'arrived'::text as state, m.name as source, x.day
                     from machine_outputs x join member_machines m on m.id = x.machine_id where m.account_id = ${accountId}::uuid`);
    }
    if (!type || type === 'dividend') {
      parts.push(sql`select 'dividend'::text as type, 'USDT'::text as asset, d.amount,
                       case when d.status = 'claimed' then 'arrived' else 'to_arrive' end as state, 'AI'::text as source, d.day
                     from dividend_allocations d where d.account_id = ${accountId}::uuid`);
    }
    if (!type || type === 'airdrop') parts.push(AirdropsRepository.incomeOf(accountId));
    // Team earnings (docs/decisions/024-team-earnings.md) come with what each was computed from.
    const all = [
      ...(parts.length > 0
        ? [
            sql`select type, asset, amount, state, source, day, null::jsonb as team, null::bigint as item_id
               from (${sql.join(parts, sql` union all `)}) own`,
          ]
        : []),
      ...(team ? [team] : []),
    ];
    if (all.length === 0) return { rows: [], total: 0 };
    const union = sql.join(all, sql` union all `);
    const rows = await queryRows<IncomeRow>(
      this.db,
      sql`select type, asset, amount::text as amount, state, source, day::text as day, team from (${union}) income
          order by day desc, type, source, item_id limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(this.db, sql`select count(*)::int as total from (${union}) income`);
    return { rows, total: count?.total ?? 0 };
  }
}
