import { sql } from 'drizzle-orm';
import type { Asset, ExchangeDirection } from '@custos/contract';
import { queryRows, type Db, type Tx } from '../../db/client.js';

export interface ExchangeOrderRow {
  id: string;
  request_hash: string;
  direction: ExchangeDirection;
  from_asset: Asset;
  to_asset: Asset;
  from_amount: string;
  to_amount: string;
  price: string;
  fee: string;
  fee_fuel: string;
  fee_usdt: string;
  created_at: Date | string;
}

const COLUMNS = sql.raw(`id, request_hash, direction, from_asset, to_asset, from_amount::text as from_amount,
  to_amount::text as to_amount, price::text as price, fee::text as fee, fee_fuel::text as fee_fuel,
  fee_usdt::text as fee_usdt, created_at`);

export class ExchangeRepository {
  constructor(private readonly db: Db) {}

  async findByClientKey(db: Db | Tx, accountId: string, clientKey: string): Promise<ExchangeOrderRow | null> {
    const rows = await queryRows<ExchangeOrderRow>(
      db,
      sql`select ${COLUMNS} from exchange_orders where account_id = ${accountId}::uuid and client_key = ${clientKey}`,
    );
    return rows[0] ?? null;
  }

  async insert(
    tx: Tx,
    order: {
      id: string;
      accountId: string;
      clientKey: string;
      requestHash: string;
      direction: ExchangeDirection;
      fromAsset: Asset;
      toAsset: Asset;
      fromAmount: string;
      toAmount: string;
      price: string;
      fee: string;
      feeFuel: string;
      feeUsdt: string;
      entryId: string;
    },
  ): Promise<ExchangeOrderRow> {
    const rows = await queryRows<ExchangeOrderRow>(
      tx,
      sql`insert into exchange_orders (id, account_id, client_key, request_hash, direction, from_asset, to_asset, from_amount,
            to_amount, price, fee, fee_fuel, fee_usdt, entry_id)
          values (${order.id}::uuid, ${order.accountId}::uuid, ${order.clientKey}, ${order.requestHash}, ${order.direction},
            ${order.fromAsset}, ${order.toAsset}, ${order.fromAmount}::numeric, ${order.toAmount}::numeric, ${order.price}::numeric,
            ${order.fee}::numeric, ${order.feeFuel}::numeric, ${order.feeUsdt}::numeric, ${order.entryId}::bigint)
          returning ${COLUMNS}`,
    );
    return rows[0]!;
  }

  async list(accountId: string, limit: number, offset: number): Promise<{ rows: ExchangeOrderRow[]; total: number }> {
    const rows = await queryRows<ExchangeOrderRow>(
      this.db,
      sql`select ${COLUMNS} from exchange_orders where account_id = ${accountId}::uuid
          order by created_at desc, id desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from exchange_orders where account_id = ${accountId}::uuid`,
    );
    return { rows, total: count?.total ?? 0 };
  }
}
