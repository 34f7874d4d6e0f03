import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client.js';

/** The team earning types the settlement computes; `level_dividend` is shown as a dividend in the income log. */
export const TEAM_EARNING_TYPES = ['direct', 'indirect', 'community', 'management', 'promotion', 'level_dividend'] as const;
export type TeamEarningType = (typeof TEAM_EARNING_TYPES)[number];

export interface EarningRow {
  account_id: string;
  email: string;
  nickname: string;
  day: string;
  type: TeamEarningType;
  amount: string;
  status: 'to_arrive' | 'arrived';
  arrive_on: string;
  arrived_at: Date | string | null;
}

export interface ItemRow {
  account_id: string;
  day: string;
  type: TeamEarningType;
  source_account_id: string | null;
  generation: number | null;
  level: number;
  base: string;
  rate_pct: string | null;
  shared_by: number | null;
  amount: string;
}

export interface DayLevelRow {
  account_id: string;
  level: number;
  own_custody: string;
  valid_direct: number;
  team_performance: string;
}

export interface PromotionRow {
  account_id: string;
  email: string;
  nickname: string;
  level: number;
  day: string;
  bonus: string;
}

/** A person (team node) for an account: a sub-account is its main account's person (decision 020). */
// A declaration, not an arrow held in a constant: Stryker would mutate such a constant once, when the
// module loads (a static mutant its Vitest runner never switches on), instead of per call.
function personSeqOf(account: SQL): SQL {
  return sql`(select n.seq from accounts pa join team_nodes n on n.account_id = coalesce(pa.main_account_id, pa.id) where pa.id = ${account})`;
}

/**
 * The team earnings of a settled day (docs/decisions/024-team-earnings.md): every statement is one
 * set-based `INSERT … SELECT` over the day's figures; the only SQL of the team earnings.
 */
export class TeamEarningsRepository {
  constructor(private readonly db: Db) {}

  /** Claims the day's computation: false if it has been computed (by this run or another instance). */
  async claimDay(tx: Tx, day: string, versionId: string, delayDays: number): Promise<boolean> {
    const rows = await queryRows<{ day: string }>(
      tx,
      sql`insert into team_earning_days (day, version_id, arrival_delay_days, static_total)
          values (${day}::date, ${versionId}::uuid, ${delayDays},
                  (select coalesce(sum(amount), 0) from hosting_accruals where day = ${day}::date))
          on conflict (day) do nothing returning day::text as day`,
    );
    return rows.length > 0;
  }

  /**
   * Every member's level as `day` ended, set-based with that day's table `versionId`: custody at the end
   * of the day per person (`custody`: the hosting module's definition, per account), team performance
   * as the sum of the custody below (closure table), valid direct members (custody ≥ `validThreshold`),
   * and a leg requirement counted over direct members meeting the leg level's thresholds. Members
   * with no custody in their team are V0 and are not stored.
   */
  async insertDayLevels(tx: Tx, day: string, versionId: string, custody: SQL, validThreshold: string): Promise<void> {
    await tx.execute(
      sql`insert into team_day_levels (day, seq, account_id, level, own_custody, valid_direct, team_performance)
          with custody as (${custody}),
          person as (
            select n.seq, n.inviter_seq, sum(c.custody) as own from custody c join accounts a on a.id = c.account_id
              join team_nodes n on n.account_id = coalesce(a.main_account_id, a.id)
            group by n.seq, n.inviter_seq
          ),
          perf as (
            select cl.ancestor_seq as seq, sum(p.own) as perf from person p join team_closure cl on cl.descendant_seq = p.seq
            group by cl.ancestor_seq
          ),
          vdir as (
            select inviter_seq as seq, count(*)::int as n from person
            where own >= ${validThreshold}::numeric and inviter_seq is not null group by inviter_seq
          ),
          fig as (
            select n.seq, n.inviter_seq, n.account_id, coalesce(p.own, 0) as own, coalesce(v.n, 0) as dir,
                   coalesce(f.perf, 0) as perf
            from (select seq from person union select seq from perf) s join team_nodes n on n.seq = s.seq
              left join person p on p.seq = s.seq left join vdir v on v.seq = s.seq left join perf f on f.seq = s.seq
          ),
          rules as (
            select l.level, l.min_own_custody as own, l.min_valid_direct as dir, l.min_team_performance as perf,
                   case when g.level is null then 0 else l.min_legs end as legs,
                   coalesce(g.min_own_custody, 0) as leg_own, coalesce(g.min_valid_direct, 0) as leg_dir,
                   coalesce(g.min_team_performance, 0) as leg_perf
            from team_levels l left join team_levels g on g.version_id = l.version_id and g.level = l.legs_level and l.min_legs > 0
            where l.version_id = ${versionId}::uuid
          ),
          legs as (
            select c.inviter_seq as seq, r.level, count(*)::int as n
            from fig c join rules r on r.legs > 0 and c.own >= r.leg_own and c.dir >= r.leg_dir and c.perf >= r.leg_perf
            where c.inviter_seq is not null group by c.inviter_seq, r.level
          ),
          lv as (
            select f.seq, f.account_id, f.own, f.dir, f.perf, max(r.level) as level
            from fig f join rules r on f.own >= r.own and f.dir >= r.dir and f.perf >= r.perf
              left join legs g on g.seq = f.seq and g.level = r.level
            where r.legs = 0 or coalesce(g.n, 0) >= r.legs
            group by f.seq, f.account_id, f.own, f.dir, f.perf
          )
          select ${day}::date, seq, account_id, level, own, dir, perf from lv where level > 0`,
    );
  }

