import { sql, type SQL } from 'drizzle-orm';
import type { Asset, RecordType } from '@custos/contract';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';

export type MemberPurpose = 'available' | 'held' | 'custody' | 'used';

export type LedgerAccountRef =
  { ownerAccountId: string; asset: Asset; purpose: MemberPurpose } | { platformCode: PlatformCode; asset: Asset };

export type MemberRef = Extract<LedgerAccountRef, { ownerAccountId: string }>;
export type PlatformRef = Extract<LedgerAccountRef, { platformCode: string }>;

/** Platform accounts (seeded by migration 0007 in every asset). */
export const PLATFORM_CODES = [
  'treasury',
  'deposits',
  'adjustments',
  'interest',
  'rewards',
  'fees',
  'withdrawals',
  'contracts_book',
] as const;
export type PlatformCode = (typeof PLATFORM_CODES)[number];

export interface LedgerAccountRow {
  id: string;
  owner_account_id: string | null;
  platform_code: string | null;
  asset: Asset;
  purpose: string;
  allow_negative: boolean;
  balance: string;
}

export interface NewEntry {
  idempotencyKey: string;
  kind: string;
  referenceType: string | null;
  referenceId: string | null;
  memo: string | null;
  operatorId: string | null;
}

export interface NewPosting {
  ledgerAccountId: string;
  asset: Asset;
  amount: string;
  balanceAfter: string;
  recordType: RecordType;
}

export interface LogRow {
  id: string;
  asset: Asset;
  record_type: RecordType;
  amount: string;
  balance_after: string;
  created_at: Date | string;
  reference_type: string | null;
  reference_id: string | null;
}

export interface AdminPostingRow extends LogRow {
  entry_id: string;
  kind: string;
  ledger_account_id: string;
  purpose: string;
  idempotency_key: string;
}

export interface HoldRow {
  id: string;
  owner_account_id: string;
  asset: Asset;
  amount: string;
  status: 'pending' | 'captured' | 'released';
  reference_type: string;
  reference_id: string;
}

export function refKey(ref: LedgerAccountRef): string {
  return 'platformCode' in ref
    ? `platform:${ref.platformCode}:${ref.asset}`
    : `${ref.ownerAccountId}:${ref.asset}:${ref.purpose}`;
}

export function rowKey(row: LedgerAccountRow): string {
  return row.platform_code
    ? `platform:${row.platform_code}:${row.asset}`
    : `${row.owner_account_id ?? ''}:${row.asset}:${row.purpose}`;
}

/** Member accounts a filter lists inline; more are looked up through a join. */
const LISTED_REFS_MAX = 8;

function accountFilter(refs: readonly LedgerAccountRef[]): SQL {
  const members = refs.filter((ref): ref is MemberRef => !('platformCode' in ref));
  const platform = refs.filter((ref): ref is PlatformRef => 'platformCode' in ref);
  const platformTuples = platform.map((ref) => sql`(${ref.platformCode}::text, ${ref.asset}::text)`);
  if (members.length > LISTED_REFS_MAX) {
    // A batch's accounts (a hundred members' closes): one index lookup each. Listed inline, that many
    // would be an OR of row comparisons the planner tests on every row of the table.
    const source = JSON.stringify(members.map((ref) => ({ o: ref.ownerAccountId, a: ref.asset, p: ref.purpose })));
    const platformIds =
      platform.length > 0
        ? sql` union all select id from ledger_accounts where (platform_code, asset) in (${sql.join(platformTuples, sql`, `)})`
        : sql``;
    return sql`id in (select m.id from jsonb_to_recordset(${source}::jsonb) as r(o uuid, a text, p text)
      cross join lateral (select id from ledger_accounts where owner_account_id = r.o and asset = r.a and purpose = r.p) m${platformIds})`;
  }
  const parts: SQL[] = [];
  if (members.length > 0) {
    const tuples = members.map((ref) => sql`(${ref.ownerAccountId}::uuid, ${ref.asset}::text, ${ref.purpose}::text)`);
    parts.push(sql`(owner_account_id, asset, purpose) in (${sql.join(tuples, sql`, `)})`);
  }
  if (platform.length > 0) parts.push(sql`(platform_code, asset) in (${sql.join(platformTuples, sql`, `)})`);
  return sql.join(parts, sql` or `);
}

