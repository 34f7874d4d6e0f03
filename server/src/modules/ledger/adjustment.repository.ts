import { sql, type SQL } from 'drizzle-orm';
import type { Asset } from '@custos/contract';
import { queryRows, type Db, type Tx } from '../../db/client.js';

export interface AdjustmentRow {
  id: string;
  account_id: string;
  member_email: string;
  account_nickname: string;
  asset: Asset;
  direction: 'credit' | 'debit';
  amount: string;
  reason: string;
  status: 'proposed' | 'approved' | 'rejected';
  proposed_by: string;
  proposed_by_id: string;
  proposed_at: Date | string;
  decided_by: string | null;
  decided_at: Date | string | null;
  decision_note: string | null;
  entry_id: string | null;
}

const SELECT = sql.raw(`select j.id, j.account_id, m.email as member_email, a.nickname as account_nickname, j.asset, j.direction,
  j.amount::text as amount, j.reason, j.status, po.username as proposed_by, j.proposed_by as proposed_by_id, j.proposed_at,
  dop.username as decided_by, j.decided_at, j.decision_note, j.entry_id::text as entry_id
  from ledger_adjustments j
  join accounts a on a.id = j.account_id
  join members m on m.id = a.member_id
  join operators po on po.id = j.proposed_by
  left join operators dop on dop.id = j.decided_by`);

export class AdjustmentRepository {
  constructor(private readonly db: Db) {}

  async insert(
    tx: Tx,
    adjustment: {
      accountId: string;
      asset: Asset;
      direction: 'credit' | 'debit';
      amount: string;
      reason: string;
      proposedBy: string;
    },
  ): Promise<string> {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`insert into ledger_adjustments (account_id, asset, direction, amount, reason, proposed_by)
          values (${adjustment.accountId}::uuid, ${adjustment.asset}, ${adjustment.direction}, ${adjustment.amount}::numeric,
            ${adjustment.reason}, ${adjustment.proposedBy}::uuid)
          returning id`,
    );
    return rows[0]!.id;
  }

  async find(db: Db | Tx, id: string, options: { lock?: boolean } = {}): Promise<AdjustmentRow | null> {
    // FOR UPDATE cannot apply to the nullable side of an outer join: lock the adjustment row alone.
    if (options.lock) await db.execute(sql`select id from ledger_adjustments where id = ${id}::uuid for update`);
    const rows = await queryRows<AdjustmentRow>(db, sql`${SELECT} where j.id = ${id}::uuid`);
    return rows[0] ?? null;
  }

  async decide(
    tx: Tx,
    id: string,
    decision: { status: 'approved' | 'rejected'; decidedBy: string; note: string | null; entryId: string | null },
  ): Promise<void> {
    await tx.execute(
      sql`update ledger_adjustments set status = ${decision.status}, decided_by = ${decision.decidedBy}::uuid, decided_at = now(),
            decision_note = ${decision.note}, entry_id = ${decision.entryId}::bigint
          where id = ${id}::uuid and status = 'proposed'`,
    );
  }

  async list(
    filter: { status?: string | undefined },
    limit: number,
    offset: number,
  ): Promise<{ rows: AdjustmentRow[]; total: number }> {
    const where: SQL = filter.status ? sql`j.status = ${filter.status}` : sql`true`;
    const rows = await queryRows<AdjustmentRow>(
      this.db,
      sql`${SELECT} where ${where} order by j.proposed_at desc, j.id desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from ledger_adjustments j where ${where}`,
    );
    return { rows, total: count?.total ?? 0 };
  }
}
