import { sql, type SQL } from 'drizzle-orm';
import type { Network, WithdrawMethodType, WithdrawalStatus } from '@custos/contract';
import { queryRows, type Db, type Tx } from '../../db/client.js';

export interface MethodRow {
  id: string;
  member_id: string;
  type: WithdrawMethodType;
  network: Network | null;
  address: string | null;
  bank_name: string | null;
  card_number: string | null;
  holder_name: string | null;
  branch: string | null;
  account: string | null;
  created_at: Date | string;
}

export interface WithdrawalRow {
  id: string;
  member_id: string;
  account_id: string;
  method_id: string;
  method_type: WithdrawMethodType;
  network: Network | null;
  destination: string;
  amount: string;
  fee: string;
  received: string;
  status: WithdrawalStatus;
  request_hash: string;
  reason: string | null;
  tx_hash: string | null;
  payout_reference: string | null;
  payout_raw_tx: string | null;
  payout_nonce: string | null;
  payout_error: string | null;
  payout_attempts: number;
  decided_by: string | null;
  decided_at: Date | string | null;
  completed_at: Date | string | null;
  created_at: Date | string;
}

export interface AdminWithdrawalRow extends WithdrawalRow {
  member_email: string;
  member_created_at: Date | string;
  kyc_status: string;
  previous_paid_count: number;
  previous_paid_total: string;
  address_shared: boolean;
  recent_deposit: boolean;
  decided_by_name: string | null;
}

const METHOD_COLUMNS = sql.raw(
  'id, member_id, type, network, address, bank_name, card_number, holder_name, branch, account, created_at',
);
const WITHDRAWAL_COLUMNS = sql.raw(`w.id, w.member_id, w.account_id, w.method_id, w.method_type, w.network, w.destination,
  w.amount::text as amount, w.fee::text as fee, w.received::text as received, w.status, w.request_hash, w.reason, w.tx_hash,
  w.payout_reference, w.payout_raw_tx, w.payout_nonce::text as payout_nonce, w.payout_error, w.payout_attempts,
  w.decided_by, w.decided_at, w.completed_at, w.created_at`);

/** Withdrawal methods, withdrawals and holidays: the only SQL of the withdraw module. */
export class WithdrawRepository {
  constructor(private readonly db: Db) {}

  // ── Methods ────────────────────────────────────────────────────────────────────────────────────

  listMethods(memberId: string): Promise<MethodRow[]> {
    return queryRows<MethodRow>(
      this.db,
      sql`select ${METHOD_COLUMNS} from withdraw_methods where member_id = ${memberId}::uuid and deleted_at is null order by created_at`,
    );
  }

  async findMethod(db: Db | Tx, memberId: string, methodId: string): Promise<MethodRow | null> {
    const rows = await queryRows<MethodRow>(
      db,
      sql`select ${METHOD_COLUMNS} from withdraw_methods
          where id = ${methodId}::uuid and member_id = ${memberId}::uuid and deleted_at is null`,
    );
    return rows[0] ?? null;
  }

  /** Null when the member already has an active method with the same identity. */
  async insertMethod(method: Omit<MethodRow, 'id' | 'created_at'> & { identity: string }): Promise<MethodRow | null> {
    const rows = await queryRows<MethodRow>(
      this.db,
      sql`insert into withdraw_methods (member_id, type, network, address, bank_name, card_number, holder_name, branch, account, identity)
          values (${method.member_id}::uuid, ${method.type}, ${method.network}, ${method.address}, ${method.bank_name},
            ${method.card_number}, ${method.holder_name}, ${method.branch}, ${method.account}, ${method.identity})
          on conflict (member_id, identity) where deleted_at is null do nothing
          returning ${METHOD_COLUMNS}`,
    );
    return rows[0] ?? null;
  }

