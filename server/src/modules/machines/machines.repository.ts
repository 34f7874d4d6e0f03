import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client.js';

export interface ProductRow {
  id: string;
  name: string;
  hashrate: string;
  price_usdt: string;
  price_tickets: string;
  daily_output_per_t: string;
  lifetime_days: number;
  status: 'active' | 'retired';
  running?: number;
}

export interface MachineRow {
  id: string;
  member_id: string;
  account_id: string;
  product_id: string;
  name: string;
  hashrate: string;
  daily_output: string;
  paid_asset: 'USDT' | 'TICKET';
  paid_amount: string;
  start_date: string;
  end_date: string;
  status: 'running' | 'expired';
  days_mined: number;
  output_total: string;
  request_hash: string;
  created_at: Date | string;
  member_email?: string;
}

const PRODUCT_COLUMNS = sql.raw(`p.id, p.name, p.hashrate::text as hashrate, p.price_usdt::text as price_usdt,
  p.price_tickets::text as price_tickets, p.daily_output_per_t::text as daily_output_per_t, p.lifetime_days, p.status`);
const MACHINE_COLUMNS = sql.raw(`m.id, m.member_id, m.account_id, m.product_id, m.name, m.hashrate::text as hashrate,
  m.daily_output::text as daily_output, m.paid_asset, m.paid_amount::text as paid_amount, m.start_date::text as start_date,
  m.end_date::text as end_date, m.status, m.days_mined, m.output_total::text as output_total, m.request_hash, m.created_at`);

/** Machine products, members' machines and their daily output: the only SQL of the machines module. */
export class MachinesRepository {
  constructor(private readonly db: Db) {}

  products(onlyActive: boolean): Promise<ProductRow[]> {
    return queryRows<ProductRow>(
      this.db,
      sql`select ${PRODUCT_COLUMNS},
            (select count(*)::int from member_machines m where m.product_id = p.id and m.status = 'running') as running
          from machine_products p ${onlyActive ? sql`where p.status = 'active'` : sql``}
          order by p.status, p.hashrate, p.created_at`,
    );
  }

  async product(db: Db | Tx, id: string): Promise<ProductRow | null> {
    const rows = await queryRows<ProductRow>(db, sql`select ${PRODUCT_COLUMNS} from machine_products p where p.id = ${id}::uuid`);
    return rows[0] ?? null;
  }

  async insertProduct(tx: Tx, product: Omit<ProductRow, 'id' | 'status' | 'running'>): Promise<ProductRow> {
    const rows = await queryRows<ProductRow>(
      tx,
      sql`insert into machine_products as p (name, hashrate, price_usdt, price_tickets, daily_output_per_t, lifetime_days)
          values (${product.name}, ${product.hashrate}::numeric, ${product.price_usdt}::numeric, ${product.price_tickets}::numeric,
            ${product.daily_output_per_t}::numeric, ${product.lifetime_days})
          returning ${PRODUCT_COLUMNS}`,
    );
    return rows[0]!;
  }

  async updateProduct(tx: Tx, id: string, product: Omit<ProductRow, 'id' | 'status' | 'running'>): Promise<void> {
    await tx.execute(
      sql`update machine_products set name = ${product.name}, hashrate = ${product.hashrate}::numeric,
            price_usdt = ${product.price_usdt}::numeric, price_tickets = ${product.price_tickets}::numeric,
            daily_output_per_t = ${product.daily_output_per_t}::numeric, lifetime_days = ${product.lifetime_days}, updated_at = now()
          where id = ${id}::uuid`,
    );
  }

  async setProductStatus(tx: Tx, id: string, status: 'active' | 'retired'): Promise<void> {
    await tx.execute(sql`update machine_products set status = ${status}, updated_at = now() where id = ${id}::uuid`);
  }

  async findByClientKey(db: Db | Tx, accountId: string, clientKey: string): Promise<MachineRow | null> {
    const rows = await queryRows<MachineRow>(
      db,
      sql`select ${MACHINE_COLUMNS} from member_machines m where m.account_id = ${accountId}::uuid and m.client_key = ${clientKey}`,
    );
    return rows[0] ?? null;
  }

  async insertMachine(
    tx: Tx,
    machine: {
      id: string;
      memberId: string;
      accountId: string;
      product: ProductRow;
      dailyOutput: string;
      paidAsset: 'USDT' | 'TICKET';
      paidAmount: string;
      startDate: string;
      clientKey: string;
      requestHash: string;
    },
  ): Promise<MachineRow> {
    const rows = await queryRows<MachineRow>(
      tx,
      sql`insert into member_machines as m (id, member_id, account_id, product_id, name, hashrate, daily_output, paid_asset,
            paid_amount, start_date, end_date, client_key, request_hash)
          values (${machine.id}::uuid, ${machine.memberId}::uuid, ${machine.accountId}::uuid, ${machine.product.id}::uuid,
            ${machine.product.name}, ${machine.product.hashrate}::numeric, ${machine.dailyOutput}::numeric, ${machine.paidAsset},
            ${machine.paidAmount}::numeric, ${machine.startDate}::date, ${machine.startDate}::date + ${machine.product.lifetime_days}::int,
            ${machine.clientKey}, ${machine.requestHash})
          returning ${MACHINE_COLUMNS}`,
    );
    return rows[0]!;
  }

