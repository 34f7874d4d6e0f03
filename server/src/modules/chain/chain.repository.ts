import { sql } from 'drizzle-orm';
import type { DepositStatus, Network } from '@custos/contract';
import { queryRows, type Db, type Tx } from '../../db/client.js';

export interface DepositAddressRow {
  id: string;
  member_id: string;
  account_id: string;
  network: Network;
  derivation_index: number;
  address: string;
  match_key: string;
}

export interface CursorRow {
  network: Network;
  scanned_block: string;
  scanned_hash: string | null;
  head_block: string | null;
  last_scan_at: Date | string | null;
  last_error: string | null;
  last_error_at: Date | string | null;
  consecutive_failures: number;
}

export interface DepositRow {
  id: string;
  network: Network;
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_hash: string;
  from_address: string;
  to_address: string;
  amount: string;
  status: DepositStatus;
  /** Blocks on top of the deposit's, its own included, at the watcher's last scan. */
  confirmations: number;
  seen_at: Date | string;
  credited_at: Date | string | null;
  member_id: string;
  member_email: string;
  account_id: string;
}

export interface SeenDeposit {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  fromAddress: string;
  depositAddressId: string;
  rawAmount: bigint;
  amount: string;
  /** confirming, or below_minimum for amounts that are never credited. */
  status: 'confirming' | 'below_minimum';
}

export interface CreditableDeposit {
  id: string;
  tx_hash: string;
  log_index: number;
  amount: string;
  account_id: string;
  member_id: string;
}

const DEPOSIT_SELECT =
  sql.raw(`select d.id, d.network, d.tx_hash, d.log_index, d.block_number::text as block_number, d.block_hash,
  d.from_address, a.address as to_address, d.amount::text as amount, d.status,
  greatest(0, coalesce(c.head_block - d.block_number + 1, 0))::int as confirmations,
  d.seen_at, d.credited_at, a.member_id, m.email as member_email, a.account_id
  from chain_deposits d
  join deposit_addresses a on a.id = d.deposit_address_id
  join members m on m.id = a.member_id
  left join chain_cursors c on c.network = d.network`);

const CURSOR_COLUMNS = sql.raw(`network, scanned_block::text as scanned_block, scanned_hash, head_block::text as head_block,
  last_scan_at, last_error, last_error_at, consecutive_failures`);

/** Deposit addresses, on-chain deposits and watcher cursors: the only SQL of the chain module. */
export class ChainRepository {
  constructor(private readonly db: Db) {}

  // ── Addresses ──────────────────────────────────────────────────────────────────────────────────

  async findAddress(memberId: string, network: Network): Promise<DepositAddressRow | null> {
    const rows = await queryRows<DepositAddressRow>(
      this.db,
      sql`select id, member_id, account_id, network, derivation_index, address, match_key
          from deposit_addresses where member_id = ${memberId}::uuid and network = ${network}`,
    );
    return rows[0] ?? null;
  }

  async nextDerivationIndex(): Promise<number> {
    const rows = await queryRows<{ index: string }>(this.db, sql`select nextval('deposit_address_index')::text as index`);
    return Number(rows[0]!.index);
  }