const ACCOUNT_COLUMNS = sql.raw('id, owner_account_id, platform_code, asset, purpose, allow_negative, balance::text as balance');

/** The only code that writes ledger tables. */
export class LedgerRepository {
  constructor(private readonly db: Db) {}

  /**
   * Claims the idempotency key and, only if it was free, locks the entry's accounts in the same round
   * trip (the fixed order of `lockAccounts`). `entryId` null means the key had already posted.
   */
  async insertEntryAndLock(
    tx: Tx,
    entry: NewEntry,
    refs: readonly LedgerAccountRef[],
  ): Promise<{ entryId: string | null; rows: LedgerAccountRow[] }> {
    const result = await queryRows<LedgerAccountRow & { entry_id: string | null }>(
      tx,
      sql`with entry as (
            insert into journal_entries (idempotency_key, kind, reference_type, reference_id, memo, operator_id)
            values (${entry.idempotencyKey}, ${entry.kind}, ${entry.referenceType}, ${entry.referenceId}, ${entry.memo}, ${entry.operatorId}::uuid)
            on conflict (idempotency_key) do nothing
            returning id
          ), locked as (
            select ${ACCOUNT_COLUMNS} from ledger_accounts
            where exists (select 1 from entry) and (${accountFilter(refs)})
            order by platform_code is not null, id for update
          )
          select (select id::text from entry) as entry_id, locked.* from (select 1) as one left join locked on true`,
    );
    const entryId = result[0]?.entry_id ?? null;
    return { entryId, rows: entryId === null ? [] : result.filter((row) => row.id !== null) };
  }

  /** Applies the balance changes and appends the postings, in one statement. */
  async applyPostings(
    tx: Tx,
    entryId: string,
    deltas: readonly { id: string; delta: string }[],
    postings: readonly NewPosting[],
  ): Promise<void> {
    const deltaValues = deltas.map((item) => sql`(${item.id}::uuid, ${item.delta}::numeric)`);
    const postingValues = postings.map(
      (posting) =>
        sql`(${entryId}::bigint, ${posting.ledgerAccountId}::uuid, ${posting.asset}, ${posting.amount}::numeric, ${posting.balanceAfter}::numeric, ${posting.recordType})`,
    );
    // A data-modifying WITH runs to completion whether or not the outer statement reads it.
    await runStatement(
      tx,
      sql`with moved as (
            update ledger_accounts as a set balance = a.balance + v.delta, updated_at = now()
            from (values ${sql.join(deltaValues, sql`, `)}) as v(id, delta) where a.id = v.id
            returning a.id
          )
          insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
          values ${sql.join(postingValues, sql`, `)}`,
    );
  }

  /**
   * `insertEntryAndLock` for many entries (`LedgerService.postMany`): claims every key in one
   * statement, ids taken in the order given, and, if any key was free, locks `refs` in the fixed
   * order in the same round trip. `claimed` lists the entries whose key was free.
   */
  async insertEntriesAndLock(
    tx: Tx,
    entries: readonly NewEntry[],
    refs: readonly LedgerAccountRef[],
  ): Promise<{ claimed: { id: string; key: string }[]; rows: LedgerAccountRow[] }> {
    const source = JSON.stringify(
      entries.map((entry, ord) => ({
        idempotency_key: entry.idempotencyKey,
        kind: entry.kind,
        reference_type: entry.referenceType,
        reference_id: entry.referenceId,
        memo: entry.memo,
        operator_id: entry.operatorId,
        ord,
      })),
    );
    const result = await queryRows<LedgerAccountRow & { claimed: { id: string; key: string }[] | null }>(
      tx,
      sql`with entry as (
            insert into journal_entries (idempotency_key, kind, reference_type, reference_id, memo, operator_id)
            select s.idempotency_key, s.kind, s.reference_type, s.reference_id, s.memo, s.operator_id
            from jsonb_to_recordset(${source}::jsonb)
              as s(idempotency_key text, kind text, reference_type text, reference_id text, memo text, operator_id uuid, ord int)
            order by s.ord
            on conflict (idempotency_key) do nothing
            returning id, idempotency_key
          ), locked as (
            select ${ACCOUNT_COLUMNS} from ledger_accounts
            where exists (select 1 from entry) and (${accountFilter(refs)})
            order by platform_code is not null, id for update
          )
          select (select json_agg(json_build_object('id', id::text, 'key', idempotency_key) order by id) from entry) as claimed, locked.*
          from (select 1) as one left join locked on true`,
    );
    const claimed = result[0]?.claimed ?? [];
    return { claimed, rows: claimed.length === 0 ? [] : result.filter((row) => row.id !== null) };
  }

