import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { money } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { AppError } from '../src/http/app-error.js';
import {
  LedgerInvariantError,
  type LedgerAccountRef,
  type PlatformCode,
  type PostingSpec,
} from '../src/modules/ledger/ledger.service.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund } from './support/ledger.js';
import { createOperator, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Tests written against the ledger's surviving mutants (issue 31, docs/mutation/ledger.md): what the
 * journal entry records (kind, reference, memo, operator), the record type of every posting, the
 * running balance of two postings on one account, and the refusals of holds and settlements.
 * New tests go at the END of this file (Stryker's incremental reuse keys on test names and positions).
 */

let t: TestApp;
const m = money.parseMoney;
const db = () => t.testDatabase.database.db;
const origin = { ip: '127.0.0.1', userAgent: null, requestId: 'ledger-mutants' };

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function member(name: string): Promise<string> {
  return accountIdOf(t, await registerMember(t, `ledger-mutants-${name}-${randomUUID().slice(0, 8)}@example.com`));
}

interface EntryRow {
  kind: string;
  reference_type: string | null;
  reference_id: string | null;
  memo: string | null;
  operator_id: string | null;
}

async function entry(entryId: string): Promise<EntryRow> {
  const [row] = await queryRows<EntryRow>(
    db(),
    sql`select kind, reference_type, reference_id, memo, operator_id::text as operator_id
        from journal_entries where id = ${entryId}::bigint`,
  );
  return row!;
}

/** An entry's postings in order: which account (owner or platform code, and purpose), amount, balance after, record type. */
async function postingsOf(entryId: string) {
  return queryRows<{ account: string; amount: string; balance_after: string; record_type: string }>(
    db(),
    sql`select coalesce(a.platform_code, a.owner_account_id::text || ':' || a.purpose) as account,
               p.amount::text as amount, p.balance_after::text as balance_after, p.record_type
        from postings p join ledger_accounts a on a.id = p.ledger_account_id
        where p.entry_id = ${entryId}::bigint order by p.id`,
  );
}

async function holdRow(referenceType: string, referenceId: string) {
  const [row] = await queryRows<{ amount: string; status: string; hold_entry_id: string; settle_entry_id: string | null }>(
    db(),
    sql`select amount::text as amount, status, hold_entry_id::text as hold_entry_id, settle_entry_id::text as settle_entry_id
        from ledger_holds where reference_type = ${referenceType} and reference_id = ${referenceId}`,
  );
  return row;
}

describe('adjustments: what the approved entry records', () => {
  it('posts a credit and a debit with their record types, reference, memo, operator and note', async () => {
    const accountId = await member('adjusted');
    const proposer = await createOperator(t, `lm-proposer-${randomUUID().slice(0, 8)}`, 'finance');
    const approver = await createOperator(t, `lm-approver-${randomUUID().slice(0, 8)}`, 'finance');
    const adjustments = t.services.adjustments;
    const balances = await trackBalances(t, { member: accountId });

    const credit = await adjustments.propose(
      proposer.id,
      { accountId, asset: 'USDT', direction: 'credit', amount: '40', reason: 'ticket 7 compensation' },
      origin,
    );
    const approvedCredit = await adjustments.approve(approver.id, credit.id, 'checked', origin);
    expect(approvedCredit).toMatchObject({ status: 'approved', decisionNote: 'checked' });
    await balances.expectChanges({ 'member:USDT:available': '40.0000', 'platform:adjustments:USDT': '-40.0000' });
    expect(await entry(approvedCredit.entryId!)).toEqual({
      kind: 'adjustment',
      reference_type: 'ledger_adjustment',
      reference_id: credit.id,
      memo: 'ticket 7 compensation',
      operator_id: approver.id,
    });
    expect((await postingsOf(approvedCredit.entryId!)).map((row) => [row.account, row.amount, row.record_type])).toEqual([
      [`${accountId}:available`, '40.0000', 'adjustment_credit'],
      ['adjustments', '-40.0000', 'adjustment_credit'],
    ]);

    const debit = await adjustments.propose(
      proposer.id,
      { accountId, asset: 'USDT', direction: 'debit', amount: '15.5', reason: 'duplicate credit' },
      origin,
    );
    const approvedDebit = await adjustments.approve(approver.id, debit.id, undefined, origin);
    expect(approvedDebit).toMatchObject({ status: 'approved', decisionNote: null });
    await balances.expectChanges({ 'member:USDT:available': '-15.5000', 'platform:adjustments:USDT': '15.5000' });
    expect((await postingsOf(approvedDebit.entryId!)).map((row) => [row.account, row.amount, row.record_type])).toEqual([
      [`${accountId}:available`, '-15.5000', 'adjustment_debit'],
      ['adjustments', '15.5000', 'adjustment_debit'],
    ]);
    expect((await entry(approvedDebit.entryId!)).memo).toBe('duplicate credit');
  });
});

describe('holds: the entries they post', () => {
  it('holds with a record type, captures with distinct record types, releases with the default one', async () => {
    const owner = await member('holder');
    await fund(t, owner, 'USDT', '100');
    const ledger = t.services.ledger;
    const balances = await trackBalances(t, { owner });

    const hold = await ledger.transaction((tx) =>
      ledger.hold(tx, {
        ownerAccountId: owner,
        asset: 'USDT',
        amount: m('30'),
        referenceType: 'lm_hold',
        referenceId: 'h1',
        recordType: 'withdraw',
      }),
    );
    expect(hold).toMatchObject({ status: 'pending', amount: '30.0000', reference_type: 'lm_hold', reference_id: 'h1' });
    await balances.expectChanges({ 'owner:USDT:available': '-30.0000', 'owner:USDT:held': '30.0000' });
    const holdEntry = (await holdRow('lm_hold', 'h1'))!.hold_entry_id;
    expect(await entry(holdEntry)).toEqual({
      kind: 'hold',
      reference_type: 'lm_hold',
      reference_id: 'h1',
      memo: null,
      operator_id: null,
    });
    expect(await postingsOf(holdEntry)).toEqual([
      { account: `${owner}:available`, amount: '-30.0000', balance_after: '70.0000', record_type: 'withdraw' },
      { account: `${owner}:held`, amount: '30.0000', balance_after: '30.0000', record_type: 'withdraw' },
    ]);

    const captured = await ledger.transaction((tx) =>
      ledger.captureHold(
        tx,
        { referenceType: 'lm_hold', referenceId: 'h1' },
        { platformCode: 'fees', asset: 'USDT' },
        { from: 'withdraw', to: 'withdraw_fee' },
      ),
    );
    expect(captured.duplicate).toBe(false);
    await balances.expectChanges({ 'owner:USDT:held': '-30.0000', 'platform:fees:USDT': '30.0000' });
    expect(await entry(captured.entryId)).toMatchObject({ kind: 'hold_capture', reference_type: 'lm_hold', reference_id: 'h1' });
    expect((await postingsOf(captured.entryId)).map((row) => [row.account, row.amount, row.record_type])).toEqual([
      [`${owner}:held`, '-30.0000', 'withdraw'],
      ['fees', '30.0000', 'withdraw_fee'],
    ]);
    expect(await holdRow('lm_hold', 'h1')).toEqual({
      amount: '30.0000',
      status: 'captured',
      hold_entry_id: holdEntry,
      settle_entry_id: captured.entryId,
    });

    // A hold without a record type posts as `hold`; its release as `hold_release`.
    const second = await ledger.transaction((tx) =>
      ledger.hold(tx, { ownerAccountId: owner, asset: 'USDT', amount: m('12.5'), referenceType: 'lm_hold', referenceId: 'h2' }),
    );
    expect(second.amount).toBe('12.5000');
    expect((await postingsOf((await holdRow('lm_hold', 'h2'))!.hold_entry_id)).map((row) => row.record_type)).toEqual([
      'hold',
      'hold',
    ]);
    const released = await ledger.transaction((tx) => ledger.releaseHold(tx, { referenceType: 'lm_hold', referenceId: 'h2' }));
    expect(await entry(released.entryId)).toMatchObject({ kind: 'hold_release', reference_type: 'lm_hold', reference_id: 'h2' });
    expect(await postingsOf(released.entryId)).toEqual([
      { account: `${owner}:held`, amount: '-12.5000', balance_after: '0.0000', record_type: 'hold_release' },
      { account: `${owner}:available`, amount: '12.5000', balance_after: '70.0000', record_type: 'hold_release' },
    ]);
    expect(await holdRow('lm_hold', 'h2')).toMatchObject({ status: 'released', settle_entry_id: released.entryId });
    // Released again: a retry, the same entry; capturing it now is a state error.
    expect(
      await ledger.transaction((tx) => ledger.releaseHold(tx, { referenceType: 'lm_hold', referenceId: 'h2' }, 'withdraw')),
    ).toEqual({ entryId: released.entryId, duplicate: true });
    await expect(
      ledger.transaction((tx) =>
        ledger.captureHold(
          tx,
          { referenceType: 'lm_hold', referenceId: 'h2' },
          { platformCode: 'fees', asset: 'USDT' },
          { from: 'withdraw', to: 'withdraw_fee' },
        ),
      ),
    ).rejects.toMatchObject({ code: 409 });
    await balances.expectChanges({});
  });

  it('captures a hold split over several accounts, once, dropping a zero destination', async () => {
    const owner = await member('splitter');
    const payee = await member('payee');
    await fund(t, owner, 'USDT', '50');
    const ledger = t.services.ledger;
    await ledger.transaction((tx) =>
      ledger.hold(tx, { ownerAccountId: owner, asset: 'USDT', amount: m('20'), referenceType: 'lm_split', referenceId: 's1' }),
    );
    const balances = await trackBalances(t, { owner, payee });
    const destinations: PostingSpec[] = [
      { account: { ownerAccountId: payee, asset: 'USDT', purpose: 'available' }, amount: m('18.75'), recordType: 'transfer_in' },
      { account: { platformCode: 'fees', asset: 'USDT' }, amount: m('1.25'), recordType: 'withdraw_fee' },
      { account: { platformCode: 'withdrawals', asset: 'USDT' }, amount: money.ZERO, recordType: 'withdraw' },
    ];
    const split = () =>
      ledger.transaction((tx) =>
        ledger.captureHoldSplit(tx, { referenceType: 'lm_split', referenceId: 's1' }, destinations, 'transfer_out'),
      );
    const first = await split();
    expect(first.duplicate).toBe(false);
    await balances.expectChanges({
      'owner:USDT:held': '-20.0000',
      'payee:USDT:available': '18.7500',
      'platform:fees:USDT': '1.2500',
    });
    expect(await entry(first.entryId)).toMatchObject({ kind: 'hold_capture', reference_type: 'lm_split', reference_id: 's1' });
    expect((await postingsOf(first.entryId)).map((row) => [row.account, row.amount, row.record_type])).toEqual([
      [`${owner}:held`, '-20.0000', 'transfer_out'],
      [`${payee}:available`, '18.7500', 'transfer_in'],
      ['fees', '1.2500', 'withdraw_fee'],
    ]);
    expect(await holdRow('lm_split', 's1')).toMatchObject({ status: 'captured', settle_entry_id: first.entryId });
    expect(await split()).toEqual({ entryId: first.entryId, duplicate: true });
    await expect(
      ledger.transaction((tx) => ledger.releaseHold(tx, { referenceType: 'lm_split', referenceId: 's1' })),
    ).rejects.toMatchObject({ code: 409 });
    await balances.expectChanges({});
  });

  it('refuses a hold that is not positive, and settling a hold that does not exist', async () => {
    const owner = await member('refused');
    await fund(t, owner, 'USDT', '10');
    const ledger = t.services.ledger;
    const balances = await trackBalances(t, { owner });
    for (const amount of ['0', '-5']) {
      await expect(
        ledger.transaction((tx) =>
          ledger.hold(tx, {
            ownerAccountId: owner,
            asset: 'USDT',
            amount: m(amount),
            referenceType: 'lm_bad',
            referenceId: amount,
          }),
        ),
      ).rejects.toThrow(new LedgerInvariantError('a hold must be positive'));
    }
    const missing = { referenceType: 'lm_bad', referenceId: 'nothing' };
    await expect(ledger.transaction((tx) => ledger.releaseHold(tx, missing))).rejects.toMatchObject({ code: 404 });
    await expect(
      ledger.transaction((tx) =>
        ledger.captureHold(tx, missing, { platformCode: 'fees', asset: 'USDT' }, { from: 'withdraw', to: 'withdraw_fee' }),
      ),
    ).rejects.toBeInstanceOf(AppError);
    await expect(ledger.transaction((tx) => ledger.captureHoldSplit(tx, missing, [], 'withdraw'))).rejects.toMatchObject({
      code: 404,
    });
    expect(await holdRow('lm_bad', '0')).toBeUndefined();
    expect(await holdRow('lm_bad', '-5')).toBeUndefined();
    await balances.expectChanges({});
  });

  it('refuses a hold whose entry key was used by an entry without a hold', async () => {
    const owner = await member('raced');
    await fund(t, owner, 'USDT', '10');
    const ledger = t.services.ledger;
    // The hold's own key, posted by something else first (as a concurrent hold that lost its row would leave it).
    await ledger.transaction((tx) =>
      ledger.post(tx, {
        idempotencyKey: 'hold:lm_race:r1',
        kind: 'test',
        postings: [
          {
            account: { ownerAccountId: owner, asset: 'USDT', purpose: 'available' },
            amount: m('-1'),
            recordType: 'transfer_out',
          },
          { account: { platformCode: 'fees', asset: 'USDT' }, amount: m('1'), recordType: 'transfer_in' },
        ],
      }),
    );
    const balances = await trackBalances(t, { owner });
    await expect(
      ledger.transaction((tx) =>
        ledger.hold(tx, { ownerAccountId: owner, asset: 'USDT', amount: m('3'), referenceType: 'lm_race', referenceId: 'r1' }),
      ),
    ).rejects.toThrow(new LedgerInvariantError('hold entry for r1 exists without its hold'));
    expect(await holdRow('lm_race', 'r1')).toBeUndefined();
    await balances.expectChanges({});
  });
});

describe('post and postWithBalances', () => {
  it('runs the balance after each posting of one account within an entry', async () => {
    const a = await member('runner');
    const b = await member('runner-b');
    await fund(t, a, 'USDT', '10');
    const ledger = t.services.ledger;
    const balances = await trackBalances(t, { a, b });
    const available = (owner: string) => ({ ownerAccountId: owner, asset: 'USDT' as const, purpose: 'available' as const });
    const posted = await ledger.transaction((tx) =>
      ledger.post(tx, {
        idempotencyKey: `lm-run-${randomUUID()}`,
        kind: 'test',
        referenceType: 'lm_ref',
        referenceId: 'x1',
        memo: 'two legs on one account',
        postings: [
          { account: available(a), amount: m('-10'), recordType: 'transfer_out' },
          { account: available(a), amount: m('4'), recordType: 'transfer_in' },
          { account: available(b), amount: m('6'), recordType: 'transfer_in' },
        ],
      }),
    );
    await balances.expectChanges({ 'a:USDT:available': '-6.0000', 'b:USDT:available': '6.0000' });
    expect(await postingsOf(posted.entryId)).toEqual([
      { account: `${a}:available`, amount: '-10.0000', balance_after: '0.0000', record_type: 'transfer_out' },
      { account: `${a}:available`, amount: '4.0000', balance_after: '4.0000', record_type: 'transfer_in' },
      { account: `${b}:available`, amount: '6.0000', balance_after: '6.0000', record_type: 'transfer_in' },
    ]);
    expect(await entry(posted.entryId)).toEqual({
      kind: 'test',
      reference_type: 'lm_ref',
      reference_id: 'x1',
      memo: 'two legs on one account',
      operator_id: null,
    });
  });

  it('builds postings from the locked balances, once per key, and refuses what post refuses', async () => {
    const a = await member('builder');
    const b = await member('builder-b');
    await fund(t, a, 'USDT', '25.5');
    const ledger = t.services.ledger;
    const availableA = { ownerAccountId: a, asset: 'USDT' as const, purpose: 'available' as const };
    const availableB = { ownerAccountId: b, asset: 'USDT' as const, purpose: 'available' as const };
    const heldA = { ownerAccountId: a, asset: 'USDT' as const, purpose: 'held' as const };
    const fees = { platformCode: 'fees' as const, asset: 'USDT' as const };
    const feesBefore = m(
      (await ledger.platformAccounts()).find((row) => row.platformCode === 'fees' && row.asset === 'USDT')!.balance,
    );
    const balances = await trackBalances(t, { a, b });
    const key = `lm-build-${randomUUID()}`;
    const seen: string[] = [];
    type Builder = (balanceOf: (ref: LedgerAccountRef) => money.Money) => PostingSpec[];
    const build = vi.fn<Builder>((balanceOf) => {
      seen.push(
        money.formatMoney(balanceOf(availableA)),
        money.formatMoney(balanceOf(fees)),
        money.formatMoney(balanceOf(heldA)),
      );
      // Moves all of A's balance but 0.5 to B.
      const amount = money.subtract(balanceOf(availableA), m('0.5'));
      return [
        { account: availableA, amount: money.negate(amount), recordType: 'transfer_out' },
        { account: availableB, amount, recordType: 'transfer_in' },
      ];
    });
    const run = (entryKey: string, builder: Builder) =>
      ledger.transaction((tx) =>
        ledger.postWithBalances(tx, { idempotencyKey: entryKey, kind: 'test' }, [availableA, availableB, fees], builder),
      );
    const first = await run(key, build);
    expect(first.duplicate).toBe(false);
    expect(seen).toEqual(['25.5000', money.formatMoney(feesBefore), '0.0000']);
    await balances.expectChanges({ 'a:USDT:available': '-25.0000', 'b:USDT:available': '25.0000' });

    const retry = vi.fn(() => [] as PostingSpec[]);
    expect(await run(key, retry)).toEqual({ entryId: first.entryId, duplicate: true });
    expect(retry).not.toHaveBeenCalled();

    const noKey = vi.fn(() => [] as PostingSpec[]);
    await expect(run('', noKey)).rejects.toThrow(new LedgerInvariantError('an entry needs an idempotency key'));
    expect(noKey).not.toHaveBeenCalled();

    await expect(
      run(`lm-build-${randomUUID()}`, () => [
        { account: availableA, amount: m('-0.5'), recordType: 'transfer_out' },
        { account: availableB, amount: m('0.4'), recordType: 'transfer_in' },
      ]),
    ).rejects.toBeInstanceOf(LedgerInvariantError);
    await expect(
      run(`lm-build-${randomUUID()}`, () => [
        { account: availableA, amount: m('-0.5'), recordType: 'transfer_out' },
        { account: heldA, amount: m('0.5'), recordType: 'transfer_in' },
      ]),
    ).rejects.toThrow(new LedgerInvariantError(`ledger account ${a}:USDT:held was not locked`));
    await balances.expectChanges({});
  });
});

describe('accounts and holds that the first run left open', () => {
  it('refuses a posting to a platform account that does not exist, naming it', async () => {
    const a = await member('nowhere');
    await fund(t, a, 'USDT', '5');
    const ledger = t.services.ledger;
    const balances = await trackBalances(t, { a });
    await expect(
      ledger.transaction((tx) =>
        ledger.post(tx, {
          idempotencyKey: `lm-nowhere-${randomUUID()}`,
          kind: 'test',
          postings: [
            { account: { ownerAccountId: a, asset: 'USDT', purpose: 'available' }, amount: m('-1'), recordType: 'transfer_out' },
            { account: { platformCode: 'nowhere' as PlatformCode, asset: 'USDT' }, amount: m('1'), recordType: 'transfer_in' },
          ],
        }),
      ),
    ).rejects.toThrow(new LedgerInvariantError('no platform account platform:nowhere:USDT'));
    await balances.expectChanges({});
  });

  it('answers a hold moved under a reference as that reference’s hold, moving nothing', async () => {
    const owner = await member('moved');
    await fund(t, owner, 'USDT', '10');
    const ledger = t.services.ledger;
    await ledger.transaction((tx) =>
      ledger.hold(tx, { ownerAccountId: owner, asset: 'USDT', amount: m('10'), referenceType: 'lm_move', referenceId: 'from' }),
    );
    await ledger.transaction((tx) =>
      ledger.moveHold(tx, {
        from: { referenceType: 'lm_move', referenceId: 'from' },
        to: { referenceType: 'lm_move', referenceId: 'to' },
        amount: m('4'),
        idempotencyKey: `lm-move-${randomUUID()}`,
        recordType: 'hold',
      }),
    );
    const balances = await trackBalances(t, { owner });
    const again = await ledger.transaction((tx) =>
      ledger.hold(tx, { ownerAccountId: owner, asset: 'USDT', amount: m('4'), referenceType: 'lm_move', referenceId: 'to' }),
    );
    expect(again).toMatchObject({ amount: '4.0000', status: 'pending', reference_id: 'to' });
    expect(await holdRow('lm_move', 'to')).toMatchObject({ amount: '4.0000', status: 'pending' });
    expect(await holdRow('lm_move', 'from')).toMatchObject({ amount: '6.0000', status: 'pending' });
    await balances.expectChanges({});
  });
});