  /**
   * The day's items of direct, indirect, management and community earnings. Static income is the
   * day's custody interest per person (a sub-account's is its main account's). Each item is rounded
   * down to 4 places; items of zero are left out.
   */
  async insertItems(tx: Tx, day: string, versionId: string): Promise<void> {
    const common = sql`st as (
            select n.seq, n.account_id, sum(x.amount) as s from hosting_accruals x join hosting_orders o on o.id = x.order_id
              join accounts a on a.id = o.account_id join team_nodes n on n.account_id = coalesce(a.main_account_id, a.id)
            where x.day = ${day}::date group by n.seq, n.account_id
          ),
          rates as (
            select level, direct_rate_pct, indirect_rate_pct, indirect_generations, community_rate_pct, management_rate_pct
            from team_levels where version_id = ${versionId}::uuid
          ),
          lvl as (select seq, level from team_day_levels where day = ${day}::date)`;
    // One statement: the day's static income is read once for every type.
    await tx.execute(
      sql`insert into team_earning_items (account_id, day, type, source_account_id, generation, level, base, rate_pct, amount)
          with ${common},
          -- Management: walking up from each source, an ancestor takes its rate less the highest rate below
          -- it on the way (the source itself takes none); the same level as the highest below takes nothing.
          up as (
            select st.account_id as src, st.s, c.ancestor_seq, c.depth, r.level, r.management_rate_pct as rate,
                   max(r.management_rate_pct) over (partition by st.seq order by c.depth
                     rows between unbounded preceding and 1 preceding) as below
            from st join team_closure c on c.descendant_seq = st.seq
              left join lvl l on l.seq = c.ancestor_seq join rates r on r.level = coalesce(l.level, 0)
            where r.management_rate_pct > 0
          )
          -- Direct: the inviter's direct rate on each direct member's static income.
          select a.account_id, ${day}::date, 'direct', st.account_id, 1, r.level, st.s, r.direct_rate_pct,
                 trunc(st.s * r.direct_rate_pct / 100, 4)
          from st join team_nodes sn on sn.seq = st.seq join team_nodes a on a.seq = sn.inviter_seq
            left join lvl l on l.seq = a.seq join rates r on r.level = coalesce(l.level, 0)
          where trunc(st.s * r.direct_rate_pct / 100, 4) > 0
          union all
          -- Indirect: generations 2 … 1 + N (N indirect generations of the ancestor's level), its indirect rate.
          select an.account_id, ${day}::date, 'indirect', st.account_id, c.depth, r.level, st.s, r.indirect_rate_pct,
                 trunc(st.s * r.indirect_rate_pct / 100, 4)
          from st join team_closure c on c.descendant_seq = st.seq
              and c.depth between 2 and 1 + (select coalesce(max(indirect_generations), 0) from rates)
            join team_nodes an on an.seq = c.ancestor_seq
            left join lvl l on l.seq = c.ancestor_seq join rates r on r.level = coalesce(l.level, 0)
          where c.depth <= 1 + r.indirect_generations and trunc(st.s * r.indirect_rate_pct / 100, 4) > 0
          union all
          select an.account_id, ${day}::date, 'management', up.src, up.depth, up.level, up.s,
                 up.rate - coalesce(up.below, 0), trunc(up.s * (up.rate - coalesce(up.below, 0)) / 100, 4)
          from up join team_nodes an on an.seq = up.ancestor_seq
          where up.rate > coalesce(up.below, 0) and trunc(up.s * (up.rate - coalesce(up.below, 0)) / 100, 4) > 0
          union all
          -- Community performance: the level's rate on the custody newly opened below the member that day
          -- and still held as the day ended. The day's new performance counts every opening, so custody
          -- redeemed the same day is taken out again: it was never held at a day's end (decision 021), and
          -- counting it would pay the upline for money opened and taken back within the day (decision 055).
          select n.account_id, ${day}::date, 'community', null::uuid, null::int, r.level, d.opened - coalesce(g.gone, 0),
                 r.community_rate_pct, trunc((d.opened - coalesce(g.gone, 0)) * r.community_rate_pct / 100, 4)
          from team_performance_days d join team_nodes n on n.seq = d.account_seq
            left join (
              select c.ancestor_seq as seq, sum(o.amount) as gone
              from hosting_orders o join accounts a on a.id = o.account_id
                join team_nodes p on p.account_id = coalesce(a.main_account_id, a.id) join team_closure c on c.descendant_seq = p.seq
              where o.start_date = ${day}::date and o.redeemed_on = ${day}::date and o.renewed_from_id is null
              group by c.ancestor_seq
            ) g on g.seq = d.account_seq
            left join lvl l on l.seq = d.account_seq join rates r on r.level = coalesce(l.level, 0)
          where d.day = ${day}::date and trunc((d.opened - coalesce(g.gone, 0)) * r.community_rate_pct / 100, 4) > 0`,
    );
  }

