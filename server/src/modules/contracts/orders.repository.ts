import { sql, type SQL } from 'drizzle-orm';
import type { ContractCloseReason, ContractOrderState, ContractSide } from '@custos/contract';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';

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

export const ORDER_COLUMNS = sql`o.id::text as id, o.order_no, o.member_id::text as member_id, o.account_id::text as account_id,
  o.product_id::text as product_id, o.parent_id::text as parent_id, p.order_no as parent_order_no, mp.symbol,
  mp.display_name, o.side, o.state, o.lots::text as lots, o.leverage, o.contract_size::text as contract_size, o.digits,
  o.open_price::text as open_price, o.opened_at, o.open_tick_id::text as open_tick_id,
  o.targets_tick_id::text as targets_tick_id, o.margin::text as margin,
  o.spread_cost::text as spread_cost, o.take_profit::text as take_profit, o.stop_loss::text as stop_loss,
  o.swap::text as swap, o.swap_day::text as swap_day, o.close_price::text as close_price, o.closed_at, o.close_reason,
  o.pnl::text as pnl, o.close_note, o.request_hash, o.close_hash, m.email`;
/** What an order row (`o`) is joined to for `ORDER_COLUMNS`. */
export const ORDER_JOINS = sql`join market_products mp on mp.id = o.product_id
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

/** Contract orders' SQL (decision 034); the ledger's own tables are written by the ledger module only. */
export class ContractOrdersRepository {
  constructor(private readonly db: Db) {}

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
}