  async deleteMethod(memberId: string, methodId: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`update withdraw_methods set deleted_at = now()
          where id = ${methodId}::uuid and member_id = ${memberId}::uuid and deleted_at is null returning id`,
    );
    return rows.length > 0;
  }

  async hasOpenWithdrawal(methodId: string): Promise<boolean> {
    const rows = await queryRows<{ n: number }>(
      this.db,
      sql`select count(*)::int as n from withdrawals where method_id = ${methodId}::uuid and status in ('pending', 'processing', 'failed')`,
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  // ── Withdrawals ────────────────────────────────────────────────────────────────────────────────

  async findByClientKey(db: Db | Tx, accountId: string, clientKey: string): Promise<WithdrawalRow | null> {
    const rows = await queryRows<WithdrawalRow>(
      db,
      sql`select ${WITHDRAWAL_COLUMNS} from withdrawals w where w.account_id = ${accountId}::uuid and w.client_key = ${clientKey}`,
    );
    return rows[0] ?? null;
  }

  /** What the account has requested on a platform day, counting everything not refunded. */
  async usedOnDay(db: Db | Tx, accountId: string, platformDay: string): Promise<string> {
    const rows = await queryRows<{ used: string }>(
      db,
      sql`select coalesce(sum(amount), 0)::text as used from withdrawals
          where account_id = ${accountId}::uuid and platform_day = ${platformDay}::date and status <> 'refunded'`,
    );
    return rows[0]?.used ?? '0';
  }

  async insert(
    tx: Tx,
    row: {
      id: string;
      memberId: string;
      accountId: string;
      method: MethodRow;
      destination: string;
      amount: string;
      fee: string;
      received: string;
      clientKey: string;
      requestHash: string;
      platformDay: string;
    },
  ): Promise<WithdrawalRow> {
    const rows = await queryRows<WithdrawalRow>(
      tx,
      sql`insert into withdrawals as w (id, member_id, account_id, method_id, method_type, network, destination, amount, fee, received,
            status, client_key, request_hash, platform_day)
          values (${row.id}::uuid, ${row.memberId}::uuid, ${row.accountId}::uuid, ${row.method.id}::uuid, ${row.method.type},
            ${row.method.network}, ${row.destination}, ${row.amount}::numeric, ${row.fee}::numeric, ${row.received}::numeric,
            'pending', ${row.clientKey}, ${row.requestHash}, ${row.platformDay}::date)
          returning ${WITHDRAWAL_COLUMNS}`,
    );
    return rows[0]!;
  }

  async find(db: Db | Tx, id: string): Promise<WithdrawalRow | null> {
    const rows = await queryRows<WithdrawalRow>(
      db,
      sql`select ${WITHDRAWAL_COLUMNS} from withdrawals w where w.id = ${id}::uuid`,
    );
    return rows[0] ?? null;
  }

  async lock(tx: Tx, id: string): Promise<WithdrawalRow | null> {
    const rows = await queryRows<WithdrawalRow>(
      tx,
      sql`select ${WITHDRAWAL_COLUMNS} from withdrawals w where w.id = ${id}::uuid for update`,
    );
    return rows[0] ?? null;
  }

  async update(
    db: Db | Tx,
    id: string,
    fields: Partial<{
      status: WithdrawalStatus;
      reason: string | null;
      txHash: string | null;
      payoutReference: string | null;
      payoutRawTx: string | null;
      payoutNonce: bigint | null;
      payoutError: string | null;
      payoutAttempt: true;
      decidedBy: string;
      decided: true;
      completed: true;
    }>,
  ): Promise<void> {
    const sets: SQL[] = [sql`updated_at = now()`];
    if (fields.status !== undefined) sets.push(sql`status = ${fields.status}`);
    if (fields.reason !== undefined) sets.push(sql`reason = ${fields.reason}`);
    if (fields.txHash !== undefined) sets.push(sql`tx_hash = ${fields.txHash}`);
    if (fields.payoutReference !== undefined) sets.push(sql`payout_reference = ${fields.payoutReference}`);
    if (fields.payoutRawTx !== undefined) sets.push(sql`payout_raw_tx = ${fields.payoutRawTx}`);
    if (fields.payoutNonce !== undefined)
      sets.push(sql`payout_nonce = ${fields.payoutNonce === null ? null : fields.payoutNonce.toString()}::bigint`);
    if (fields.payoutError !== undefined) sets.push(sql`payout_error = ${fields.payoutError}`);
    if (fields.payoutAttempt) sets.push(sql`payout_attempts = payout_attempts + 1`);
    if (fields.decidedBy !== undefined) sets.push(sql`decided_by = ${fields.decidedBy}::uuid`);
    if (fields.decided) sets.push(sql`decided_at = now()`);
    if (fields.completed) sets.push(sql`completed_at = now()`);
    await db.execute(sql`update withdrawals set ${sql.join(sets, sql`, `)} where id = ${id}::uuid`);
  }

  /**
   * Hot-wallet payouts signed and not yet settled (processing, or failed and maybe mined after all),
   * for the tracker: processing ones before failed ones, and within each the least recently looked
   * at first, so failures parked for an operator can neither starve new payouts nor each other.
   * The rows handed out are stamped as looked at.
   */
  signedPayouts(network: Network, limit = 100): Promise<WithdrawalRow[]> {
    return queryRows<WithdrawalRow>(
      this.db,
      sql`with picked as (
            select w.id from withdrawals w
            where w.status in ('processing', 'failed') and w.network = ${network} and w.method_type = 'crypto'
              and w.tx_hash is not null and w.payout_raw_tx is not null
            order by (w.status = 'processing') desc, w.payout_checked_at asc nulls first, w.created_at
            limit ${limit}
          ),
          stamped as (
            update withdrawals set payout_checked_at = now() from picked where withdrawals.id = picked.id
            returning withdrawals.id
          )
          select ${WITHDRAWAL_COLUMNS} from withdrawals w join stamped s on s.id = w.id
          order by (w.status = 'processing') desc, w.created_at`,
    );
  }

  /** Whether another withdrawal on the network is already settled by this transaction hash. */
  async txHashUsed(db: Db | Tx, network: Network, txHash: string, exceptId: string): Promise<boolean> {
    const rows = await queryRows<{ used: boolean }>(
      db,
      sql`select exists (select 1 from withdrawals where network = ${network} and tx_hash = ${txHash} and id <> ${exceptId}::uuid) as used`,
    );
    return rows[0]?.used ?? false;
  }

  /**
   * Records the transaction that paid a withdrawal; false when another withdrawal on the network
   * holds it (the unique index `withdrawals_tx_hash` decides, also between concurrent calls).
   */
  async setPaidTxHash(tx: Tx, id: string, txHash: string): Promise<boolean> {
    // The caller gives up its transaction on false, so the failed statement needs no savepoint.
    try {
      await tx.execute(sql`update withdrawals set tx_hash = ${txHash}, updated_at = now() where id = ${id}::uuid`);
      return true;
    } catch (error) {
      if (!isUniqueViolation(error, 'withdrawals_tx_hash')) throw error;
      return false;
    }
  }

  /** A broadcast failed: only a payout still waiting on that very transaction becomes failed. */
  async markPayoutFailed(db: Db | Tx, id: string, txHash: string, message: string): Promise<void> {
    await db.execute(
      sql`update withdrawals set status = 'failed', payout_error = ${message}, payout_attempts = payout_attempts + 1, updated_at = now()
          where id = ${id}::uuid and status = 'processing' and tx_hash = ${txHash}`,
    );
  }

  /** Serialises payout signing per network (nonces are handed out one at a time). */
  async lockPayouts(tx: Tx, network: Network): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`withdraw-payout:${network}`}))`);
  }

  /** Nonces held by payouts that may still be sent or mined (processing, or failed and retryable). */
  async reservedPayoutNonces(tx: Tx, network: Network): Promise<Set<bigint>> {
    const rows = await queryRows<{ nonce: string }>(
      tx,
      sql`select payout_nonce::text as nonce from withdrawals
          where network = ${network} and status in ('processing', 'failed') and payout_nonce is not null`,
    );
    return new Set(rows.map((row) => BigInt(row.nonce)));
  }

  async listForMember(
    accountId: string,
    status: WithdrawalStatus | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: WithdrawalRow[]; total: number }> {
    const where = sql`w.account_id = ${accountId}::uuid${status ? sql` and w.status = ${status}` : sql``}`;
    const rows = await queryRows<WithdrawalRow>(
      this.db,
      sql`select ${WITHDRAWAL_COLUMNS} from withdrawals w where ${where} order by w.created_at desc, w.id desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from withdrawals w where ${where}`,
    );
    return { rows, total: count?.total ?? 0 };
  }

  async listAdmin(
    filter: { status?: WithdrawalStatus; query?: string; id?: string },
    limit: number,
    offset: number,
  ): Promise<{ rows: AdminWithdrawalRow[]; total: number }> {
    const parts: SQL[] = [sql`true`];
    if (filter.id) parts.push(sql`w.id = ${filter.id}::uuid`);
    if (filter.status) parts.push(sql`w.status = ${filter.status}`);
    if (filter.query)
      parts.push(
        sql`(m.email = lower(${filter.query}) or lower(w.destination) like '%' || lower(${filter.query}) || '%' or w.tx_hash = lower(${filter.query}))`,
      );
    const where = sql.join(parts, sql` and `);
    const rows = await queryRows<AdminWithdrawalRow>(
      this.db,
      sql`select ${WITHDRAWAL_COLUMNS}, m.email as member_email, m.created_at as member_created_at,
            coalesce((select v.status from identity_verifications v where v.member_id = w.member_id order by v.submitted_at desc limit 1), 'none') as kyc_status,
            (select count(*)::int from withdrawals p where p.member_id = w.member_id and p.status = 'success' and p.created_at < w.created_at) as previous_paid_count,
            (select coalesce(sum(p.amount), 0)::text from withdrawals p where p.member_id = w.member_id and p.status = 'success' and p.created_at < w.created_at) as previous_paid_total,
            exists (select 1 from withdrawals o where o.destination = w.destination and o.member_id <> w.member_id) as address_shared,
            exists (select 1 from chain_deposits d join deposit_addresses a on a.id = d.deposit_address_id
                    where a.member_id = w.member_id and d.status = 'credited' and d.credited_at > w.created_at - interval '24 hours') as recent_deposit,
            o.username as decided_by_name
          from withdrawals w join members m on m.id = w.member_id left join operators o on o.id = w.decided_by
          where ${where} order by w.created_at desc, w.id desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from withdrawals w join members m on m.id = w.member_id where ${where}`,
    );
    return { rows, total: count?.total ?? 0 };
  }

  // ── Holidays ───────────────────────────────────────────────────────────────────────────────────

  async holidaysFrom(fromDay: string, days: number): Promise<Map<string, string>> {
    const rows = await queryRows<{ day: string; note: string }>(
      this.db,
      sql`select day::text as day, note from withdraw_holidays
          where day >= ${fromDay}::date and day < ${fromDay}::date + ${days}::int order by day`,
    );
    return new Map(rows.map((row) => [row.day, row.note]));
  }

  listHolidays(fromDay: string): Promise<{ day: string; note: string }[]> {
    return queryRows(
      this.db,
      sql`select day::text as day, note from withdraw_holidays where day >= ${fromDay}::date order by day`,
    );
  }

  async addHoliday(day: string, note: string, operatorId: string, tx: Tx): Promise<void> {
    await tx.execute(
      sql`insert into withdraw_holidays (day, note, created_by) values (${day}::date, ${note}, ${operatorId}::uuid)
          on conflict (day) do update set note = excluded.note`,
    );
  }

  async deleteHoliday(day: string, tx: Tx): Promise<boolean> {
    const rows = await queryRows<{ day: string }>(
      tx,
      sql`delete from withdraw_holidays where day = ${day}::date returning day::text as day`,
    );
    return rows.length > 0;
  }
}

/** PostgreSQL's (and PGlite's) unique violation on the named index, through drizzle's wrapping. */
function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = (cause as { cause?: unknown }).cause) {
    const { code, constraint: name } = cause as { code?: unknown; constraint?: unknown };
    if (code === '23505') return name === constraint || cause.message.includes(constraint);
  }
  return false;
}