  async mainAccountOf(memberId: string): Promise<string | null> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select id from accounts where member_id = ${memberId}::uuid and kind = 'main'`,
    );
    return rows[0]?.id ?? null;
  }

  /** Keeps the first address made for a member and network when two requests race. */
  async insertAddress(address: Omit<DepositAddressRow, 'id'>): Promise<void> {
    await this.db.execute(
      sql`insert into deposit_addresses (member_id, account_id, network, derivation_index, address, match_key)
          values (${address.member_id}::uuid, ${address.account_id}::uuid, ${address.network}, ${address.derivation_index},
            ${address.address}, ${address.match_key})
          on conflict (member_id, network) do nothing`,
    );
  }

  async addressesByMatchKey(tx: Tx, network: Network, matchKeys: readonly string[]): Promise<DepositAddressRow[]> {
    if (matchKeys.length === 0) return [];
    return queryRows<DepositAddressRow>(
      tx,
      sql`select id, member_id, account_id, network, derivation_index, address, match_key from deposit_addresses
          where network = ${network} and match_key in (${sql.join(
            matchKeys.map((key) => sql`${key}`),
            sql`, `,
          )})`,
    );
  }

  depositAddressesOf(network: Network): Promise<DepositAddressRow[]> {
    return queryRows<DepositAddressRow>(
      this.db,
      sql`select id, member_id, account_id, network, derivation_index, address, match_key from deposit_addresses
          where network = ${network} order by derivation_index`,
    );
  }

  async recordSweep(sweep: {
    network: Network;
    depositAddressId: string;
    fromAddress: string;
    toAddress: string;
    rawAmount: string;
    amount: string;
    gasTxHash: string | null;
    txHash: string | null;
    status: 'sent' | 'failed';
    error: string | null;
  }): Promise<void> {
    await this.db.execute(
      sql`insert into chain_sweeps (network, deposit_address_id, from_address, to_address, raw_amount, amount, gas_tx_hash, tx_hash, status, error)
          values (${sweep.network}, ${sweep.depositAddressId}::uuid, ${sweep.fromAddress}, ${sweep.toAddress}, ${sweep.rawAmount}::numeric,
            ${sweep.amount}::numeric, ${sweep.gasTxHash}, ${sweep.txHash}, ${sweep.status}, ${sweep.error})`,
    );
  }

  // ── Cursors ────────────────────────────────────────────────────────────────────────────────────

  async cursor(network: Network): Promise<CursorRow | null> {
    const rows = await queryRows<CursorRow>(this.db, sql`select ${CURSOR_COLUMNS} from chain_cursors where network = ${network}`);
    return rows[0] ?? null;
  }

  async cursors(): Promise<CursorRow[]> {
    return queryRows<CursorRow>(this.db, sql`select ${CURSOR_COLUMNS} from chain_cursors`);
  }

  async initCursor(network: Network, scannedBlock: bigint): Promise<void> {
    await this.db.execute(
      sql`insert into chain_cursors (network, scanned_block) values (${network}, ${scannedBlock.toString()}::bigint)
          on conflict (network) do nothing`,
    );
  }

  /** Locks the cursor for a scan's writes; null if another instance moved it since `expectedBlock`. */
  async lockCursorAt(tx: Tx, network: Network, expectedBlock: bigint): Promise<CursorRow | null> {
    const rows = await queryRows<CursorRow>(
      tx,
      sql`select ${CURSOR_COLUMNS} from chain_cursors where network = ${network} for update`,
    );
    const row = rows[0];
    return row && BigInt(row.scanned_block) === expectedBlock ? row : null;
  }

  async advanceCursor(
    tx: Tx,
    network: Network,
    cursor: { scannedBlock: bigint; scannedHash: string | null; headBlock: bigint },
  ): Promise<void> {
    await tx.execute(
      sql`update chain_cursors set scanned_block = ${cursor.scannedBlock.toString()}::bigint, scanned_hash = ${cursor.scannedHash},
            head_block = ${cursor.headBlock.toString()}::bigint, last_scan_at = now(), consecutive_failures = 0, updated_at = now()
          where network = ${network}`,
    );
  }

  /** After a reorganisation deeper than the cursor: scan again from `scannedBlock + 1`. */
  /** Forgets where the watcher was: its next scan starts at the configured first block. */
  async deleteCursor(network: Network): Promise<void> {
    await this.db.execute(sql`delete from chain_cursors where network = ${network}`);
  }

  async rewindCursor(network: Network, scannedBlock: bigint, reason: string): Promise<void> {
    await this.db.execute(
      sql`update chain_cursors set scanned_block = ${scannedBlock.toString()}::bigint, scanned_hash = null,
            last_error = ${reason}, last_error_at = now(), updated_at = now()
          where network = ${network}`,
    );
  }

  async recordFailure(network: Network, message: string): Promise<void> {
    await this.db.execute(
      sql`update chain_cursors set last_error = ${message.slice(0, 500)}, last_error_at = now(),
            consecutive_failures = consecutive_failures + 1, updated_at = now()
          where network = ${network}`,
    );
  }

  // ── Deposits ───────────────────────────────────────────────────────────────────────────────────

  /**
   * Records what a scan saw. A deposit seen again in another block (a reorganisation moved it) takes
   * the new block; an orphaned one that reappears comes back; a credited one never changes.
   */
  async upsertSeen(tx: Tx, network: Network, seen: readonly SeenDeposit[]): Promise<void> {
    if (seen.length === 0) return;
    const values = seen.map(
      (deposit) =>
        sql`(${network}, ${deposit.txHash}, ${deposit.logIndex}, ${deposit.blockNumber.toString()}::bigint, ${deposit.blockHash},
          ${deposit.fromAddress}, ${deposit.depositAddressId}::uuid, ${deposit.rawAmount.toString()}::numeric, ${deposit.amount}::numeric, ${deposit.status})`,
    );
    await tx.execute(
      sql`insert into chain_deposits (network, tx_hash, log_index, block_number, block_hash, from_address, deposit_address_id, raw_amount, amount, status)
          values ${sql.join(values, sql`, `)}
          on conflict (network, tx_hash, log_index) do update
            set block_number = excluded.block_number, block_hash = excluded.block_hash, status = excluded.status, updated_at = now()
            where chain_deposits.status <> 'credited'
              and (chain_deposits.block_hash <> excluded.block_hash or chain_deposits.status <> excluded.status)`,
    );
  }

  /** Deposits in scanned blocks that the scan no longer saw: their block left the chain. */
  async orphanMissing(
    tx: Tx,
    network: Network,
    fromBlock: bigint,
    toBlock: bigint,
    seen: readonly { txHash: string; logIndex: number }[],
  ): Promise<number> {
    const keep =
      seen.length === 0
        ? sql`true`
        : sql`(tx_hash, log_index) not in (${sql.join(
            seen.map((deposit) => sql`(${deposit.txHash}, ${deposit.logIndex}::int)`),
            sql`, `,
          )})`;
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`update chain_deposits set status = 'orphaned', updated_at = now()
          where network = ${network} and status in ('confirming', 'below_minimum')
            and block_number between ${fromBlock.toString()}::bigint and ${toBlock.toString()}::bigint and ${keep}
          returning id`,
    );
    return rows.length;
  }

  /** Confirming deposits in blocks up to `finalBlock`, locked for crediting. */
  async lockCreditable(tx: Tx, network: Network, fromBlock: bigint, finalBlock: bigint): Promise<CreditableDeposit[]> {
    return queryRows<CreditableDeposit>(
      tx,
      sql`select d.id, d.tx_hash, d.log_index, d.amount::text as amount, a.account_id, a.member_id
          from chain_deposits d join deposit_addresses a on a.id = d.deposit_address_id
          where d.network = ${network} and d.status = 'confirming'
            and d.block_number between ${fromBlock.toString()}::bigint and ${finalBlock.toString()}::bigint
          order by d.block_number, d.log_index
          for update of d`,
    );
  }

  async markCredited(tx: Tx, depositId: string, entryId: string): Promise<void> {
    await tx.execute(
      sql`update chain_deposits set status = 'credited', entry_id = ${entryId}::bigint, credited_at = now(), updated_at = now()
          where id = ${depositId}::uuid and status = 'confirming'`,
    );
  }

  async countConfirming(network: Network): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      this.db,
      sql`select count(*)::int as n from chain_deposits where network = ${network} and status = 'confirming'`,
    );
    return rows[0]?.n ?? 0;
  }

  async listForMember(
    memberId: string,
    network: Network | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: DepositRow[]; total: number }> {
    const where = sql`a.member_id = ${memberId}::uuid${network ? sql` and d.network = ${network}` : sql``}`;
    return this.page(where, limit, offset);
  }

  async listAll(
    filter: { network?: Network; status?: DepositStatus; query?: string },
    limit: number,
    offset: number,
  ): Promise<{ rows: DepositRow[]; total: number }> {
    const parts = [sql`true`];
    if (filter.network) parts.push(sql`d.network = ${filter.network}`);
    if (filter.status) parts.push(sql`d.status = ${filter.status}`);
    if (filter.query) {
      const query = filter.query;
      parts.push(
        sql`(m.email = lower(${query}) or lower(a.address) = lower(${query}) or d.tx_hash = lower(${query}) or lower(d.from_address) = lower(${query}))`,
      );
    }
    return this.page(sql.join(parts, sql` and `), limit, offset);
  }

  private async page(
    where: ReturnType<typeof sql>,
    limit: number,
    offset: number,
  ): Promise<{ rows: DepositRow[]; total: number }> {
    const rows = await queryRows<DepositRow>(
      this.db,
      sql`${DEPOSIT_SELECT} where ${where} order by d.seen_at desc, d.block_number desc, d.log_index desc, d.id desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from chain_deposits d join deposit_addresses a on a.id = d.deposit_address_id
          join members m on m.id = a.member_id where ${where}`,
    );
    return { rows, total: count?.total ?? 0 };
  }
}