  /**
   * Promotions: every level from V1 up to the member's level of the day not reached on an earlier day
   * is recorded once (the primary key), with that day's bonus; a bonus above zero is an item.
   */
  async insertPromotions(tx: Tx, day: string, versionId: string): Promise<void> {
    await tx.execute(
      sql`insert into team_promotions (account_id, level, day, bonus)
          select l.account_id, r.level, ${day}::date, r.promotion_bonus
          from team_day_levels l join team_levels r on r.version_id = ${versionId}::uuid and r.level between 1 and l.level
          where l.day = ${day}::date
            and not exists (select 1 from team_promotions p where p.account_id = l.account_id and p.level = r.level and p.day < ${day}::date)
          order by l.account_id, r.level
          on conflict (account_id, level) do nothing`,
    );
    await tx.execute(
      sql`insert into team_earning_items (account_id, day, type, source_account_id, generation, level, base, rate_pct, amount)
          select account_id, day, 'promotion', null, null, level, bonus, null, bonus
          from team_promotions where day = ${day}::date and bonus > 0`,
    );
  }

  /**
   * The level dividend: each level's pool is its dividend rate of the day's static income (of every
   * member), shared equally by the members at or above that level on the day, each share rounded down.
   */
  async insertLevelDividend(tx: Tx, day: string, versionId: string): Promise<void> {
    await tx.execute(
      sql`insert into team_earning_items (account_id, day, type, source_account_id, generation, level, base, rate_pct, shared_by, amount)
          with pool as (
            select r.level, r.dividend_rate_pct as rate,
                   trunc((select coalesce(sum(amount), 0) from hosting_accruals where day = ${day}::date) * r.dividend_rate_pct / 100, 4) as pool
            from team_levels r where r.version_id = ${versionId}::uuid and r.level >= 1 and r.dividend_rate_pct > 0
          ),
          shared as (
            select p.level, p.rate, p.pool, count(*)::int as n
            from pool p join team_day_levels l on l.day = ${day}::date and l.level >= p.level group by p.level, p.rate, p.pool
          )
          select l.account_id, ${day}::date, 'level_dividend', null::uuid, null::int, s.level, s.pool, s.rate, s.n,
                 trunc(s.pool / s.n, 4)
          from shared s join team_day_levels l on l.day = ${day}::date and l.level >= s.level
          where trunc(s.pool / s.n, 4) > 0`,
    );
  }

