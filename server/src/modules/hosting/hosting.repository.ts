import { sql, type SQL } from 'drizzle-orm';
import type { HostingOrderStatus } from '@custos/contract';
import { queryRows, type Db, type Tx } from '../../db/client.js';

export interface PlanRow {
  id: string;
  name: string;
  period_days: number;
  daily_rate: string;
  min_amount: string;
  max_amount: string;
  early_penalty_rate: string;
  auto_renew_allowed: boolean;
  status: 'active' | 'retired';
  active_orders?: number;
}

export interface OrderRow {
  id: string;
  member_id: string;
  account_id: string;
  plan_id: string;
  plan_name: string;
  amount: string;
  period_days: number;
  daily_rate: string;
  early_penalty_rate: string;
  start_date: string;
  end_date: string;
  status: HostingOrderStatus;
  auto_renew: boolean;
  renewed_from_id: string | null;
  request_hash: string | null;
  days_accrued: number;
  interest_total: string;
  returned_amount: string | null;
  penalty: string | null;
  closed_at: Date | string | null;
  created_at: Date | string;
  member_email?: string;
}

export interface RunRow {
  day: string;
  status: 'running' | 'completed' | 'failed';
  started_at: Date | string;
  finished_at: Date | string | null;
  orders_accrued: number;
  interest_total: string;
  orders_expired: number;
  orders_renewed: number;
  machines_mined: number;
  output_total: string;
  dividend_shares: number;
  dividend_total: string;
  error: string | null;
  attempt: string | null;
}

const PLAN_COLUMNS = sql.raw(`p.id, p.name, p.period_days, p.daily_rate::text as daily_rate, p.min_amount::text as min_amount,
  p.max_amount::text as max_amount, p.early_penalty_rate::text as early_penalty_rate, p.auto_renew_allowed, p.status`);
const ORDER_COLUMNS = sql.raw(`o.id, o.member_id, o.account_id, o.plan_id, o.plan_name, o.amount::text as amount, o.period_days,
  o.daily_rate::text as daily_rate, o.early_penalty_rate::text as early_penalty_rate, o.start_date::text as start_date,
  o.end_date::text as end_date, o.status, o.auto_renew, o.renewed_from_id, o.request_hash, o.days_accrued,
  o.interest_total::text as interest_total, o.returned_amount::text as returned_amount, o.penalty::text as penalty,
  o.closed_at, o.created_at`);
const RUN_COLUMNS =
  sql.raw(`day::text as day, status, started_at, finished_at, orders_accrued, interest_total::text as interest_total,
  orders_expired, orders_renewed, machines_mined, output_total::text as output_total, dividend_shares,
  dividend_total::text as dividend_total, error, attempt::text as attempt`);

/** Plans, orders, accruals and settlement runs: the only SQL of the hosting module. */
export class HostingRepository {
  constructor(private readonly db: Db) {}

  // ── Plans ──────────────────────────────────────────────────────────────────────────────────────

  plans(onlyActive: boolean): Promise<PlanRow[]> {
    return queryRows<PlanRow>(
      this.db,
      sql`select ${PLAN_COLUMNS},
            (select count(*)::int from hosting_orders o where o.plan_id = p.id and o.status = 'active') as active_orders
          from hosting_plans p ${onlyActive ? sql`where p.status = 'active'` : sql``}
          order by p.status, p.period_days, p.created_at`,
    );
  }

  async plan(db: Db | Tx, id: string): Promise<PlanRow | null> {
    const rows = await queryRows<PlanRow>(db, sql`select ${PLAN_COLUMNS} from hosting_plans p where p.id = ${id}::uuid`);
    return rows[0] ?? null;
  }

  async insertPlan(tx: Tx, plan: Omit<PlanRow, 'id' | 'status' | 'active_orders'>): Promise<PlanRow> {
    const rows = await queryRows<PlanRow>(
      tx,
      sql`insert into hosting_plans as p (name, period_days, daily_rate, min_amount, max_amount, early_penalty_rate, auto_renew_allowed)
          values (${plan.name}, ${plan.period_days}, ${plan.daily_rate}::numeric, ${plan.min_amount}::numeric, ${plan.max_amount}::numeric,
            ${plan.early_penalty_rate}::numeric, ${plan.auto_renew_allowed})
          returning ${PLAN_COLUMNS}`,
    );
    return rows[0]!;
  }