  async listMachines(
    filter: { accountId?: string; status?: 'running' | 'expired'; query?: string },
    limit: number,
    offset: number,
  ): Promise<{ rows: MachineRow[]; total: number }> {
    const parts: SQL[] = [sql`true`];
    if (filter.accountId) parts.push(sql`m.account_id = ${filter.accountId}::uuid`);
    if (filter.status) parts.push(sql`m.status = ${filter.status}`);
    if (filter.query) parts.push(sql`mb.email = lower(${filter.query})`);
    const where = sql.join(parts, sql` and `);
    const rows = await queryRows<MachineRow>(
      this.db,
      sql`select ${MACHINE_COLUMNS}, mb.email as member_email from member_machines m join members mb on mb.id = m.member_id
          where ${where} order by m.created_at desc, m.seq desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from member_machines m join members mb on mb.id = m.member_id where ${where}`,
    );
    return { rows, total: count?.total ?? 0 };
  }

  async summary(
    accountId: string,
  ): Promise<{ total_hashrate: string; running: number; output_total: string; last_day_output: string }> {
    const rows = await queryRows<{ total_hashrate: string; running: number; output_total: string; last_day_output: string }>(
      this.db,
      sql`select coalesce(sum(hashrate) filter (where status = 'running'), 0)::text as total_hashrate,
            (count(*) filter (where status = 'running'))::int as running,
            coalesce(sum(output_total), 0)::text as output_total,
            coalesce((select sum(o.amount) from machine_outputs o join member_machines x on x.id = o.machine_id
              where x.account_id = ${accountId}::uuid
                and o.day = (select max(o2.day) from machine_outputs o2 join member_machines x2 on x2.id = o2.machine_id where x2.account_id = ${accountId}::uuid)), 0)::text as last_day_output
          from member_machines where account_id = ${accountId}::uuid`,
    );
    return rows[0]!;
  }

  async records(accountId: string, machineId: string | undefined, limit: number, offset: number) {
    const where = sql`m.account_id = ${accountId}::uuid${machineId ? sql` and m.id = ${machineId}::uuid` : sql``}`;
    const rows = await queryRows<{ machine_id: string; name: string; hashrate: string; day: string; amount: string }>(
      this.db,
      sql`select o.machine_id, m.name, m.hashrate::text as hashrate, o.day::text as day, o.amount::text as amount
          from machine_outputs o join member_machines m on m.id = o.machine_id
          where ${where} order by o.day desc, m.seq desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from machine_outputs o join member_machines m on m.id = o.machine_id where ${where}`,
    );
    return { rows, total: count?.total ?? 0 };
  }

  // ── The settlement ─────────────────────────────────────────────────────────────────────────────

  async maxSeq(): Promise<bigint> {
    const rows = await queryRows<{ seq: string | null }>(this.db, sql`select max(seq)::text as seq from member_machines`);
    return BigInt(rows[0]?.seq ?? '0');
  }

  async hasOutputDue(day: string, from: bigint, to: bigint): Promise<boolean> {
    const rows = await queryRows<{ due: boolean }>(this.db, sql`select exists (${dueOutput(day, from, to)}) as due`);
    return rows[0]?.due ?? false;
  }

  async recordOutput(tx: Tx, day: string, from: bigint, to: bigint, entryId: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`with due as (${dueOutput(day, from, to)}),
          produced as (
            insert into machine_outputs (machine_id, day, amount, entry_id)
            select id, ${day}::date, daily_output, ${entryId}::bigint from due
            on conflict do nothing
            returning machine_id, amount
          ),
          counted as (
            update member_machines m set days_mined = m.days_mined + 1, output_total = m.output_total + p.amount, updated_at = now()
            from produced p where m.id = p.machine_id
            returning 1
          )
          select count(*)::int as n from counted`,
    );
    return rows[0]?.n ?? 0;
  }

  outputSource(entryId: string): SQL {
    return sql`select m.account_id as owner_account_id, o.amount from machine_outputs o join member_machines m on m.id = o.machine_id
               where o.entry_id = ${entryId}::bigint`;
  }

  /** Machines whose last day has been mined stop (no money moves). */
  async expireEnded(day: string): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`update member_machines set status = 'expired', updated_at = now()
          where status = 'running' and end_date <= ${day}::date returning id`,
    );
    return rows.length;
  }
}

function dueOutput(day: string, from: bigint, to: bigint): SQL {
  return sql`select m.id, m.daily_output from member_machines m
             where m.status = 'running' and m.start_date < ${day}::date and m.end_date >= ${day}::date and m.daily_output > 0
               and m.seq >= ${from.toString()}::bigint and m.seq < ${to.toString()}::bigint
               and not exists (select 1 from machine_outputs o where o.machine_id = m.id and o.day = ${day}::date)`;
}