  /** One "to arrive" row per member and type: the sum of the day's items, arriving on `arriveOn`. */
  async insertEarnings(tx: Tx, day: string, arriveOn: string): Promise<void> {
    await tx.execute(
      sql`insert into team_earnings (account_id, day, type, seq, amount, arrive_on)
          select i.account_id, i.day, i.type, n.seq, sum(i.amount), ${arriveOn}::date
          from team_earning_items i join team_nodes n on n.account_id = i.account_id
          where i.day = ${day}::date group by i.account_id, i.day, i.type, n.seq
          order by n.seq, i.type
          on conflict do nothing`,
    );
  }

  /** Removes a day's computation inside a transaction the caller rolls back (the recompute check). */
  async removeDay(tx: Tx, day: string): Promise<void> {
    await tx.execute(sql`delete from team_earnings where day = ${day}::date`);
    await tx.execute(sql`delete from team_earning_items where day = ${day}::date`);
    await tx.execute(sql`delete from team_promotions where day = ${day}::date`);
    await tx.execute(sql`delete from team_day_levels where day = ${day}::date`);
    await tx.execute(sql`delete from team_earning_days where day = ${day}::date`);
  }

  async dayItems(db: Db | Tx, day: string): Promise<ItemRow[]> {
    return queryRows<ItemRow>(
      db,
      sql`select account_id, day::text as day, type, source_account_id, generation, level, base::text as base,
            rate_pct::text as rate_pct, shared_by, amount::text as amount
          from team_earning_items where day = ${day}::date
          order by account_id, type, source_account_id nulls first, generation nulls first, level`,
    );
  }

  async dayLevels(db: Db | Tx, day: string): Promise<DayLevelRow[]> {
    return queryRows<DayLevelRow>(
      db,
      sql`select account_id, level, own_custody::text as own_custody, valid_direct, team_performance::text as team_performance
          from team_day_levels where day = ${day}::date order by seq`,
    );
  }

  // ── Arrival ────────────────────────────────────────────────────────────────────────────────────

  /** The highest node `seq` with an earning due by `day` (the arrival's ranges). */
  async maxDueSeq(day: string): Promise<bigint> {
    const rows = await queryRows<{ max: string | null }>(
      this.db,
      sql`select max(seq)::text as max from team_earnings where status = 'to_arrive' and arrive_on <= ${day}::date`,
    );
    return BigInt(rows[0]?.max ?? '0');
  }

  /** The ledger source of the earnings due by `day` in a range of `seq`: one entry per member, day and type. */
  dueSource(day: string, from: bigint, to: bigint): SQL {
    return sql`select 'team-earning:' || e.account_id || ':' || e.day || ':' || e.type as idempotency_key,
                 e.account_id as owner_account_id, e.amount, e.day || ':' || e.type as reference_id
               from team_earnings e
               where e.status = 'to_arrive' and e.arrive_on <= ${day}::date
                 and e.seq >= ${from.toString()}::bigint and e.seq < ${to.toString()}::bigint`;
  }