  /** `applyPostings` for many entries: every balance change and every posting (in `postings`' order) in one statement. */
  async applyPostingsMany(
    tx: Tx,
    deltas: readonly { id: string; delta: string }[],
    postings: readonly (NewPosting & { entryId: string })[],
  ): Promise<void> {
    const deltaSource = JSON.stringify(deltas);
    const postingSource = JSON.stringify(
      postings.map((posting, ord) => ({
        entry_id: posting.entryId,
        ledger_account_id: posting.ledgerAccountId,
        asset: posting.asset,
        amount: posting.amount,
        balance_after: posting.balanceAfter,
        record_type: posting.recordType,
        ord,
      })),
    );
    await runStatement(
      tx,
      sql`with moved as (
            update ledger_accounts as a set balance = a.balance + v.delta, updated_at = now()
            from jsonb_to_recordset(${deltaSource}::jsonb) as v(id uuid, delta numeric) where a.id = v.id
            returning a.id
          )
          insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
          select p.entry_id, p.ledger_account_id, p.asset, p.amount, p.balance_after, p.record_type
          from jsonb_to_recordset(${postingSource}::jsonb)
            as p(entry_id bigint, ledger_account_id uuid, asset text, amount numeric, balance_after numeric, record_type text, ord int)
          order by p.ord`,
    );
  }