  async updatePlan(tx: Tx, id: string, plan: Omit<PlanRow, 'id' | 'status' | 'active_orders'>): Promise<void> {
    await tx.execute(
      sql`update hosting_plans set name = ${plan.name}, period_days = ${plan.period_days}, daily_rate = ${plan.daily_rate}::numeric,
            min_amount = ${plan.min_amount}::numeric, max_amount = ${plan.max_amount}::numeric,
            early_penalty_rate = ${plan.early_penalty_rate}::numeric, auto_renew_allowed = ${plan.auto_renew_allowed}, updated_at = now()
          where id = ${id}::uuid`,
    );
  }

  async setPlanStatus(tx: Tx, id: string, status: 'active' | 'retired'): Promise<void> {
    await tx.execute(sql`update hosting_plans set status = ${status}, updated_at = now() where id = ${id}::uuid`);
  }

  // ── Orders ─────────────────────────────────────────────────────────────────────────────────────

  async findByClientKey(db: Db | Tx, accountId: string, clientKey: string): Promise<OrderRow | null> {
    const rows = await queryRows<OrderRow>(
      db,
      sql`select ${ORDER_COLUMNS} from hosting_orders o where o.account_id = ${accountId}::uuid and o.client_key = ${clientKey}`,
    );
    return rows[0] ?? null;
  }

  async insertOrder(
    tx: Tx,
    order: {
      id: string;
      memberId: string;
      accountId: string;
      plan: PlanRow;
      amount: string;
      startDate: string;
      autoRenew: boolean;
      clientKey: string;
      requestHash: string;
    },
  ): Promise<OrderRow> {
    const rows = await queryRows<OrderRow>(
      tx,
      sql`insert into hosting_orders as o (id, member_id, account_id, plan_id, plan_name, amount, period_days, daily_rate,
            early_penalty_rate, start_date, end_date, auto_renew, client_key, request_hash)
          values (${order.id}::uuid, ${order.memberId}::uuid, ${order.accountId}::uuid, ${order.plan.id}::uuid, ${order.plan.name},
            ${order.amount}::numeric, ${order.plan.period_days}, ${order.plan.daily_rate}::numeric, ${order.plan.early_penalty_rate}::numeric,
            ${order.startDate}::date, ${order.startDate}::date + ${order.plan.period_days}::int, ${order.autoRenew},
            ${order.clientKey}, ${order.requestHash})
          returning ${ORDER_COLUMNS}`,
    );
    return rows[0]!;
  }

  async find(db: Db | Tx, id: string): Promise<OrderRow | null> {
    const rows = await queryRows<OrderRow>(db, sql`select ${ORDER_COLUMNS} from hosting_orders o where o.id = ${id}::uuid`);
    return rows[0] ?? null;
  }

  async lock(tx: Tx, id: string): Promise<OrderRow | null> {
    const rows = await queryRows<OrderRow>(
      tx,
      sql`select ${ORDER_COLUMNS} from hosting_orders o where o.id = ${id}::uuid for update`,
    );
    return rows[0] ?? null;
  }

  /** `day` is the platform day of the redemption: the settlement of every day before it still counts the order. */
  async closeRedeemed(tx: Tx, id: string, returned: string, penalty: string, day: string): Promise<void> {
    await tx.execute(
      sql`update hosting_orders set status = 'redeemed', returned_amount = ${returned}::numeric, penalty = ${penalty}::numeric,
            redeemed_on = ${day}::date, closed_at = now(), updated_at = now() where id = ${id}::uuid`,
    );
  }

  async setAutoRenew(tx: Tx, id: string, autoRenew: boolean): Promise<void> {
    await tx.execute(sql`update hosting_orders set auto_renew = ${autoRenew}, updated_at = now() where id = ${id}::uuid`);
  }

  async addEvent(db: Db | Tx, orderId: string, event: string, amount: string | null, day: string | null): Promise<void> {
    await db.execute(
      sql`insert into hosting_order_events (order_id, event, amount, day) values (${orderId}::uuid, ${event}, ${amount}::numeric, ${day}::date)`,
    );
  }

  async listOrders(
    filter: { accountId?: string; status?: HostingOrderStatus; query?: string },
    limit: number,
    offset: number,
  ): Promise<{ rows: OrderRow[]; total: number }> {
    const parts: SQL[] = [sql`true`];
    if (filter.accountId) parts.push(sql`o.account_id = ${filter.accountId}::uuid`);
    if (filter.status) parts.push(sql`o.status = ${filter.status}`);
    if (filter.query) parts.push(sql`m.email = lower(${filter.query})`);
    const where = sql.join(parts, sql` and `);
    const rows = await queryRows<OrderRow>(
      this.db,
      sql`select ${ORDER_COLUMNS}, m.email as member_email from hosting_orders o join members m on m.id = o.member_id
          where ${where} order by o.created_at desc, o.seq desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from hosting_orders o join members m on m.id = o.member_id where ${where}`,
    );
    return { rows, total: count?.total ?? 0 };
  }