  /** Marks the due earnings of a range arrived with the entry each was posted as. */
  async markArrived(tx: Tx, day: string, from: bigint, to: bigint): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`with arrived as (
            update team_earnings e set status = 'arrived', entry_id = j.id, arrived_at = now()
            from journal_entries j
            where j.idempotency_key = 'team-earning:' || e.account_id || ':' || e.day || ':' || e.type
              and e.status = 'to_arrive' and e.arrive_on <= ${day}::date
              and e.seq >= ${from.toString()}::bigint and e.seq < ${to.toString()}::bigint
            returning 1
          ) select count(*)::int as n from arrived`,
    );
    return rows[0]?.n ?? 0;
  }

  // ── Reading ────────────────────────────────────────────────────────────────────────────────────

  /** A member's totals per type: to arrive and arrived. */
  async summary(accountId: string): Promise<{ type: TeamEarningType; to_arrive: string; arrived: string }[]> {
    return queryRows(
      this.db,
      sql`select type, coalesce(sum(amount) filter (where status = 'to_arrive'), 0)::text as to_arrive,
            coalesce(sum(amount) filter (where status = 'arrived'), 0)::text as arrived
          from team_earnings where account_id = ${accountId}::uuid group by type order by type`,
    );
  }

  /**
   * The income log's rows of team earnings for the member (the earnings module's union): one per
   * item, in the state of its member/day/type earning, with what it was computed from. A level
   * dividend is listed as a dividend.
   */
  incomeRows(accountId: string, types: readonly TeamEarningType[]): SQL {
    const list = sql.join(
      types.map((type) => sql`${type}`),
      sql`, `,
    );
    return sql`select case when i.type = 'level_dividend' then 'dividend' else i.type end as type, 'USDT'::text as asset,
                 i.amount, e.status as state,
                 coalesce(sa.nickname, 'V' || i.level::text) as source, i.day,
                 jsonb_build_object('source_email', sm.email, 'source_nickname', sa.nickname, 'generation', i.generation,
                   'level', i.level, 'base', i.base::text, 'rate_pct', i.rate_pct::text, 'shared_by', i.shared_by) as team,
                 i.id as item_id
               from team_earning_items i
                 join team_earnings e on e.account_id = i.account_id and e.day = i.day and e.type = i.type
                 left join accounts sa on sa.id = i.source_account_id left join members sm on sm.id = sa.member_id
               where i.account_id = ${accountId}::uuid and i.type in (${list})`;
  }

  // ── Console ────────────────────────────────────────────────────────────────────────────────────

  async earnings(filter: {
    accountId?: string | undefined;
    email?: string | undefined;
    day?: string | undefined;
    type?: TeamEarningType | undefined;
    status?: 'to_arrive' | 'arrived' | undefined;
    limit: number;
    offset: number;
  }): Promise<{ rows: EarningRow[]; total: number }> {
    const where: SQL[] = [sql`true`];
    if (filter.accountId) where.push(sql`e.account_id = ${filter.accountId}::uuid`);
    if (filter.email) where.push(sql`m.email = ${filter.email.toLowerCase()}`);
    if (filter.day) where.push(sql`e.day = ${filter.day}::date`);
    if (filter.type) where.push(sql`e.type = ${filter.type}`);
    if (filter.status) where.push(sql`e.status = ${filter.status}`);
    const conditions = sql.join(where, sql` and `);
    const from = sql`from team_earnings e join accounts a on a.id = e.account_id join members m on m.id = a.member_id where ${conditions}`;
    const rows = await queryRows<EarningRow>(
      this.db,
      sql`select e.account_id, m.email, a.nickname, e.day::text as day, e.type, e.amount::text as amount, e.status,
            e.arrive_on::text as arrive_on, e.arrived_at
          ${from} order by e.day desc, e.seq, e.type limit ${filter.limit} offset ${filter.offset}`,
    );
    const [count] = await queryRows<{ total: number }>(this.db, sql`select count(*)::int as total ${from}`);
    return { rows, total: count?.total ?? 0 };
  }

  async promotions(limit: number, offset: number, email?: string): Promise<{ rows: PromotionRow[]; total: number }> {
    const where = email ? sql`where m.email = ${email.toLowerCase()}` : sql``;
    const from = sql`from team_promotions p join accounts a on a.id = p.account_id join members m on m.id = a.member_id ${where}`;
    const rows = await queryRows<PromotionRow>(
      this.db,
      sql`select p.account_id, m.email, a.nickname, p.level, p.day::text as day, p.bonus::text as bonus
          ${from} order by p.day desc, p.level desc, m.email limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(this.db, sql`select count(*)::int as total ${from}`);
    return { rows, total: count?.total ?? 0 };
  }

  /** The person (main account) of an account, for the member's own rows. */
  async personOf(accountId: string): Promise<string | null> {
    const rows = await queryRows<{ account_id: string }>(
      this.db,
      sql`select n.account_id from team_nodes n where n.seq = ${personSeqOf(sql`${accountId}::uuid`)}`,
    );
    return rows[0]?.account_id ?? null;
  }
}