  /** The entries of the keys that have posted, by key. */
  async findEntryIdsByKeys(db: Db | Tx, keys: readonly string[]): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const rows = await queryRows<{ id: string; idempotency_key: string }>(
      db,
      sql`select id::text as id, idempotency_key from journal_entries
          where idempotency_key in (select k from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as k)`,
    );
    return new Map(rows.map((row) => [row.idempotency_key, row.id]));
  }

  async findEntryIdByKey(db: Db | Tx, idempotencyKey: string): Promise<string | null> {
    const rows = await queryRows<{ id: string }>(
      db,
      sql`select id::text as id from journal_entries where idempotency_key = ${idempotencyKey}`,
    );
    return rows[0]?.id ?? null;
  }

  /**
   * Locks the accounts in one fixed order (member accounts by id, then the busier platform accounts
   * by id), so two entries touching the same accounts wait for each other instead of deadlocking,
   * and each sees the other's committed balance.
   */
  lockAccounts(tx: Tx, refs: readonly LedgerAccountRef[]): Promise<LedgerAccountRow[]> {
    return queryRows<LedgerAccountRow>(
      tx,
      sql`select ${ACCOUNT_COLUMNS} from ledger_accounts where ${accountFilter(refs)} order by platform_code is not null, id for update`,
    );
  }

  /** Member ledger accounts are made on first use; platform accounts exist from the migration. */
  async createMemberAccounts(tx: Tx, refs: readonly Extract<LedgerAccountRef, { ownerAccountId: string }>[]): Promise<void> {
    if (refs.length === 0) return;
    const values = refs.map((ref) => sql`(${ref.ownerAccountId}::uuid, ${ref.asset}, ${ref.purpose})`);
    await tx.execute(
      sql`insert into ledger_accounts (owner_account_id, asset, purpose) values ${sql.join(values, sql`, `)} on conflict do nothing`,
    );
  }

  // ── Set-based entries (the daily settlement) ───────────────────────────────────────────────────

  /** Claims a settlement entry's key; null if it has posted already (by this run or another). */
  async claimEntry(tx: Tx, entry: NewEntry): Promise<string | null> {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`insert into journal_entries (idempotency_key, kind, reference_type, reference_id, memo, operator_id)
          values (${entry.idempotencyKey}, ${entry.kind}, ${entry.referenceType}, ${entry.referenceId}, ${entry.memo}, ${entry.operatorId}::uuid)
          on conflict (idempotency_key) do nothing
          returning id::text as id`,
    );
    return rows[0]?.id ?? null;
  }

  /**
   * Posts, for every row of `source` (owner_account_id uuid, amount numeric > 0), one posting per leg
   * on the member's ledger account of that purpose (amount × the leg's sign), in set-based statements:
   * the member rows are locked first in id order (as every entry locks them), then changed, then the
   * optional platform counter-posting takes the opposite of the total. Returns the total.
   */
  async postFromSource(
    tx: Tx,
    entryId: string,
    source: SQL,
    asset: Asset,
    legs: readonly { purpose: MemberPurpose; sign: 1 | -1; recordType: RecordType }[],
    counter?: { platformCode: PlatformCode; recordType: RecordType },
  ): Promise<string> {
    const purposes = sql.join(
      legs.map((leg) => sql`${leg.purpose}`),
      sql`, `,
    );
    await tx.execute(
      sql`select la.id from ledger_accounts la
          where la.asset = ${asset} and la.purpose in (${purposes})
            and la.owner_account_id in (select s.owner_account_id from (${source}) s)
          order by la.id for update`,
    );
    let total = '0';
    for (const leg of legs) {
      const rows = await queryRows<{ total: string }>(
        tx,
        sql`with s as (select owner_account_id, sum(amount) as amount from (${source}) raw group by owner_account_id),
            moved as (
              update ledger_accounts la set balance = la.balance + ${leg.sign}::int * s.amount, updated_at = now()
              from s where la.owner_account_id = s.owner_account_id and la.asset = ${asset} and la.purpose = ${leg.purpose}
              returning la.id, la.balance, s.amount
            ),
            posted as (
              insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
              select ${entryId}::bigint, id, ${asset}, ${leg.sign}::int * amount, balance, ${leg.recordType} from moved
              returning amount
            )
            select coalesce(sum(amount), 0)::text as total from posted`,
      );
      total = rows[0]!.total;
    }
    if (counter) {
      // The counter-posting takes the opposite of the (last) leg's total.
      await tx.execute(
        sql`with moved as (
              update ledger_accounts set balance = balance - ${total}::numeric, updated_at = now()
              where platform_code = ${counter.platformCode} and asset = ${asset}
              returning id, balance
            )
            insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
            select ${entryId}::bigint, id, ${asset}, -${total}::numeric, balance, ${counter.recordType} from moved`,
      );
    }
    return total;
  }

  /**
   * One entry per row of `source` (idempotency_key text, owner_account_id uuid, amount numeric > 0,
   * reference_id text), set-based: each entry credits the member's account of the leg's purpose and
   * debits the platform account `counter`. A key that has posted already is skipped (its row moves
   * nothing). The member rows are locked first in id order (as every entry locks them), the platform
   * row last; each posting's `balance_after` is the running balance in entry order. Returns how many
   * entries posted and their total.
   */
  async postEach(
    tx: Tx,
    source: SQL,
    entry: { kind: string; referenceType: string },
    asset: Asset,
    leg: { purpose: MemberPurpose; recordType: RecordType },
    counter: { platformCode: PlatformCode; recordType: RecordType },
  ): Promise<{ entries: number; total: string }> {
    await tx.execute(
      sql`select la.id from ledger_accounts la
          where la.asset = ${asset} and la.purpose = ${leg.purpose}
            and la.owner_account_id in (select s.owner_account_id from (${source}) s)
          order by la.id for update`,
    );
    const rows = await queryRows<{ entries: number; total: string }>(
      tx,
      sql`with src as materialized (select idempotency_key, owner_account_id, amount, reference_id from (${source}) s),
          claimed as (
            insert into journal_entries (idempotency_key, kind, reference_type, reference_id)
            select idempotency_key, ${entry.kind}, ${entry.referenceType}, reference_id from src order by idempotency_key
            on conflict (idempotency_key) do nothing
            returning id, idempotency_key
          ),
          lines as (select c.id as entry_id, s.owner_account_id, s.amount from claimed c join src s using (idempotency_key)),
          per_account as (select owner_account_id, sum(amount) as amount from lines group by owner_account_id),
          moved as (
            update ledger_accounts la set balance = la.balance + p.amount, updated_at = now()
            from per_account p
            where la.owner_account_id = p.owner_account_id and la.asset = ${asset} and la.purpose = ${leg.purpose}
            returning la.id, la.owner_account_id, la.balance - p.amount as before
          ),
          member_postings as (
            insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
            select l.entry_id, m.id, ${asset}, l.amount,
                   m.before + sum(l.amount) over (partition by m.id order by l.entry_id), ${leg.recordType}
            from lines l join moved m on m.owner_account_id = l.owner_account_id
            order by l.entry_id
            returning amount
          ),
          platform as (
            update ledger_accounts set balance = balance - (select coalesce(sum(amount), 0) from lines), updated_at = now()
            where platform_code = ${counter.platformCode} and asset = ${asset}
              and exists (select 1 from lines)
            returning id, balance + (select coalesce(sum(amount), 0) from lines) as before
          ),
          platform_postings as (
            insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
            select l.entry_id, p.id, ${asset}, -l.amount,
                   p.before - sum(l.amount) over (order by l.entry_id), ${counter.recordType}
            from lines l cross join platform p
            order by l.entry_id
            returning amount
          )
          select (select count(*)::int from member_postings) as entries,
                 (select coalesce(sum(amount), 0)::text from member_postings) as total,
                 (select count(*)::int from platform_postings) as counter_postings`,
    );
    return { entries: rows[0]!.entries, total: rows[0]!.total };
  }

  // ── Holds ──────────────────────────────────────────────────────────────────────────────────────

  async insertHold(
    tx: Tx,
    hold: {
      ownerAccountId: string;
      asset: Asset;
      amount: string;
      referenceType: string;
      referenceId: string;
      holdEntryId: string;
    },
  ): Promise<HoldRow> {
    const rows = await queryRows<HoldRow>(
      tx,
      sql`insert into ledger_holds (owner_account_id, asset, amount, reference_type, reference_id, hold_entry_id)
          values (${hold.ownerAccountId}::uuid, ${hold.asset}, ${hold.amount}::numeric, ${hold.referenceType}, ${hold.referenceId}, ${hold.holdEntryId}::bigint)
          returning id, owner_account_id, asset, amount::text as amount, status, reference_type, reference_id`,
    );
    return rows[0]!;
  }

  async lockHold(tx: Tx, referenceType: string, referenceId: string): Promise<HoldRow | null> {
    const rows = await queryRows<HoldRow>(
      tx,
      sql`select id, owner_account_id, asset, amount::text as amount, status, reference_type, reference_id
          from ledger_holds where reference_type = ${referenceType} and reference_id = ${referenceId} for update`,
    );
    return rows[0] ?? null;
  }

  /** The holds of `references`, locked in id order (`LedgerService.settleHolds`). */
  async lockHolds(tx: Tx, references: readonly { referenceType: string; referenceId: string }[]): Promise<HoldRow[]> {
    if (references.length === 0) return [];
    const source = JSON.stringify(
      references.map((ref) => ({ reference_type: ref.referenceType, reference_id: ref.referenceId })),
    );
    return queryRows<HoldRow>(
      tx,
      sql`select id, owner_account_id, asset, amount::text as amount, status, reference_type, reference_id
          from ledger_holds
          where (reference_type, reference_id) in (
            select r.reference_type, r.reference_id from jsonb_to_recordset(${source}::jsonb) as r(reference_type text, reference_id text))
          order by id for update`,
    );
  }

  /** `settleHold` for many pending holds in one statement. */
  async settleHoldsMany(
    tx: Tx,
    settled: readonly { holdId: string; status: 'captured' | 'released'; entryId: string }[],
  ): Promise<void> {
    if (settled.length === 0) return;
    const source = JSON.stringify(settled.map((item) => ({ id: item.holdId, status: item.status, entry_id: item.entryId })));
    await runStatement(
      tx,
      sql`update ledger_holds h set status = v.status, settle_entry_id = v.entry_id, settled_at = now()
          from jsonb_to_recordset(${source}::jsonb) as v(id uuid, status text, entry_id bigint)
          where h.id = v.id and h.status = 'pending'`,
    );
  }

  /** Changes a pending hold's amount (moveHold only: the held balance moves with it in the same entry). */
  async resizeHold(tx: Tx, holdId: string, amount: string): Promise<void> {
    await tx.execute(sql`update ledger_holds set amount = ${amount}::numeric where id = ${holdId}::uuid and status = 'pending'`);
  }

  async settleHold(tx: Tx, holdId: string, status: 'captured' | 'released', settleEntryId: string): Promise<void> {
    await tx.execute(
      sql`update ledger_holds set status = ${status}, settle_entry_id = ${settleEntryId}::bigint, settled_at = now()
          where id = ${holdId}::uuid and status = 'pending'`,
    );
  }

  // ── Reads ──────────────────────────────────────────────────────────────────────────────────────

  accountsOwnedBy(accountIds: readonly string[]): Promise<LedgerAccountRow[]> {
    if (accountIds.length === 0) return Promise.resolve([]);
    const ids = accountIds.map((id) => sql`${id}::uuid`);
    return queryRows<LedgerAccountRow>(
      this.db,
      sql`select ${ACCOUNT_COLUMNS} from ledger_accounts where owner_account_id in (${sql.join(ids, sql`, `)}) order by asset, purpose`,
    );
  }

  platformAccounts(): Promise<LedgerAccountRow[]> {
    return queryRows<LedgerAccountRow>(
      this.db,
      sql`select ${ACCOUNT_COLUMNS} from ledger_accounts where platform_code is not null order by platform_code, asset`,
    );
  }

  /** The member-facing log: postings on an account's available balances, newest first. */
  async log(
    ownerAccountId: string,
    filter: { asset?: Asset | undefined; type?: RecordType | undefined },
    page: { limit: number; offset: number },
  ): Promise<{ rows: LogRow[]; total: number }> {
    const conditions: SQL[] = [sql`la.owner_account_id = ${ownerAccountId}::uuid`, sql`la.purpose = 'available'`];
    if (filter.asset) conditions.push(sql`p.asset = ${filter.asset}`);
    if (filter.type) conditions.push(sql`p.record_type = ${filter.type}`);
    return this.postingsPage(conditions, page);
  }

  /**
   * Fuel and ticket records (withdraw_record7): every posting on an account's FUEL and TICKET
   * balances that a member sees (available, and used for spent tickets), newest first.
   */
  async fuelTicketLog(
    ownerAccountId: string,
    asset: 'FUEL' | 'TICKET' | undefined,
    page: { limit: number; offset: number },
  ): Promise<{ rows: AdminPostingRow[]; total: number }> {
    const conditions: SQL[] = [
      sql`la.owner_account_id = ${ownerAccountId}::uuid`,
      sql`la.purpose in ('available', 'used')`,
      asset ? sql`p.asset = ${asset}` : sql`p.asset in ('FUEL', 'TICKET')`,
    ];
    return this.postingsPage(conditions, page);
  }

  /** The console's view: every posting of a member account (all purposes) or of one ledger account. */
  async adminPostings(
    filter: { ownerAccountId?: string | undefined; ledgerAccountId?: string | undefined },
    page: { limit: number; offset: number },
  ): Promise<{ rows: AdminPostingRow[]; total: number }> {
    const conditions: SQL[] = [sql`true`];
    if (filter.ownerAccountId) conditions.push(sql`la.owner_account_id = ${filter.ownerAccountId}::uuid`);
    if (filter.ledgerAccountId) conditions.push(sql`la.id = ${filter.ledgerAccountId}::uuid`);
    return this.postingsPage(conditions, page);
  }

  /** Postings matching `conditions` (on p = postings, la = ledger_accounts), newest first, with the total. */
  private async postingsPage(
    conditions: SQL[],
    page: { limit: number; offset: number },
  ): Promise<{ rows: AdminPostingRow[]; total: number }> {
    const where = sql.join(conditions, sql` and `);
    const rows = await queryRows<AdminPostingRow>(
      this.db,
      sql`select p.id::text as id, p.entry_id::text as entry_id, e.kind, p.ledger_account_id, la.purpose, p.asset, p.record_type,
                 p.amount::text as amount, p.balance_after::text as balance_after, p.created_at,
                 e.reference_type, e.reference_id, e.idempotency_key
          from postings p
          join ledger_accounts la on la.id = p.ledger_account_id
          join journal_entries e on e.id = p.entry_id
          where ${where}
          order by p.id desc limit ${page.limit} offset ${page.offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from postings p join ledger_accounts la on la.id = p.ledger_account_id where ${where}`,
    );
    return { rows, total: count?.total ?? 0 };
  }

  // ── The invariant checker ──────────────────────────────────────────────────────────────────────

  async verify(): Promise<{
    counts: { entries: number; postings: number; accounts: number };
    totals: { asset: string; sum: string }[];
    problems: { check: string; detail: string }[];
  }> {
    const problems: { check: string; detail: string }[] = [];
    const report = async (check: string, query: SQL) => {
      const rows = await queryRows<Record<string, unknown>>(this.db, query);
      for (const row of rows) problems.push({ check, detail: JSON.stringify(row) });
    };
    await report(
      'entry_unbalanced',
      sql`select entry_id::text as entry_id, asset, sum(amount)::text as off_by from postings
          group by entry_id, asset having sum(amount) <> 0 order by entry_id limit 100`,
    );
    await report(
      'entry_without_postings',
      sql`select e.id::text as entry_id, e.idempotency_key from journal_entries e
          where not exists (select 1 from postings p where p.entry_id = e.id) order by e.id limit 100`,
    );
    await report(
      'balance_not_sum_of_postings',
      sql`select a.id, a.owner_account_id, a.platform_code, a.asset, a.purpose, a.balance::text as balance,
                 coalesce(s.total, 0)::text as postings_sum
          from ledger_accounts a
          left join (select ledger_account_id, sum(amount) as total from postings group by ledger_account_id) s
            on s.ledger_account_id = a.id
          where a.balance <> coalesce(s.total, 0) limit 100`,
    );
    await report(
      'negative_balance',
      sql`select id, owner_account_id, platform_code, asset, purpose, balance::text as balance
          from ledger_accounts where balance < 0 and not allow_negative limit 100`,
    );
    await report(
      'balance_after_mismatch',
      sql`select id, ledger_account_id, balance_after, running from (
            select p.id::text as id, p.ledger_account_id, p.balance_after::text as balance_after,
                   (sum(p.amount) over (partition by p.ledger_account_id order by p.id))::text as running,
                   p.balance_after = sum(p.amount) over (partition by p.ledger_account_id order by p.id) as ok
            from postings p) checked
          where not ok limit 100`,
    );
    await report(
      'idempotency_key_reused',
      sql`select idempotency_key, count(*)::int as uses from journal_entries group by idempotency_key having count(*) > 1 limit 100`,
    );
    // A full join: pending holds whose owner has no held account at all are reported too.
    await report(
      'held_balance_not_pending_holds',
      sql`select a.id, coalesce(a.owner_account_id, h.owner_account_id) as owner_account_id,
                 coalesce(a.asset, h.asset) as asset, coalesce(a.balance, 0)::text as held,
                 coalesce(h.total, 0)::text as pending_holds
          from (select id, owner_account_id, asset, balance from ledger_accounts where purpose = 'held') a
          full join (select owner_account_id, asset, sum(amount) as total from ledger_holds where status = 'pending'
                     group by owner_account_id, asset) h
            on h.owner_account_id = a.owner_account_id and h.asset = a.asset
          where coalesce(a.balance, 0) <> coalesce(h.total, 0) limit 100`,
    );
    const totals = await queryRows<{ asset: string; sum: string }>(
      this.db,
      sql`select asset, sum(balance)::text as sum from ledger_accounts group by asset order by asset`,
    );
    for (const total of totals) {
      if (!/^-?0(\.0+)?$/.test(total.sum)) problems.push({ check: 'asset_total_not_zero', detail: JSON.stringify(total) });
    }
    const [counts] = await queryRows<{ entries: number; postings: number; accounts: number }>(
      this.db,
      sql`select (select count(*)::int from journal_entries) as entries, (select count(*)::int from postings) as postings,
                 (select count(*)::int from ledger_accounts) as accounts`,
    );
    return { counts: counts ?? { entries: 0, postings: 0, accounts: 0 }, totals, problems };
  }
}