  /** The order's history: its events and each day of interest, newest first. */
  async log(orderId: string, limit: number, offset: number) {
    const rows = await queryRows<{ event: string; amount: string | null; day: string | null; at: Date | string }>(
      this.db,
      sql`select event, amount::text as amount, day::text as day, at from (
            select event, amount, day, at, id as tie from hosting_order_events where order_id = ${orderId}::uuid
            union all
            select 'accrued', a.amount, a.day, e.created_at, 0 from hosting_accruals a join journal_entries e on e.id = a.entry_id
            where a.order_id = ${orderId}::uuid
          ) log order by at desc, day desc nulls last, tie desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select (select count(*) from hosting_order_events where order_id = ${orderId}::uuid)::int
            + (select count(*) from hosting_accruals where order_id = ${orderId}::uuid)::int as total`,
    );
    return { rows, total: count?.total ?? 0 };
  }

  // ── The settlement ─────────────────────────────────────────────────────────────────────────────

  async maxSeq(): Promise<bigint> {
    const rows = await queryRows<{ seq: string | null }>(this.db, sql`select max(seq)::text as seq from hosting_orders`);
    return BigInt(rows[0]?.seq ?? '0');
  }

  /** Orders in `seq` [from, to) owed interest for `day` that have not had it yet. */
  async hasInterestDue(day: string, from: bigint, to: bigint): Promise<boolean> {
    const rows = await queryRows<{ due: boolean }>(this.db, sql`select exists (${dueInterest(day, from, to)}) as due`);
    return rows[0]?.due ?? false;
  }

