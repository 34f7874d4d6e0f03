import { money, type Asset, type LedgerAccount, type LedgerReport, type Money, type RecordType } from '@custos/contract';
import type { SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import {
  refKey,
  rowKey,
  type HoldRow,
  type LedgerAccountRef,
  type LedgerAccountRow,
  type LedgerRepository,
  type MemberPurpose,
  type NewPosting,
  type PlatformCode,
} from './ledger.repository.js';

export type { LedgerAccountRef, MemberPurpose, PlatformCode } from './ledger.repository.js';

export interface PostingSpec {
  account: LedgerAccountRef;
  /** Signed: positive credits the account, negative debits it. */
  amount: Money;
  recordType: RecordType;
}

export interface EntrySpec {
  idempotencyKey: string;
  /** What happened (exchange, transfer, adjustment, hold…): the console groups entries by it. */
  kind: string;
  referenceType?: string;
  referenceId?: string;
  memo?: string;
  operatorId?: string;
  postings: readonly PostingSpec[];
}

export interface PostedEntry {
  entryId: string;
  /** True when the idempotency key had already posted: nothing moved this time. */
  duplicate: boolean;
}

/** A set-based entry found its rows already posted (by another run): nothing to do. */
export class NothingToPostError extends Error {
  override name = 'NothingToPostError';
  constructor(readonly idempotencyKey: string) {
    super(`settlement entry ${idempotencyKey} found nothing to post`);
  }
}

/** A programming error: an entry that could never be valid. */
export class LedgerInvariantError extends Error {
  override name = 'LedgerInvariantError';
}

export function toLedgerAccount(row: LedgerAccountRow): LedgerAccount {
  return {
    id: row.id,
    ownerAccountId: row.owner_account_id,
    platformCode: row.platform_code,
    asset: row.asset,
    purpose: row.purpose,
    balance: row.balance,
    allowNegative: row.allow_negative,
  };
}

/**
 * A hold already made for a reference is a retry only when it is the same hold: another owner, asset
 * or amount under the same reference is a caller's mistake, and answering with the existing hold would
 * let that caller believe money it never held is set aside.
 */
function sameHold(existing: HoldRow, input: { ownerAccountId: string; asset: Asset; amount: Money }): HoldRow {
  if (
    existing.owner_account_id !== input.ownerAccountId ||
    existing.asset !== input.asset ||
    money.compare(money.parseMoney(existing.amount), input.amount) !== 0
  ) {
    throw AppError.conflict('ledger.idempotency_mismatch');
  }
  return existing;
}

/**
 * The double-entry ledger every money feature posts through (docs/decisions/008-ledger.md). An entry
 * is all-or-nothing inside the caller's transaction: the entry row claims the idempotency key, the
 * touched accounts are locked in id order, the new balances are checked (never below zero for member
 * accounts), applied, and the postings appended with the balance after each.
 */
export class LedgerService {
  constructor(
    private readonly db: Db,
    private readonly repository: LedgerRepository,
  ) {}

  async post(tx: Tx, spec: EntrySpec): Promise<PostedEntry> {
    checkEntry(spec);
    const { postings, ...entry } = spec;
    return this.claimAndApply(
      tx,
      entry,
      postings.map((posting) => posting.account),
      () => postings,
    );
  }

  /**
   * `post` for an entry whose postings depend on balances (how much of a fee FUEL can pay, whether a
   * quote still holds): claims the key and locks `accounts` in one round trip, then `build` decides
   * the postings from the locked balances (missing member accounts read as zero). A retried key
   * answers `duplicate` without calling `build`. `build` may refuse by throwing; the caller's
   * transaction must then roll back, which also frees the key.
   */
  async postWithBalances(
    tx: Tx,
    entry: Omit<EntrySpec, 'postings'>,
    accounts: readonly LedgerAccountRef[],
    build: (balanceOf: (ref: LedgerAccountRef) => Money) => readonly PostingSpec[],
  ): Promise<PostedEntry> {
    if (!entry.idempotencyKey) throw new LedgerInvariantError('an entry needs an idempotency key');
    return this.claimAndApply(tx, entry, accounts, (balanceOf) => {
      const postings = build(balanceOf);
      checkEntry({ ...entry, postings });
      return postings;
    });
  }

  private async claimAndApply(
    tx: Tx,
    entry: Omit<EntrySpec, 'postings'>,
    accounts: readonly LedgerAccountRef[],
    build: (balanceOf: (ref: LedgerAccountRef) => Money) => readonly PostingSpec[],
  ): Promise<PostedEntry> {
    const refs = uniqueRefs(accounts);
    const claimed = await this.repository.insertEntryAndLock(
      tx,
      {
        idempotencyKey: entry.idempotencyKey,
        kind: entry.kind,
        referenceType: entry.referenceType ?? null,
        referenceId: entry.referenceId ?? null,
        memo: entry.memo ?? null,
        operatorId: entry.operatorId ?? null,
      },
      refs,
    );
    const entryId = claimed.entryId;
    if (entryId === null) {
      const existing = await this.repository.findEntryIdByKey(tx, entry.idempotencyKey);
      if (!existing) throw new LedgerInvariantError(`idempotency key ${entry.idempotencyKey} conflicted but has no entry`);
      return { entryId: existing, duplicate: true };
    }

    const rows = claimed.rows.length === refs.length ? claimed.rows : await this.lockRows(tx, refs);
    const byKey = new Map(rows.map((row) => [rowKey(row), row]));
    const specs = build((ref) => {
      const row = byKey.get(refKey(ref));
      return row ? money.parseMoney(row.balance) : money.ZERO;
    });

    const balances = new Map<string, Money>();
    const postings: NewPosting[] = [];
    for (const posting of specs) {
      const row = byKey.get(refKey(posting.account));
      if (!row) throw new LedgerInvariantError(`ledger account ${refKey(posting.account)} was not locked`);
      const before = balances.get(row.id) ?? money.parseMoney(row.balance);
      const after = money.add(before, posting.amount);
      if (after < 0n && !row.allow_negative) {
        throw AppError.conflict('ledger.insufficient_balance', { asset: row.asset });
      }
      balances.set(row.id, after);
      postings.push({
        ledgerAccountId: row.id,
        asset: row.asset,
        amount: money.formatMoney(posting.amount),
        balanceAfter: money.formatMoney(after),
        recordType: posting.recordType,
      });
    }
    const deltas = [...balances.entries()].map(([id, after]) => {
      const row = rows.find((candidate) => candidate.id === id)!;
      return { id, delta: money.formatMoney(money.subtract(after, money.parseMoney(row.balance))) };
    });
    await this.repository.applyPostings(tx, entryId, deltas, postings);
    return { entryId, duplicate: false };
  }

  /**
   * Locks accounts (in the ledger's fixed order) before a feature decides amounts that depend on
   * balances, e.g. how much of a fee FUEL can pay. A later `post` in the same transaction on these
   * accounts re-reads them under the same locks. Missing member accounts read as zero.
   */
  async lockBalances(tx: Tx, refs: readonly LedgerAccountRef[]): Promise<(ref: LedgerAccountRef) => Money> {
    const rows = await this.lockRows(tx, refs);
    const byKey = new Map(rows.map((row) => [rowKey(row), money.parseMoney(row.balance)]));
    return (ref) => byKey.get(refKey(ref)) ?? money.ZERO;
  }

  private async lockRows(tx: Tx, accounts: readonly LedgerAccountRef[]): Promise<LedgerAccountRow[]> {
    const refs = uniqueRefs(accounts);
    const rows = await this.repository.lockAccounts(tx, refs);
    if (rows.length === refs.length) return rows;
    // Member accounts are opened with the account (migration 0008), so this is only a safety net.
    const found = new Set(rows.map(rowKey));
    const missing = refs.filter((ref) => !found.has(refKey(ref)));
    const missingPlatform = missing.find((ref) => 'platformCode' in ref);
    if (missingPlatform) throw new LedgerInvariantError(`no platform account ${refKey(missingPlatform)}`);
    await this.repository.createMemberAccounts(tx, missing as Extract<LedgerAccountRef, { ownerAccountId: string }>[]);
    return this.repository.lockAccounts(tx, refs);
  }

  /** Moves `amount` from available to held for something pending; settled later by capture or release. */
  async hold(
    tx: Tx,
    input: {
      ownerAccountId: string;
      asset: Asset;
      amount: Money;
      referenceType: string;
      referenceId: string;
      recordType?: RecordType;
    },
  ): Promise<HoldRow> {
    if (input.amount <= 0n) throw new LedgerInvariantError('a hold must be positive');
    const existing = await this.repository.lockHold(tx, input.referenceType, input.referenceId);
    if (existing) return sameHold(existing, input);
    const posted = await this.post(tx, {
      idempotencyKey: `hold:${input.referenceType}:${input.referenceId}`,
      kind: 'hold',
      referenceType: input.referenceType,
      referenceId: input.referenceId,
      postings: [
        {
          account: { ownerAccountId: input.ownerAccountId, asset: input.asset, purpose: 'available' },
          amount: money.negate(input.amount),
          recordType: input.recordType ?? 'hold',
        },
        {
          account: { ownerAccountId: input.ownerAccountId, asset: input.asset, purpose: 'held' },
          amount: input.amount,
          recordType: input.recordType ?? 'hold',
        },
      ],
    });
    if (posted.duplicate) {
      // A concurrent call with the same reference won the race and has committed its hold.
      const winner = await this.repository.lockHold(tx, input.referenceType, input.referenceId);
      if (!winner) throw new LedgerInvariantError(`hold entry for ${input.referenceId} exists without its hold`);
      return sameHold(winner, input);
    }
    return this.repository.insertHold(tx, {
      ownerAccountId: input.ownerAccountId,
      asset: input.asset,
      amount: money.formatMoney(input.amount),
      referenceType: input.referenceType,
      referenceId: input.referenceId,
      holdEntryId: posted.entryId,
    });
  }

  /** Sends held funds on to `to` (a platform account, or another member's available balance). */
  async captureHold(
    tx: Tx,
    reference: { referenceType: string; referenceId: string },
    to: LedgerAccountRef,
    recordTypes: { from: RecordType; to: RecordType },
  ): Promise<PostedEntry> {
    return this.settle(tx, reference, 'captured', (hold) => [
      {
        account: { ownerAccountId: hold.owner_account_id, asset: hold.asset, purpose: 'held' },
        amount: money.negate(money.parseMoney(hold.amount)),
        recordType: recordTypes.from,
      },
      { account: to, amount: money.parseMoney(hold.amount), recordType: recordTypes.to },
    ]);
  }

  /**
   * Sends held funds on to several accounts at once (a withdrawal: the amount paid out and the fee);
   * the destinations must add up to the hold.
   */
  async captureHoldSplit(
    tx: Tx,
    reference: { referenceType: string; referenceId: string },
    destinations: readonly PostingSpec[],
    fromRecordType: RecordType,
  ): Promise<PostedEntry> {
    return this.settle(tx, reference, 'captured', (hold) => capturePostings(hold, destinations, fromRecordType));
  }

  /** Returns held funds to the owner's available balance. */
  async releaseHold(
    tx: Tx,
    reference: { referenceType: string; referenceId: string },
    recordType: RecordType = 'hold_release',
  ): Promise<PostedEntry> {
    return this.settle(tx, reference, 'released', (hold) => releasePostings(hold, recordType));
  }

  /**
   * Moves part (or all) of a pending hold to another reference of the same owner and asset, in one
   * entry (docs/decisions/031-otc.md): an OTC listing's escrow becomes an order's escrow when the
   * listing is taken, and comes back when the order is cancelled. The held balance does not change
   * (the entry's two postings are on the owner's held account), so the checker's "held equals
   * pending holds" keeps holding; `from` shrinks (settled as captured when used up) and `to` grows
   * (made when missing). Nothing can move more than `from` holds. A retried key moves nothing.
   */
  async moveHold(
    tx: Tx,
    input: {
      from: { referenceType: string; referenceId: string };
      to: { referenceType: string; referenceId: string };
      amount: Money;
      idempotencyKey: string;
      recordType: RecordType;
    },
  ): Promise<PostedEntry> {
    if (input.amount <= 0n) throw new LedgerInvariantError('a hold move must be positive');
    const from = await this.repository.lockHold(tx, input.from.referenceType, input.from.referenceId);
    if (!from) throw new LedgerInvariantError(`no hold ${input.from.referenceType}:${input.from.referenceId} to move from`);
    const existingEntry = await this.repository.findEntryIdByKey(tx, input.idempotencyKey);
    if (existingEntry) return { entryId: existingEntry, duplicate: true };
    if (from.status !== 'pending') throw new LedgerInvariantError(`hold ${from.id} is ${from.status}, nothing to move`);
    const fromAmount = money.parseMoney(from.amount);
    if (input.amount > fromAmount) {
      throw new LedgerInvariantError(`hold ${from.id} holds ${from.amount}, cannot move ${money.formatMoney(input.amount)}`);
    }
    const to = await this.repository.lockHold(tx, input.to.referenceType, input.to.referenceId);
    if (to && (to.status !== 'pending' || to.owner_account_id !== from.owner_account_id || to.asset !== from.asset)) {
      throw new LedgerInvariantError(`hold ${to.id} cannot receive from ${from.id}`);
    }
    const held = { ownerAccountId: from.owner_account_id, asset: from.asset, purpose: 'held' as const };
    const posted = await this.post(tx, {
      idempotencyKey: input.idempotencyKey,
      kind: 'hold_move',
      referenceType: input.to.referenceType,
      referenceId: input.to.referenceId,
      memo: `from ${input.from.referenceType}:${input.from.referenceId}`,
      postings: [
        { account: held, amount: money.negate(input.amount), recordType: input.recordType },
        { account: held, amount: input.amount, recordType: input.recordType },
      ],
    });
    if (posted.duplicate) return posted;
    const rest = money.subtract(fromAmount, input.amount);
    if (rest === 0n) await this.repository.settleHold(tx, from.id, 'captured', posted.entryId);
    else await this.repository.resizeHold(tx, from.id, money.formatMoney(rest));
    if (to) await this.repository.resizeHold(tx, to.id, money.formatMoney(money.add(money.parseMoney(to.amount), input.amount)));
    else {
      await this.repository.insertHold(tx, {
        ownerAccountId: from.owner_account_id,
        asset: from.asset,
        amount: money.formatMoney(input.amount),
        referenceType: input.to.referenceType,
        referenceId: input.to.referenceId,
        holdEntryId: posted.entryId,
      });
    }
    return posted;
  }

  /** A pending hold's amount (zero when there is none or it was settled). */
  async heldFor(tx: Tx, reference: { referenceType: string; referenceId: string }): Promise<Money> {
    const hold = await this.repository.lockHold(tx, reference.referenceType, reference.referenceId);
    return hold && hold.status === 'pending' ? money.parseMoney(hold.amount) : money.ZERO;
  }

  /**
   * `post` for many entries at once (a batch of contract closes): every key claimed and every account
   * locked in one round trip (the ledger's fixed order), every balance moved and every posting
   * appended in a second, whatever the number of entries. Entries take ids in the order given and
   * each posting's `balance_after` runs in that order. The same checks as `post`: each entry balanced
   * per asset, no account below zero unless allowed (the whole batch is refused). A key that has
   * posted already moves nothing (`duplicate`); a key given twice is refused. Answers in `specs`' order.
   */
  async postMany(tx: Tx, specs: readonly EntrySpec[]): Promise<PostedEntry[]> {
    if (specs.length === 0) return [];
    const keys = new Set<string>();
    for (const spec of specs) {
      checkEntry(spec);
      if (keys.has(spec.idempotencyKey))
        throw new LedgerInvariantError(`idempotency key ${spec.idempotencyKey} twice in one batch`);
      keys.add(spec.idempotencyKey);
    }
    const refs = uniqueRefs(specs.flatMap((spec) => spec.postings.map((posting) => posting.account)));
    const { claimed, rows: lockedRows } = await this.repository.insertEntriesAndLock(
      tx,
      specs.map((spec) => ({
        idempotencyKey: spec.idempotencyKey,
        kind: spec.kind,
        referenceType: spec.referenceType ?? null,
        referenceId: spec.referenceId ?? null,
        memo: spec.memo ?? null,
        operatorId: spec.operatorId ?? null,
      })),
      refs,
    );
    const claimedIds = new Map(claimed.map((entry) => [entry.key, entry.id]));
    if (claimed.length > 0) {
      const rows = lockedRows.length === refs.length ? lockedRows : await this.lockRows(tx, refs);
      const byKey = new Map(rows.map((row) => [rowKey(row), row]));
      const balances = new Map<string, Money>();
      const postings: (NewPosting & { entryId: string })[] = [];
      const inIdOrder = specs
        .filter((spec) => claimedIds.has(spec.idempotencyKey))
        .map((spec) => ({ spec, entryId: claimedIds.get(spec.idempotencyKey)! }))
        .sort((a, b) => (BigInt(a.entryId) < BigInt(b.entryId) ? -1 : 1));
      for (const { spec, entryId } of inIdOrder) {
        for (const posting of spec.postings) {
          const row = byKey.get(refKey(posting.account));
          if (!row) throw new LedgerInvariantError(`ledger account ${refKey(posting.account)} was not locked`);
          const after = money.add(balances.get(row.id) ?? money.parseMoney(row.balance), posting.amount);
          if (after < 0n && !row.allow_negative) throw AppError.conflict('ledger.insufficient_balance', { asset: row.asset });
          balances.set(row.id, after);
          postings.push({
            entryId,
            ledgerAccountId: row.id,
            asset: row.asset,
            amount: money.formatMoney(posting.amount),
            balanceAfter: money.formatMoney(after),
            recordType: posting.recordType,
          });
        }
      }
      const deltas = [...balances.entries()].map(([id, after]) => ({
        id,
        delta: money.formatMoney(money.subtract(after, money.parseMoney(rows.find((row) => row.id === id)!.balance))),
      }));
      await this.repository.applyPostingsMany(tx, deltas, postings);
    }
    const posted = specs.filter((spec) => !claimedIds.has(spec.idempotencyKey)).map((spec) => spec.idempotencyKey);
    const existing = await this.repository.findEntryIdsByKeys(tx, posted);
    return specs.map((spec) => {
      const entryId = claimedIds.get(spec.idempotencyKey);
      if (entryId !== undefined) return { entryId, duplicate: false };
      const existingId = existing.get(spec.idempotencyKey);
      if (!existingId) throw new LedgerInvariantError(`idempotency key ${spec.idempotencyKey} conflicted but has no entry`);
      return { entryId: existingId, duplicate: true };
    });
  }

  /**
   * `releaseHold` and `captureHoldSplit` for many holds at once, with `alsoPost` entries in the same
   * batch (a contract's profit, paid beside the release of its margin): the holds locked in one
   * statement (id order), every entry through `postMany`, the holds marked settled in one statement.
   * A hold settled already the same way is a retry (its entry answers duplicate); settled the other
   * way, or missing, refuses the whole batch. Answers the settlements' entries, then `alsoPost`'s.
   */
  async settleHolds(tx: Tx, settlements: readonly HoldSettlement[], alsoPost: readonly EntrySpec[] = []): Promise<PostedEntry[]> {
    const holds = await this.repository.lockHolds(
      tx,
      settlements.map((item) => item.reference),
    );
    const byReference = new Map(holds.map((hold) => [`${hold.reference_type}\u0000${hold.reference_id}`, hold]));
    const pending: { index: number; hold: HoldRow; status: 'captured' | 'released'; spec: EntrySpec }[] = [];
    const retried: { index: number; key: string }[] = [];
    settlements.forEach((item, index) => {
      const hold = byReference.get(`${item.reference.referenceType}\u0000${item.reference.referenceId}`);
      if (!hold) throw AppError.notFound();
      if (hold.status !== 'pending') {
        if (hold.status !== item.status) throw AppError.conflict();
        retried.push({ index, key: holdSettleKey(hold) });
        return;
      }
      pending.push({
        index,
        hold,
        status: item.status,
        spec: {
          idempotencyKey: holdSettleKey(hold),
          kind: item.status === 'captured' ? 'hold_capture' : 'hold_release',
          referenceType: item.reference.referenceType,
          referenceId: item.reference.referenceId,
          postings:
            item.status === 'released'
              ? releasePostings(hold, item.recordType)
              : capturePostings(hold, item.destinations, item.recordType),
        },
      });
    });
    const posted = await this.postMany(tx, [...pending.map((item) => item.spec), ...alsoPost]);
    await this.repository.settleHoldsMany(
      tx,
      pending.map((item, index) => ({ holdId: item.hold.id, status: item.status, entryId: posted[index]!.entryId })),
    );
    const existing = await this.repository.findEntryIdsByKeys(
      tx,
      retried.map((item) => item.key),
    );
    const results: PostedEntry[] = new Array<PostedEntry>(settlements.length);
    pending.forEach((item, position) => {
      results[item.index] = posted[position]!;
    });
    for (const item of retried) {
      const entryId = existing.get(item.key);
      if (!entryId) throw AppError.conflict();
      results[item.index] = { entryId, duplicate: true };
    }
    return [...results, ...posted.slice(pending.length)];
  }

  private async settle(
    tx: Tx,
    reference: { referenceType: string; referenceId: string },
    status: 'captured' | 'released',
    postingsOf: (hold: HoldRow) => PostingSpec[],
  ): Promise<PostedEntry> {
    const hold = await this.repository.lockHold(tx, reference.referenceType, reference.referenceId);
    if (!hold) throw AppError.notFound();
    const idempotencyKey = holdSettleKey(hold);
    if (hold.status !== 'pending') {
      // Settling again the same way is a retry; settling the other way is a state error.
      const entryId = hold.status === status ? await this.repository.findEntryIdByKey(tx, idempotencyKey) : null;
      if (!entryId) throw AppError.conflict();
      return { entryId, duplicate: true };
    }
    const posted = await this.post(tx, {
      idempotencyKey,
      kind: status === 'captured' ? 'hold_capture' : 'hold_release',
      referenceType: reference.referenceType,
      referenceId: reference.referenceId,
      postings: postingsOf(hold),
    });
    await this.repository.settleHold(tx, hold.id, status, posted.entryId);
    return posted;
  }

  /**
   * A set-based entry for the settlement: claims `idempotencyKey` (null if it has posted already) and
   * posts every row of `source` (owner_account_id, amount) on the member side with the given legs,
   * balanced by the platform account when given. `fill` runs after the claim and before the
   * postings, inside the same transaction (it writes the feature's rows the source reads).
   */
  async postSettlement(
    tx: Tx,
    entry: { idempotencyKey: string; kind: string; referenceType?: string; referenceId?: string },
    fill: (entryId: string) => Promise<number>,
    source: (entryId: string) => SQL,
    asset: Asset,
    legs: readonly { purpose: MemberPurpose; sign: 1 | -1; recordType: RecordType }[],
    counter?: { platformCode: PlatformCode; recordType: RecordType },
  ): Promise<{ entryId: string; rows: number; total: Money } | null> {
    const entryId = await this.repository.claimEntry(tx, {
      idempotencyKey: entry.idempotencyKey,
      kind: entry.kind,
      referenceType: entry.referenceType ?? null,
      referenceId: entry.referenceId ?? null,
      memo: null,
      operatorId: null,
    });
    if (entryId === null) return null;
    const rows = await fill(entryId);
    // Another run paid these rows first: throwing rolls the claim back with the transaction.
    if (rows === 0) throw new NothingToPostError(entry.idempotencyKey);
    const total = await this.repository.postFromSource(tx, entryId, source(entryId), asset, legs, counter);
    return { entryId, rows, total: money.parseMoney(total) };
  }

  /**
   * One entry per row of `source` (idempotency_key, owner_account_id, amount, reference_id), set-based,
   * inside the caller's transaction: for earnings paid per member, day and type (team earnings). Each
   * entry credits the member and debits the platform account; a key that has posted already is skipped.
   */
  async postEach(
    tx: Tx,
    source: SQL,
    entry: { kind: string; referenceType: string },
    asset: Asset,
    leg: { purpose: MemberPurpose; recordType: RecordType },
    counter: { platformCode: PlatformCode; recordType: RecordType },
  ): Promise<{ entries: number; total: Money }> {
    const posted = await this.repository.postEach(tx, source, entry, asset, leg, counter);
    return { entries: posted.entries, total: money.parseMoney(posted.total) };
  }

  /** Balances of member accounts, by account id, asset and purpose (missing ones are zero). */
  async balancesOf(accountIds: readonly string[]): Promise<Map<string, Money>> {
    const rows = await this.repository.accountsOwnedBy(accountIds);
    return new Map(
      rows.map((row) => [`${row.owner_account_id ?? ''}:${row.asset}:${row.purpose}`, money.parseMoney(row.balance)]),
    );
  }

  async ledgerAccountsOf(accountIds: readonly string[]): Promise<LedgerAccount[]> {
    return (await this.repository.accountsOwnedBy(accountIds)).map(toLedgerAccount);
  }

  async platformAccounts(): Promise<LedgerAccount[]> {
    return (await this.repository.platformAccounts()).map(toLedgerAccount);
  }

  log(...args: Parameters<LedgerRepository['log']>) {
    return this.repository.log(...args);
  }

  fuelTicketLog(...args: Parameters<LedgerRepository['fuelTicketLog']>) {
    return this.repository.fuelTicketLog(...args);
  }

  adminPostings(...args: Parameters<LedgerRepository['adminPostings']>) {
    return this.repository.adminPostings(...args);
  }

  /** Proves the ledger's invariants over the whole database (`npm run ledger:verify`). */
  async verify(): Promise<LedgerReport> {
    const result = await this.repository.verify();
    return { clean: result.problems.length === 0, checkedAt: new Date().toISOString(), ...result };
  }

  /** Runs `work` in a transaction: the usual way a feature posts with its own rows. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}

/** One hold to settle in `LedgerService.settleHolds`: released to its owner, or captured to `destinations`. */
export type HoldSettlement =
  | { reference: { referenceType: string; referenceId: string }; status: 'released'; recordType: RecordType }
  | {
      reference: { referenceType: string; referenceId: string };
      status: 'captured';
      /** Where the held amount goes; they must add up to the hold. */
      destinations: readonly PostingSpec[];
      /** The record type of the held side. */
      recordType: RecordType;
    };

function holdSettleKey(hold: HoldRow): string {
  return `hold-settle:${hold.id}`;
}

/** A release: the held amount back to the owner's available balance. */
function releasePostings(hold: HoldRow, recordType: RecordType): PostingSpec[] {
  return [
    {
      account: { ownerAccountId: hold.owner_account_id, asset: hold.asset, purpose: 'held' },
      amount: money.negate(money.parseMoney(hold.amount)),
      recordType,
    },
    {
      account: { ownerAccountId: hold.owner_account_id, asset: hold.asset, purpose: 'available' },
      amount: money.parseMoney(hold.amount),
      recordType,
    },
  ];
}

/** A capture: the held amount to `destinations`, which must add up to it. */
function capturePostings(hold: HoldRow, destinations: readonly PostingSpec[], fromRecordType: RecordType): PostingSpec[] {
  const total = money.sum(destinations.map((destination) => destination.amount));
  if (total !== money.parseMoney(hold.amount)) {
    throw new LedgerInvariantError(
      `capture of ${hold.reference_id} pays ${money.formatMoney(total)}, the hold is ${hold.amount}`,
    );
  }
  return [
    {
      account: { ownerAccountId: hold.owner_account_id, asset: hold.asset, purpose: 'held' },
      amount: money.negate(money.parseMoney(hold.amount)),
      recordType: fromRecordType,
    },
    ...destinations.filter((destination) => destination.amount !== 0n),
  ];
}

function uniqueRefs(refs: readonly LedgerAccountRef[]): LedgerAccountRef[] {
  const seen = new Map<string, LedgerAccountRef>();
  for (const ref of refs) seen.set(refKey(ref), ref);
  return [...seen.values()];
}

function checkEntry(spec: EntrySpec): void {
  if (!spec.idempotencyKey) throw new LedgerInvariantError('an entry needs an idempotency key');
  if (spec.postings.length < 2) throw new LedgerInvariantError('an entry needs at least two postings');
  const totals = new Map<Asset, bigint>();
  for (const posting of spec.postings) {
    if (posting.amount === 0n) throw new LedgerInvariantError('a posting cannot be zero');
    totals.set(posting.account.asset, (totals.get(posting.account.asset) ?? 0n) + posting.amount);
  }
  for (const [asset, total] of totals) {
    if (total !== 0n) throw new LedgerInvariantError(`entry ${spec.idempotencyKey} does not balance in ${asset} (${total})`);
  }
}
