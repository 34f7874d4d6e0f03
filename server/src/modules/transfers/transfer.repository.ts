import { sql } from 'drizzle-orm';
import type { Asset } from '@custos/contract';
import { queryRows, type Db, type Tx } from '../../db/client.js';

export interface TransferRow {
  id: string;
  request_hash: string;
  from_account_id: string;
  from_nickname: string;
  to_account_id: string;
  to_nickname: string;
  asset: Asset;
  amount: string;
  created_at: Date | string;
}

const SELECT = sql.raw(`select t.id, t.request_hash, t.from_account_id, fa.nickname as from_nickname, t.to_account_id,
  ta.nickname as to_nickname, t.asset, t.amount::text as amount, t.created_at
  from account_transfers t join accounts fa on fa.id = t.from_account_id join accounts ta on ta.id = t.to_account_id`);

export class TransferRepository {
  constructor(private readonly db: Db) {}

  async findByClientKey(db: Db | Tx, fromAccountId: string, clientKey: string): Promise<TransferRow | null> {
    const rows = await queryRows<TransferRow>(
      db,
      sql`${SELECT} where t.from_account_id = ${fromAccountId}::uuid and t.client_key = ${clientKey}`,
    );
    return rows[0] ?? null;
  }

  async insert(
    tx: Tx,
    transfer: {
      id: string;
      memberId: string;
      fromAccountId: string;
      toAccountId: string;
      clientKey: string;
      requestHash: string;
      asset: Asset;
      amount: string;
      entryId: string;
    },
  ): Promise<Date | string> {
    const rows = await queryRows<{ created_at: Date | string }>(
      tx,
      sql`insert into account_transfers (id, member_id, from_account_id, to_account_id, client_key, request_hash, asset, amount, entry_id)
          values (${transfer.id}::uuid, ${transfer.memberId}::uuid, ${transfer.fromAccountId}::uuid, ${transfer.toAccountId}::uuid,
            ${transfer.clientKey}, ${transfer.requestHash}, ${transfer.asset}, ${transfer.amount}::numeric, ${transfer.entryId}::bigint)
          returning created_at`,
    );
    return rows[0]!.created_at;
  }

  /** Transfers into or out of an account, newest first. */
  async list(accountId: string, limit: number, offset: number): Promise<{ rows: TransferRow[]; total: number }> {
    const rows = await queryRows<TransferRow>(
      this.db,
      sql`${SELECT} where t.from_account_id = ${accountId}::uuid or t.to_account_id = ${accountId}::uuid
          order by t.created_at desc, t.id desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from account_transfers where from_account_id = ${accountId}::uuid or to_account_id = ${accountId}::uuid`,
    );
    return { rows, total: count?.total ?? 0 };
  }
}