  /** Records one day of interest for every due order in the range under `entryId`; returns how many. */
  async accrue(tx: Tx, day: string, from: bigint, to: bigint, entryId: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`with due as (${dueInterest(day, from, to)}),
          accrued as (
            insert into hosting_accruals (order_id, day, amount, entry_id)
            select id, ${day}::date, interest, ${entryId}::bigint from due where interest > 0
            on conflict do nothing
            returning order_id, amount
          ),
          counted as (
            update hosting_orders o set days_accrued = o.days_accrued + 1, interest_total = o.interest_total + a.amount, updated_at = now()
            from accrued a where o.id = a.order_id
            returning 1
          )
          select count(*)::int as n from counted`,
    );
    return rows[0]?.n ?? 0;
  }

  /** What an accrual entry pays each member account (the ledger posts from it). */
  accrualSource(entryId: string): SQL {
    return sql`select o.account_id as owner_account_id, a.amount from hosting_accruals a join hosting_orders o on o.id = a.order_id
               where a.entry_id = ${entryId}::bigint`;
  }

  /**
   * Each account's custody at the end of platform day `day` (account_id, custody), from the orders'
   * own dates, whatever happened since (decision 021): an order is held from its start day until its
   * end day, when its principal comes back or its renewal (starting that day) takes over, so a renewal
   * counts once; an order redeemed early is held until the day of its redemption. Only accounts holding
   * at least `threshold`.
   */
  custodyAtDayEnd(day: string, threshold: string): SQL {
    return sql`select o.account_id, sum(o.amount) as custody from hosting_orders o
               where o.start_date <= ${day}::date and o.end_date > ${day}::date
                 and (o.redeemed_on is null or o.redeemed_on > ${day}::date)
               group by o.account_id having sum(o.amount) >= ${threshold}::numeric`;
  }

  /** Active orders in the range ending on or before `day`. */
  async hasEnding(day: string, from: bigint, to: bigint): Promise<boolean> {
    const rows = await queryRows<{ due: boolean }>(
      this.db,
      sql`select exists (select 1 from hosting_orders where status = 'active' and end_date <= ${day}::date
            and seq >= ${from.toString()}::bigint and seq < ${to.toString()}::bigint) as due`,
    );
    return rows[0]?.due ?? false;
  }

  /**
   * Renews the ending orders that asked for it (plan still active and allowing it): each becomes
   * expired and a new order with the plan's current terms starts on `day`, keeping the principal in
   * custody. Returns how many renewed.
   */
  async renewEnding(tx: Tx, day: string, from: bigint, to: bigint): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`with ending as (
            select o.* from hosting_orders o join hosting_plans p on p.id = o.plan_id
            where o.status = 'active' and o.end_date <= ${day}::date and o.auto_renew
              and p.status = 'active' and p.auto_renew_allowed
              and o.seq >= ${from.toString()}::bigint and o.seq < ${to.toString()}::bigint
            for update of o
          ),
          closed as (
            update hosting_orders o set status = 'expired', closed_at = now(), updated_at = now()
            from ending e where o.id = e.id returning o.id
          ),
          renewed as (
            insert into hosting_orders (id, member_id, account_id, plan_id, plan_name, amount, period_days, daily_rate,
              early_penalty_rate, start_date, end_date, auto_renew, renewed_from_id)
            select gen_random_uuid(), e.member_id, e.account_id, e.plan_id, p.name, e.amount, p.period_days, p.daily_rate,
              p.early_penalty_rate, ${day}::date, ${day}::date + p.period_days, true, e.id
            from ending e join hosting_plans p on p.id = e.plan_id
            returning id, renewed_from_id, amount
          ),
          logged as (
            insert into hosting_order_events (order_id, event, amount, day)
            select renewed_from_id, 'renewed', amount, ${day}::date from renewed
            union all select id, 'created', amount, ${day}::date from renewed
            returning 1
          )
          select (select count(*) from renewed)::int as n, (select count(*) from closed)::int as closed, (select count(*) from logged)::int as logged`,
    );
    return rows[0]?.n ?? 0;
  }

  /** Expires the remaining ending orders (their principal goes back under `entryId`); returns how many. */
  async expireEnding(tx: Tx, day: string, from: bigint, to: bigint, entryId: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`with ending as (
            select id, amount from hosting_orders
            where status = 'active' and end_date <= ${day}::date
              and seq >= ${from.toString()}::bigint and seq < ${to.toString()}::bigint
            for update
          ),
          closed as (
            update hosting_orders o set status = 'expired', returned_amount = e.amount, penalty = 0, closed_at = now(), updated_at = now()
            from ending e where o.id = e.id returning o.id, o.amount
          ),
          logged as (
            insert into hosting_order_events (order_id, event, amount, day)
            select id, 'expired', amount, ${day}::date from closed returning order_id
          ),
          marked as (
            insert into hosting_expiries (order_id, entry_id) select order_id, ${entryId}::bigint from logged returning 1
          )
          select count(*)::int as n from marked`,
    );
    return rows[0]?.n ?? 0;
  }

  /** What an expiry entry returns to each member account. */
  expirySource(entryId: string): SQL {
    return sql`select o.account_id as owner_account_id, o.amount from hosting_expiries x join hosting_orders o on o.id = x.order_id
               where x.entry_id = ${entryId}::bigint`;
  }

  // ── Runs ───────────────────────────────────────────────────────────────────────────────────────

  /**
   * Serialises, per day, starting its settlement with changes that the settlement must see from its
   * start (a dividend pool): held to the end of the transaction. The two-key form keeps these keys
   * apart from the single-key advisory locks used elsewhere.
   */
  async lockDay(tx: Tx, day: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('settlement-day'), (${day}::date - date '2000-01-01'))`);
  }

  /** The day's run status, or null when it has never been started. */
  async runStatus(db: Db | Tx, day: string): Promise<RunRow['status'] | null> {
    const rows = await queryRows<{ status: RunRow['status'] }>(
      db,
      sql`select status from settlement_runs where day = ${day}::date`,
    );
    return rows[0]?.status ?? null;
  }

  /**
   * Starts (or restarts) the day's run under a new attempt id; null when it has completed already.
   * Taken under the day's lock, so a pool being set for the day is either committed before the run
   * starts (and shared) or sees the run and is refused.
   */
  startRun(day: string, operatorId: string | null): Promise<RunRow | null> {
    return this.db.transaction(async (tx) => {
      await this.lockDay(tx, day);
      const rows = await queryRows<RunRow>(
        tx,
        sql`insert into settlement_runs (day, status, rerun_by, attempt) values (${day}::date, 'running', ${operatorId}::uuid, gen_random_uuid())
            on conflict (day) do update set status = 'running', error = null, started_at = now(), finished_at = null,
              rerun_by = coalesce(excluded.rerun_by, settlement_runs.rerun_by), attempt = excluded.attempt
            where settlement_runs.status <> 'completed'
            returning ${RUN_COLUMNS}`,
      );
      return rows[0] ?? null;
    });
  }

  /**
   * Completes the day. Unguarded on purpose: an instance that ran every step to its end has seen every
   * range of the day committed (by itself or another), so the day is done whichever attempt is current.
   */
  async finishRun(day: string): Promise<RunRow> {
    const rows = await queryRows<RunRow>(
      this.db,
      sql`update settlement_runs set status = 'completed', finished_at = now(), error = null,
            orders_accrued = (select count(*) from hosting_accruals where day = ${day}::date),
            interest_total = (select coalesce(sum(amount), 0) from hosting_accruals where day = ${day}::date),
            orders_expired = (select count(*) from hosting_order_events where day = ${day}::date and event = 'expired'),
            orders_renewed = (select count(*) from hosting_order_events where day = ${day}::date and event = 'renewed'),
            machines_mined = (select count(*) from machine_outputs where day = ${day}::date),
            output_total = (select coalesce(sum(amount), 0) from machine_outputs where day = ${day}::date),
            dividend_shares = (select count(*) from dividend_allocations where day = ${day}::date),
            dividend_total = (select coalesce(sum(amount), 0) from dividend_allocations where day = ${day}::date)
          where day = ${day}::date
          returning ${RUN_COLUMNS}`,
    );
    return rows[0]!;
  }

  /**
   * Marks the day failed, but only while this attempt is still the running one: a day another
   * instance completed stays completed, and a superseded attempt leaves the current one alone.
   * Returns whether it did.
   */
  async failRun(day: string, attempt: string, error: string): Promise<boolean> {
    const rows = await queryRows<{ day: string }>(
      this.db,
      sql`update settlement_runs set status = 'failed', finished_at = now(), error = ${error.slice(0, 500)}
          where day = ${day}::date and status = 'running' and attempt = ${attempt}::uuid
          returning day::text as day`,
    );
    return rows.length > 0;
  }

  runs(limit: number): Promise<RunRow[]> {
    return queryRows<RunRow>(this.db, sql`select ${RUN_COLUMNS} from settlement_runs order by day desc limit ${limit}`);
  }

  /**
   * The first platform day the settlement covers (docs/decisions/017-settlement-days-in-order.md): the
   * earliest day ever run or on which an order or machine started; before anything has been run,
   * also the earliest dividend pool. Null when there is nothing at all (the caller starts yesterday).
   */
  async firstDay(db: Db | Tx = this.db): Promise<string | null> {
    const rows = await queryRows<{ day: string | null }>(
      db,
      sql`select (case when exists (select 1 from settlement_runs)
                    then least((select min(day) from settlement_runs), (select min(start_date) from hosting_orders),
                      (select min(start_date) from member_machines))
                    else least((select min(start_date) from hosting_orders), (select min(start_date) from member_machines),
                      (select min(day) from dividend_pools))
                  end)::text as day`,
    );
    return rows[0]?.day ?? null;
  }

  /** The first day on or after `first` that has not completed: the only day that may run next. */
  async nextDay(first: string): Promise<string> {
    const rows = await queryRows<{ day: string }>(
      this.db,
      sql`select (case when not exists (select 1 from settlement_runs where day = ${first}::date and status = 'completed')
                    then ${first}::date
                    else (select min(r.day + 1) from settlement_runs r
                          where r.status = 'completed' and r.day >= ${first}::date
                            and not exists (select 1 from settlement_runs n where n.day = r.day + 1 and n.status = 'completed'))
                  end)::text as day`,
    );
    return rows[0]!.day;
  }
}

/**
 * Orders in the range that earn interest for `day` and have not had it: held through the whole day
 * (after their start day, up to their end day, and not redeemed on or before it). Judged by the
 * orders' dates, not their status, so a redemption after midnight but before the run, or before a
 * failed day's re-run, does not take away a day already earned (decision 021).
 */
function dueInterest(day: string, from: bigint, to: bigint): SQL {
  return sql`select o.id, trunc(o.amount * o.daily_rate, 4) as interest from hosting_orders o
             where o.start_date < ${day}::date and o.end_date >= ${day}::date
               and (o.redeemed_on is null or o.redeemed_on > ${day}::date)
               and o.seq >= ${from.toString()}::bigint and o.seq < ${to.toString()}::bigint
               and not exists (select 1 from hosting_accruals a where a.order_id = o.id and a.day = ${day}::date)
               and trunc(o.amount * o.daily_rate, 4) > 0`;
}
