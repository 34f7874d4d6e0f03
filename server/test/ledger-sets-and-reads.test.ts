import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { NothingToPostError } from '../src/modules/ledger/ledger.service.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund } from './support/ledger.js';
import { createOperator, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The ledger's set-based entries (`postSettlement`, `postEach`), its readers (`heldFor`, the balance
 * and account lists, the member and console logs, `verify`'s report) and the adjustments' rejection
 * and list, which the first mutation runs left without a ledger test (issue 31, docs/mutation/ledger.md).
 * New tests go at the END of this file (Stryker's incremental reuse keys on test names and positions).
 */

let t: TestApp;
const m = money.parseMoney;
const db = () => t.testDatabase.database.db;
const origin = { ip: '127.0.0.1', userAgent: null, requestId: 'ledger-sets-and-reads' };

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function member(name: string): Promise<string> {
  return accountIdOf(t, await registerMember(t, `ledger-sets-${name}-${randomUUID().slice(0, 8)}@example.com`));
}

/** An entry's postings in order: owner or platform code with purpose, amount, balance after, record type. */
async function postingsOf(entryId: string, names: Readonly<Record<string, string>>) {
  const rows = await queryRows<{
    owner: string | null;
    code: string | null;
    purpose: string;
    amount: string;
    balance_after: string;
    record_type: string;
  }>(
    db(),
    sql`select a.owner_account_id::text as owner, a.platform_code as code, a.purpose, p.amount::text as amount,
               p.balance_after::text as balance_after, p.record_type
        from postings p join ledger_accounts a on a.id = p.ledger_account_id
        where p.entry_id = ${entryId}::bigint order by p.id`,
  );
  const nameOf = new Map(Object.entries(names).map(([name, id]) => [id, name]));
  return rows.map((row) => [
    row.code ?? `${nameOf.get(row.owner!) ?? row.owner}:${row.purpose}`,
    row.amount,
    row.balance_after,
    row.record_type,
  ]);
}

async function entryRow(id: string) {
  const [row] = await queryRows<{
    idempotency_key: string;
    kind: string;
    reference_type: string | null;
    reference_id: string | null;
    memo: string | null;
  }>(db(), sql`select idempotency_key, kind, reference_type, reference_id, memo from journal_entries where id = ${id}::bigint`);
  return row;
}

async function entryIdOf(key: string): Promise<string | undefined> {
  const [row] = await queryRows<{ id: string }>(
    db(),
    sql`select id::text as id from journal_entries where idempotency_key = ${key}`,
  );
  return row?.id;
}

/** A settlement source: one row per (owner, amount). */
function rowsOf(rows: readonly [string, string][]) {
  const values = rows.map(([owner, amount]) => sql`(${owner}::uuid, ${amount}::numeric)`);
  return sql`select * from (values ${sql.join(values, sql`, `)}) as v(owner_account_id, amount)`;
}

describe('postSettlement', () => {
  it('posts every row of its source on each leg, balanced by the platform account, once per key', async () => {
    const ann = await member('ann');
    const ben = await member('ben');
    await fund(t, ann, 'USDT', '50');
    await fund(t, ben, 'USDT', '50');
    const names = { ann, ben };
    const balances = await trackBalances(t, names);
    const ledger = t.services.ledger;
    const key = `settle-${randomUUID()}`;
    const filled: string[] = [];
    const run = () =>
      ledger.transaction((tx) =>
        ledger.postSettlement(
          tx,
          { idempotencyKey: key, kind: 'interest', referenceType: 'test_day', referenceId: '2026-12-02' },
          async (entryId) => {
            filled.push(entryId);
            return 3;
          },
          () =>
            rowsOf([
              [ann, '1.2500'],
              [ben, '0.5000'],
              [ann, '0.2500'],
            ]),
          'USDT',
          [{ purpose: 'available', sign: 1, recordType: 'interest' }],
          { platformCode: 'interest', recordType: 'interest' },
        ),
      );
    const first = await run();
    expect(first).toEqual({ entryId: filled[0], rows: 3, total: m('2.0000') });
    expect(await entryRow(first!.entryId)).toEqual({
      idempotency_key: key,
      kind: 'interest',
      reference_type: 'test_day',
      reference_id: '2026-12-02',
      memo: null,
    });
    const postings = await postingsOf(first!.entryId, names);
    expect(postings.filter(([account]) => account !== 'interest')).toEqual(
      expect.arrayContaining([
        ['ann:available', '1.5000', '51.5000', 'interest'],
        ['ben:available', '0.5000', '50.5000', 'interest'],
      ]),
    );
    expect(postings).toHaveLength(3);
    expect(postings[2]![0]).toBe('interest');
    expect(postings[2]![1]).toBe('-2.0000');
    expect(postings[2]![3]).toBe('interest');
    await balances.expectChanges({
      'ann:USDT:available': '1.5000',
      'ben:USDT:available': '0.5000',
      'platform:interest:USDT': '-2.0000',
    });

    // The key has posted: a rerun claims nothing, fills nothing, moves nothing.
    expect(await run()).toBeNull();
    expect(filled).toHaveLength(1);
    await balances.expectChanges({});
    expect((await ledger.verify()).problems).toEqual([]);
  });

  it('moves between a member’s own balances with two legs and no counter, and rolls back a claim that found nothing', async () => {
    const cat = await member('cat');
    await fund(t, cat, 'USDT', '20');
    const names = { cat };
    const balances = await trackBalances(t, names);
    const ledger = t.services.ledger;
    const key = `settle-legs-${randomUUID()}`;
    const posted = await ledger.transaction((tx) =>
      ledger.postSettlement(
        tx,
        { idempotencyKey: key, kind: 'custody_deposit' },
        async () => 1,
        () => rowsOf([[cat, '7.0000']]),
        'USDT',
        [
          { purpose: 'available', sign: -1, recordType: 'custody_deposit' },
          { purpose: 'custody', sign: 1, recordType: 'custody_deposit' },
        ],
      ),
    );
    expect(posted).toMatchObject({ rows: 1, total: m('7.0000') });
    expect(await entryRow(posted!.entryId)).toEqual({
      idempotency_key: key,
      kind: 'custody_deposit',
      reference_type: null,
      reference_id: null,
      memo: null,
    });
    expect(await postingsOf(posted!.entryId, names)).toEqual([
      ['cat:available', '-7.0000', '13.0000', 'custody_deposit'],
      ['cat:custody', '7.0000', '7.0000', 'custody_deposit'],
    ]);
    await balances.expectChanges({ 'cat:USDT:available': '-7.0000', 'cat:USDT:custody': '7.0000' });

    // Another run paid these rows first (fill found none): the claim is rolled back with the transaction.
    const emptyKey = `settle-empty-${randomUUID()}`;
    await expect(
      ledger.transaction((tx) =>
        ledger.postSettlement(
          tx,
          { idempotencyKey: emptyKey, kind: 'interest' },
          async () => 0,
          () => rowsOf([[cat, '1.0000']]),
          'USDT',
          [{ purpose: 'available', sign: 1, recordType: 'interest' }],
          { platformCode: 'interest', recordType: 'interest' },
        ),
      ),
    ).rejects.toSatisfy((error) => error instanceof NothingToPostError && error.idempotencyKey === emptyKey);
    expect(await entryIdOf(emptyKey)).toBeUndefined();
    await balances.expectChanges({});
  });
});

describe('postEach', () => {
  it('posts one entry per row with running balances, skips keys that have posted, and answers their count and total', async () => {
    const dan = await member('dan');
    const eve = await member('eve');
    const names = { dan, eve };
    const balances = await trackBalances(t, names);
    const ledger = t.services.ledger;
    const prefix = `each-${randomUUID().slice(0, 8)}`;
    const source = (rows: readonly [string, string, string][]) => {
      const values = rows.map(([key, owner, amount]) => sql`(${`${prefix}-${key}`}, ${owner}::uuid, ${amount}::numeric, ${key})`);
      return sql`select * from (values ${sql.join(values, sql`, `)}) as v(idempotency_key, owner_account_id, amount, reference_id)`;
    };
    const run = (rows: readonly [string, string, string][]) =>
      ledger.transaction((tx) =>
        ledger.postEach(
          tx,
          source(rows),
          { kind: 'team_income', referenceType: 'test_income' },
          'USDT',
          { purpose: 'available', recordType: 'income' },
          { platformCode: 'rewards', recordType: 'income' },
        ),
      );
    expect(
      await run([
        ['a', dan, '1.0000'],
        ['b', dan, '2.0000'],
        ['c', eve, '0.5000'],
      ]),
    ).toEqual({ entries: 3, total: m('3.5000') });
    const firstB = await entryIdOf(`${prefix}-b`);
    expect(await entryRow(firstB!)).toEqual({
      idempotency_key: `${prefix}-b`,
      kind: 'team_income',
      reference_type: 'test_income',
      reference_id: 'b',
      memo: null,
    });
    const b = await postingsOf(firstB!, names);
    expect(b[0]).toEqual(['dan:available', '2.0000', '3.0000', 'income']);
    expect([b[1]![0], b[1]![1], b[1]![3]]).toEqual(['rewards', '-2.0000', 'income']);
    await balances.expectChanges({
      'dan:USDT:available': '3.0000',
      'eve:USDT:available': '0.5000',
      'platform:rewards:USDT': '-3.5000',
    });

    // A rerun with one new row: only that one posts.
    expect(
      await run([
        ['a', dan, '1.0000'],
        ['d', eve, '4.0000'],
      ]),
    ).toEqual({ entries: 1, total: m('4.0000') });
    await balances.expectChanges({ 'eve:USDT:available': '4.0000', 'platform:rewards:USDT': '-4.0000' });
    expect(await run([['a', dan, '1.0000']])).toEqual({ entries: 0, total: m('0') });
    await balances.expectChanges({});
    expect((await ledger.verify()).problems).toEqual([]);
  });
});

describe('readers', () => {
  it('answers a pending hold’s amount, and zero once it is released or when there is none', async () => {
    const fay = await member('fay');
    await fund(t, fay, 'USDT', '10');
    const ledger = t.services.ledger;
    const reference = { referenceType: 'test_held_for', referenceId: randomUUID() };
    const heldFor = () => ledger.transaction((tx) => ledger.heldFor(tx, reference));
    expect(await heldFor()).toBe(money.ZERO);
    await ledger.transaction((tx) => ledger.hold(tx, { ownerAccountId: fay, asset: 'USDT', amount: m('3.2500'), ...reference }));
    expect(await heldFor()).toBe(m('3.2500'));
    await ledger.transaction((tx) => ledger.releaseHold(tx, reference));
    expect(await heldFor()).toBe(money.ZERO);
  });

  it('lists a member’s ledger accounts and balances, and the platform accounts, field by field', async () => {
    const gus = await member('gus');
    await fund(t, gus, 'RAB', '2.5');
    const ledger = t.services.ledger;
    const balances = await ledger.balancesOf([gus]);
    expect(balances.get(`${gus}:RAB:available`)).toBe(m('2.5000'));
    expect(balances.get(`${gus}:USDT:held`)).toBe(money.ZERO);
    expect(balances.size).toBe(16);
    expect(await ledger.balancesOf([])).toEqual(new Map());

    const accounts = await ledger.ledgerAccountsOf([gus]);
    expect(accounts).toHaveLength(16);
    const rab = accounts.find((account) => account.asset === 'RAB' && account.purpose === 'available');
    expect(rab?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rab).toEqual({
      id: rab?.id,
      ownerAccountId: gus,
      platformCode: null,
      asset: 'RAB',
      purpose: 'available',
      balance: '2.5000',
      allowNegative: false,
    });
    // Ordered by asset, then purpose.
    const order = accounts.map((account) => `${account.asset}:${account.purpose}`);
    expect(order).toEqual([...order].sort());

    const platform = await ledger.platformAccounts();
    const adjustments = platform.find((account) => account.platformCode === 'adjustments' && account.asset === 'RAB');
    expect(adjustments).toMatchObject({ ownerAccountId: null, platformCode: 'adjustments', asset: 'RAB', allowNegative: true });
    expect(platform.every((account) => account.ownerAccountId === null && account.platformCode !== null)).toBe(true);
    const codes = platform.map((account) => `${account.platformCode}:${account.asset}`);
    expect(codes).toEqual([...codes].sort());
  });

  it('reads a member’s log by asset and type, the fuel and ticket log, and the console’s postings, newest first with totals', async () => {
    const hal = await member('hal');
    const ivy = await member('ivy');
    await fund(t, hal, 'USDT', '10');
    await fund(t, hal, 'RAB', '3');
    await fund(t, hal, 'FUEL', '4');
    await fund(t, hal, 'TICKET', '2');
    const ledger = t.services.ledger;
    await ledger.transaction((tx) =>
      ledger.post(tx, {
        idempotencyKey: `log-transfer-${randomUUID()}`,
        kind: 'transfer',
        referenceType: 'test_log',
        referenceId: 'r1',
        postings: [
          {
            account: { ownerAccountId: hal, asset: 'USDT', purpose: 'available' },
            amount: m('-1.5'),
            recordType: 'transfer_out',
          },
          { account: { ownerAccountId: ivy, asset: 'USDT', purpose: 'available' }, amount: m('1.5'), recordType: 'transfer_in' },
        ],
      }),
    );
    // A ticket spent (available → used) and a hold (available → held).
    await ledger.transaction((tx) =>
      ledger.post(tx, {
        idempotencyKey: `log-ticket-${randomUUID()}`,
        kind: 'ticket',
        postings: [
          {
            account: { ownerAccountId: hal, asset: 'TICKET', purpose: 'available' },
            amount: m('-1'),
            recordType: 'machine_purchase',
          },
          { account: { ownerAccountId: hal, asset: 'TICKET', purpose: 'used' }, amount: m('1'), recordType: 'machine_purchase' },
        ],
      }),
    );
    await ledger.transaction((tx) =>
      ledger.hold(tx, {
        ownerAccountId: hal,
        asset: 'USDT',
        amount: m('2'),
        referenceType: 'test_log',
        referenceId: randomUUID(),
      }),
    );

    const page = { limit: 50, offset: 0 };
    const all = await ledger.log(hal, {}, page);
    // Available only: the funding of four assets, the transfer and the ticket's debit, the hold's debit.
    expect(all.total).toBe(7);
    expect(all.rows.map((row) => `${row.asset}:${row.record_type}:${row.amount}`)).toEqual([
      'USDT:hold:-2.0000',
      'TICKET:machine_purchase:-1.0000',
      'USDT:transfer_out:-1.5000',
      'TICKET:adjustment_credit:2.0000',
      'FUEL:adjustment_credit:4.0000',
      'RAB:adjustment_credit:3.0000',
      'USDT:adjustment_credit:10.0000',
    ]);
    const transfer = all.rows[2]!;
    expect(transfer).toMatchObject({ balance_after: '8.5000', reference_type: 'test_log', reference_id: 'r1' });
    expect(new Date(transfer.created_at).getTime()).toBeGreaterThan(0);
    const usdt = await ledger.log(hal, { asset: 'USDT' }, page);
    expect([usdt.total, usdt.rows.map((row) => row.record_type)]).toEqual([3, ['hold', 'transfer_out', 'adjustment_credit']]);
    const credits = await ledger.log(hal, { type: 'adjustment_credit' }, page);
    expect([credits.total, credits.rows.length]).toEqual([4, 4]);
    const usdtCredits = await ledger.log(hal, { asset: 'USDT', type: 'adjustment_credit' }, page);
    expect([usdtCredits.total, usdtCredits.rows.map((row) => row.amount)]).toEqual([1, ['10.0000']]);
    const second = await ledger.log(hal, {}, { limit: 2, offset: 2 });
    expect([second.total, second.rows.map((row) => row.id)]).toEqual([7, all.rows.slice(2, 4).map((row) => row.id)]);

    const fuelTickets = await ledger.fuelTicketLog(hal, undefined, page);
    // FUEL and TICKET on available and used: the two fundings and both sides of the spent ticket.
    expect(fuelTickets.total).toBe(4);
    expect(fuelTickets.rows.map((row) => `${row.asset}:${row.purpose}:${row.amount}`)).toEqual([
      'TICKET:used:1.0000',
      'TICKET:available:-1.0000',
      'TICKET:available:2.0000',
      'FUEL:available:4.0000',
    ]);
    expect(fuelTickets.rows[0]).toMatchObject({ kind: 'ticket', record_type: 'machine_purchase' });
    const fuel = await ledger.fuelTicketLog(hal, 'FUEL', page);
    expect([fuel.total, fuel.rows.map((row) => row.amount)]).toEqual([1, ['4.0000']]);

    const console = await ledger.adminPostings({ ownerAccountId: hal }, page);
    // Every purpose: the seven available postings, the ticket's used side and the hold's held side.
    expect(console.total).toBe(9);
    expect(console.rows[0]).toMatchObject({ purpose: 'held', amount: '2.0000', kind: 'hold', record_type: 'hold' });
    expect(console.rows[0]!.idempotency_key).toMatch(/^hold:/);
    const one = await ledger.adminPostings({ ledgerAccountId: console.rows[0]!.ledger_account_id }, page);
    expect([one.total, one.rows.map((row) => row.id)]).toEqual([1, [console.rows[0]!.id]]);
    const both = await ledger.adminPostings({ ownerAccountId: ivy, ledgerAccountId: console.rows[0]!.ledger_account_id }, page);
    expect(both).toEqual({ rows: [], total: 0 });
    const everything = await ledger.adminPostings({}, { limit: 1, offset: 0 });
    expect(everything.total).toBeGreaterThan(console.total);
    expect(everything.rows).toHaveLength(1);
  });

  it('reports a clean ledger with its counts, totals per asset and the time it checked', async () => {
    const before = Date.now();
    const report = await t.services.ledger.verify();
    expect(report.clean).toBe(true);
    expect(report.problems).toEqual([]);
    expect(Date.parse(report.checkedAt)).toBeGreaterThanOrEqual(before - 1000);
    const [counts] = await queryRows<{ entries: number; postings: number; accounts: number }>(
      db(),
      sql`select (select count(*)::int from journal_entries) as entries, (select count(*)::int from postings) as postings,
                 (select count(*)::int from ledger_accounts) as accounts`,
    );
    expect(report.counts).toEqual(counts);
    expect(report.counts.postings).toBeGreaterThan(0);
    expect(report.totals.map((total) => total.asset)).toEqual(['FUEL', 'RAB', 'TICKET', 'USDT']);
    expect(report.totals.every((total) => m(total.sum) === 0n)).toBe(true);
  });
});

describe('a batch across more member accounts than a filter lists inline, without a platform account', () => {
  it('posts nine members’ entries in one batch', async () => {
    const payer = await member('wide-payer');
    await fund(t, payer, 'USDT', '20');
    const payees: string[] = [];
    for (let index = 0; index < 8; index += 1) payees.push(await member(`wide-${index}`));
    const names = { payer, ...Object.fromEntries(payees.map((payee, index) => [`payee${index}`, payee])) };
    const balances = await trackBalances(t, names);
    const ledger = t.services.ledger;
    const posted = await ledger.transaction((tx) =>
      ledger.postMany(
        tx,
        payees.map((payee, index) => ({
          idempotencyKey: `wide-no-platform-${randomUUID()}-${index}`,
          kind: 'test',
          postings: [
            {
              account: { ownerAccountId: payer, asset: 'USDT', purpose: 'available' },
              amount: m('-2'),
              recordType: 'transfer_out',
            },
            {
              account: { ownerAccountId: payee, asset: 'USDT', purpose: 'available' },
              amount: m('2'),
              recordType: 'transfer_in',
            },
          ],
        })),
      ),
    );
    expect(posted.every((entry) => !entry.duplicate)).toBe(true);
    await balances.expectChanges({
      'payer:USDT:available': '-16.0000',
      ...Object.fromEntries(payees.map((_, index) => [`payee${index}:USDT:available`, '2.0000'])),
    });
  });
});

describe('adjustments: rejection and the list', () => {
  it('rejects with a note (audited, nothing posted), lists by status newest first, and maps every field', async () => {
    const kim = await member('kim');
    const proposer = await createOperator(t, `sets-proposer-${randomUUID().slice(0, 6)}`, 'finance');
    const decider = await createOperator(t, `sets-decider-${randomUUID().slice(0, 6)}`, 'finance');
    const adjustments = t.services.adjustments;
    const balances = await trackBalances(t, { kim });
    const first = await adjustments.propose(
      proposer.id,
      { accountId: kim, asset: 'RAB', direction: 'debit', amount: '3.5', reason: 'first' },
      origin,
    );
    const second = await adjustments.propose(
      proposer.id,
      { accountId: kim, asset: 'USDT', direction: 'credit', amount: '1', reason: 'second' },
      origin,
    );
    expect(first).toMatchObject({
      accountId: kim,
      asset: 'RAB',
      direction: 'debit',
      amount: '3.5000',
      reason: 'first',
      status: 'proposed',
      decidedBy: null,
      decidedAt: null,
      decisionNote: null,
      entryId: null,
    });
    expect(first.memberEmail).toMatch(/^ledger-sets-kim-/);
    expect(first.accountNickname).toEqual(expect.any(String));
    expect(new Date(first.proposedAt).toISOString()).toBe(first.proposedAt);

    const rejected = await adjustments.reject(decider.id, first.id, 'not owed', origin);
    expect(rejected).toMatchObject({ status: 'rejected', decisionNote: 'not owed', entryId: null });
    expect(rejected.decidedBy).toMatch(/^sets-decider-/);
    expect(new Date(rejected.decidedAt!).toISOString()).toBe(rejected.decidedAt);
    await expect(adjustments.reject(decider.id, first.id, undefined, origin)).rejects.toMatchObject({
      code: 409,
      messageKey: 'adjustment.not_proposed',
    });
    await expect(adjustments.reject(proposer.id, second.id, undefined, origin)).rejects.toMatchObject({
      code: 403,
      messageKey: 'adjustment.own_proposal',
    });
    await expect(adjustments.reject(decider.id, randomUUID(), undefined, origin)).rejects.toMatchObject({ code: 404 });
    const noted = await adjustments.reject(decider.id, second.id, undefined, origin);
    expect(noted.decisionNote).toBeNull();
    await balances.expectChanges({});

    const audit = await queryRows<{ action: string; operator_id: string; before: unknown; after: unknown }>(
      db(),
      sql`select action, operator_id::text as operator_id, before, after from audit_log where target_id = ${first.id} order by created_at, id`,
    );
    expect(audit).toEqual([
      expect.objectContaining({ action: 'ledger.adjustment_proposed', operator_id: proposer.id }),
      {
        action: 'ledger.adjustment_rejected',
        operator_id: decider.id,
        before: { status: 'proposed' },
        after: { status: 'rejected', note: 'not owed' },
      },
    ]);

    const listed = await adjustments.list('rejected', 1, 500);
    const mine = listed.items.filter((item) => item.accountId === kim);
    expect(mine.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(listed).toMatchObject({ page: 1, pageSize: 500 });
    expect(listed.total).toBeGreaterThanOrEqual(2);
    const proposed = await adjustments.list('proposed', 1, 500);
    expect(proposed.items.some((item) => item.accountId === kim)).toBe(false);
    const paged = await adjustments.list(undefined, 2, 1);
    expect(paged).toMatchObject({ page: 2, pageSize: 1 });
    expect(paged.items).toHaveLength(1);
    const firstPage = await adjustments.list(undefined, 1, 2);
    expect(paged.items[0]!.id).toBe(firstPage.items[1]!.id);
    expect(paged.total).toBe(firstPage.total);
  });
});

describe('what the whole-module run left alive (run 5)', () => {
  const available = (owner: string) => ({ ownerAccountId: owner, asset: 'USDT' as const, purpose: 'available' as const });

  it('names a settlement that found nothing, and locks balances for a decision, missing member accounts as zero', async () => {
    const error = new NothingToPostError('day-key');
    expect([error.name, error.message]).toEqual(['NothingToPostError', 'settlement entry day-key found nothing to post']);
    const lea = await member('lea');
    await fund(t, lea, 'USDT', '6.5');
    const ledger = t.services.ledger;
    const read = await ledger.transaction(async (tx) => {
      const balanceOf = await ledger.lockBalances(tx, [available(lea), { platformCode: 'fees', asset: 'RAB' }]);
      return [
        balanceOf(available(lea)),
        balanceOf({ ownerAccountId: lea, asset: 'USDT', purpose: 'held' }),
        typeof balanceOf({ platformCode: 'fees', asset: 'RAB' }),
      ];
    });
    expect(read).toEqual([m('6.5000'), money.ZERO, 'bigint']);
  });

  it('opens a member account that is missing when an entry posts to it (the safety net), beside a platform account', async () => {
    const max = await member('max');
    await fund(t, max, 'TICKET', '3');
    await db().execute(
      sql`delete from ledger_accounts where owner_account_id = ${max}::uuid and asset = 'TICKET' and purpose = 'used'`,
    );
    const balances = await trackBalances(t, { max });
    const ledger = t.services.ledger;
    const spend = (key: string) =>
      ledger.transaction((tx) =>
        ledger.post(tx, {
          idempotencyKey: key,
          kind: 'ticket',
          postings: [
            {
              account: { ownerAccountId: max, asset: 'TICKET', purpose: 'available' },
              amount: m('-2'),
              recordType: 'machine_purchase',
            },
            {
              account: { ownerAccountId: max, asset: 'TICKET', purpose: 'used' },
              amount: m('1'),
              recordType: 'machine_purchase',
            },
            { account: { platformCode: 'fees', asset: 'TICKET' }, amount: m('1'), recordType: 'machine_purchase' },
          ],
        }),
      );
    await spend(`safety-net-${randomUUID()}`);
    await balances.expectChanges({
      'max:TICKET:available': '-2.0000',
      'max:TICKET:used': '1.0000',
      'platform:fees:TICKET': '1.0000',
    });
    // The same through a batch.
    await db().execute(
      sql`delete from ledger_accounts where owner_account_id = ${max}::uuid and asset = 'FUEL' and purpose = 'used'`,
    );
    await fund(t, max, 'FUEL', '1');
    await balances.reset();
    await ledger.transaction((tx) =>
      ledger.postMany(tx, [
        {
          idempotencyKey: `safety-net-batch-${randomUUID()}`,
          kind: 'fuel',
          postings: [
            {
              account: { ownerAccountId: max, asset: 'FUEL', purpose: 'available' },
              amount: m('-1'),
              recordType: 'machine_purchase',
            },
            { account: { ownerAccountId: max, asset: 'FUEL', purpose: 'used' }, amount: m('1'), recordType: 'machine_purchase' },
          ],
        },
      ]),
    );
    await balances.expectChanges({ 'max:FUEL:available': '-1.0000', 'max:FUEL:used': '1.0000' });
    expect((await ledger.verify()).problems).toEqual([]);
  });

  it('posts between two platform accounts, and answers an empty batch with nothing', async () => {
    const balances = await trackBalances(t);
    const ledger = t.services.ledger;
    await ledger.transaction((tx) =>
      ledger.post(tx, {
        idempotencyKey: `platform-only-${randomUUID()}`,
        kind: 'sweep',
        postings: [
          { account: { platformCode: 'adjustments', asset: 'RAB' }, amount: m('-0.5'), recordType: 'transfer_out' },
          { account: { platformCode: 'treasury', asset: 'RAB' }, amount: m('0.5'), recordType: 'transfer_in' },
        ],
      }),
    );
    await balances.expectChanges({ 'platform:adjustments:RAB': '-0.5000', 'platform:treasury:RAB': '0.5000' });
    expect(await ledger.transaction((tx) => ledger.postMany(tx, []))).toEqual([]);
    expect(await ledger.transaction((tx) => ledger.settleHolds(tx, []))).toEqual([]);
    await balances.expectChanges({});
  });

  it('records a batch entry’s reference, memo and operator, and names what it refuses', async () => {
    const ned = await member('ned');
    const oli = await member('oli');
    await fund(t, ned, 'USDT', '5');
    const operator = await createOperator(t, `sets-batch-${randomUUID().slice(0, 6)}`, 'finance');
    const ledger = t.services.ledger;
    const key = `batch-fields-${randomUUID()}`;
    const pay = (idempotencyKey: string, amount: string) => ({
      idempotencyKey,
      kind: 'test',
      referenceType: 'test_batch_fields',
      referenceId: 'ref-1',
      memo: 'a memo',
      operatorId: operator.id,
      postings: [
        { account: available(ned), amount: money.negate(m(amount)), recordType: 'transfer_out' as const },
        { account: available(oli), amount: m(amount), recordType: 'transfer_in' as const },
      ],
    });
    const [posted] = await ledger.transaction((tx) => ledger.postMany(tx, [pay(key, '1')]));
    const [row] = await queryRows<{ reference_type: string; reference_id: string; memo: string; operator_id: string }>(
      db(),
      sql`select reference_type, reference_id, memo, operator_id::text as operator_id from journal_entries where id = ${posted!.entryId}::bigint`,
    );
    expect(row).toEqual({ reference_type: 'test_batch_fields', reference_id: 'ref-1', memo: 'a memo', operator_id: operator.id });

    const twice = `batch-twice-${randomUUID()}`;
    await expect(ledger.transaction((tx) => ledger.postMany(tx, [pay(twice, '1'), pay(twice, '1')]))).rejects.toThrow(
      `idempotency key ${twice} twice in one batch`,
    );
    await expect(
      ledger.transaction((tx) => ledger.postMany(tx, [pay(`batch-over-${randomUUID()}`, '4.0001')])),
    ).rejects.toMatchObject({
      code: 409,
      messageKey: 'ledger.insufficient_balance',
      params: { asset: 'USDT' },
    });
    const post = (idempotencyKey: string, postings: Parameters<typeof ledger.post>[1]['postings']) =>
      ledger.transaction((tx) => ledger.post(tx, { idempotencyKey, kind: 'test', postings }));
    const one = { account: available(ned), amount: m('-1'), recordType: 'transfer_out' as const };
    const other = { account: available(oli), amount: m('1'), recordType: 'transfer_in' as const };
    await expect(post('', [one, other])).rejects.toThrow('an entry needs an idempotency key');
    await expect(post(`one-${randomUUID()}`, [{ ...one, amount: m('0') }])).rejects.toThrow(
      'an entry needs at least two postings',
    );
    await expect(post(`zero-${randomUUID()}`, [one, other, { ...other, amount: m('0') }])).rejects.toThrow(
      'a posting cannot be zero',
    );
    const unbalanced = `unbalanced-${randomUUID()}`;
    await expect(post(unbalanced, [one, { ...other, amount: m('0.9999') }])).rejects.toThrow(
      `entry ${unbalanced} does not balance in USDT (-1)`,
    );
  });

  it('settles holds without further entries, with their kinds; refuses a missing hold, a capture that does not add up, and one moved away', async () => {
    const pia = await member('pia');
    await fund(t, pia, 'USDT', '30');
    const names = { pia };
    const ledger = t.services.ledger;
    const ref = (id: string) => ({ referenceType: 'test_settle_kinds', referenceId: `${id}-${pia}` });
    for (const id of ['a', 'b', 'c', 'd'])
      await ledger.transaction((tx) => ledger.hold(tx, { ownerAccountId: pia, asset: 'USDT', amount: m('5'), ...ref(id) }));
    const balances = await trackBalances(t, names);
    const fees = { platformCode: 'fees' as const, asset: 'USDT' as const };
    const settled = await ledger.transaction((tx) =>
      ledger.settleHolds(tx, [
        { reference: ref('a'), status: 'released', recordType: 'hold_release' },
        {
          reference: ref('b'),
          status: 'captured',
          recordType: 'withdraw',
          destinations: [{ account: fees, amount: m('5'), recordType: 'withdraw_fee' }],
        },
      ]),
    );
    expect(settled).toHaveLength(2);
    expect((await entryRow(settled[0]!.entryId))?.kind).toBe('hold_release');
    expect((await entryRow(settled[1]!.entryId))?.kind).toBe('hold_capture');
    await balances.expectChanges({ 'pia:USDT:available': '5.0000', 'pia:USDT:held': '-10.0000', 'platform:fees:USDT': '5.0000' });

    await expect(
      ledger.transaction((tx) =>
        ledger.settleHolds(tx, [{ reference: ref('missing'), status: 'released', recordType: 'hold_release' }]),
      ),
    ).rejects.toMatchObject({ code: 404 });
    const short = [{ account: fees, amount: m('4.9999'), recordType: 'withdraw_fee' as const }];
    await expect(
      ledger.transaction((tx) =>
        ledger.settleHolds(tx, [{ reference: ref('c'), status: 'captured', recordType: 'withdraw', destinations: short }]),
      ),
    ).rejects.toThrow(`capture of ${ref('c').referenceId} pays 4.9999, the hold is 5.0000`);
    await expect(ledger.transaction((tx) => ledger.captureHoldSplit(tx, ref('c'), short, 'withdraw'))).rejects.toThrow(
      /pays 4\.9999, the hold is 5\.0000/,
    );

    // A hold moved away whole is settled as captured by the move, with no settlement entry of its own.
    await ledger.transaction((tx) =>
      ledger.moveHold(tx, {
        from: ref('d'),
        to: ref('d2'),
        amount: m('5'),
        idempotencyKey: `move-d-${pia}`,
        recordType: 'otc_escrow',
      }),
    );
    await expect(
      ledger.transaction((tx) =>
        ledger.settleHolds(tx, [
          {
            reference: ref('d'),
            status: 'captured',
            recordType: 'withdraw',
            destinations: [{ account: fees, amount: m('5'), recordType: 'withdraw_fee' }],
          },
        ]),
      ),
    ).rejects.toMatchObject({ code: 409 });
    await balances.expectChanges({});
  });

  it('moves no hold of zero, answers a used key even once the source is used up, and never moves into a settled hold or another asset’s', async () => {
    const quin = await member('quin');
    await fund(t, quin, 'USDT', '20');
    await fund(t, quin, 'RAB', '20');
    const ledger = t.services.ledger;
    const ref = (id: string) => ({ referenceType: 'test_move_more', referenceId: `${id}-${quin}` });
    const hold = (id: string, asset: 'USDT' | 'RAB' = 'USDT') =>
      ledger.transaction((tx) => ledger.hold(tx, { ownerAccountId: quin, asset, amount: m('4'), ...ref(id) }));
    const move = (from: string, to: string, amount: string, key: string) =>
      ledger.transaction((tx) =>
        ledger.moveHold(tx, { from: ref(from), to: ref(to), amount: m(amount), idempotencyKey: key, recordType: 'otc_escrow' }),
      );
    await hold('src');
    await hold('released');
    await hold('rab', 'RAB');
    await ledger.transaction((tx) => ledger.releaseHold(tx, ref('released')));
    const balances = await trackBalances(t, { quin });

    await expect(move('src', 'x', '0', `move-zero-${quin}`)).rejects.toThrow('a hold move must be positive');
    await expect(move('src', 'released', '1', `move-into-released-${quin}`)).rejects.toThrow(/cannot receive from/);
    await expect(move('src', 'rab', '1', `move-into-rab-${quin}`)).rejects.toThrow(/cannot receive from/);
    await balances.expectChanges({});

    const key = `move-all-${quin}`;
    const first = await move('src', 'dst', '4', key);
    expect(first.duplicate).toBe(false);
    // The source is used up (captured by the move): the same key answers its entry, moving nothing.
    expect(await move('src', 'dst', '4', key)).toEqual({ entryId: first.entryId, duplicate: true });
    await balances.expectChanges({});
    expect(await ledger.transaction((tx) => ledger.heldFor(tx, ref('dst')))).toBe(m('4.0000'));
  });

  it('reports an asset whose balances add up to a whole number other than zero', async () => {
    const rex = await member('rex');
    await db().execute(
      sql`update ledger_accounts set balance = balance + 10 where owner_account_id = ${rex}::uuid and asset = 'FUEL' and purpose = 'available'`,
    );
    try {
      const report = await t.services.ledger.verify();
      expect(report.clean).toBe(false);
      expect(report.problems.filter((problem) => problem.check === 'asset_total_not_zero')).toEqual([
        { check: 'asset_total_not_zero', detail: JSON.stringify({ asset: 'FUEL', sum: '10.0000' }) },
      ]);
    } finally {
      await db().execute(
        sql`update ledger_accounts set balance = balance - 10 where owner_account_id = ${rex}::uuid and asset = 'FUEL' and purpose = 'available'`,
      );
    }
    expect((await t.services.ledger.verify()).clean).toBe(true);
  });

  it('audits an approval and a proposal with their targets and figures', async () => {
    const sam = await member('sam');
    const proposer = await createOperator(t, `sets-audit-p-${randomUUID().slice(0, 6)}`, 'finance');
    const approver = await createOperator(t, `sets-audit-a-${randomUUID().slice(0, 6)}`, 'finance');
    const adjustments = t.services.adjustments;
    const balances = await trackBalances(t, { sam });
    const proposed = await adjustments.propose(
      proposer.id,
      { accountId: sam, asset: 'USDT', direction: 'credit', amount: '2.5', reason: 'audit me' },
      origin,
    );
    const approved = await adjustments.approve(approver.id, proposed.id, undefined, origin);
    await balances.expectChanges({ 'sam:USDT:available': '2.5000', 'platform:adjustments:USDT': '-2.5000' });
    const audit = await queryRows<{
      action: string;
      target_type: string;
      before: unknown;
      after: unknown;
      ip: string;
      request_id: string;
    }>(
      db(),
      sql`select action, target_type, before, after, ip, request_id from audit_log where target_id = ${proposed.id} order by created_at, id`,
    );
    expect(audit).toEqual([
      {
        action: 'ledger.adjustment_proposed',
        target_type: 'ledger_adjustment',
        before: null,
        after: { accountId: sam, asset: 'USDT', direction: 'credit', amount: '2.5000', reason: 'audit me', status: 'proposed' },
        ip: origin.ip,
        request_id: origin.requestId,
      },
      {
        action: 'ledger.adjustment_approved',
        target_type: 'ledger_adjustment',
        before: { status: 'proposed' },
        after: { status: 'approved', entryId: approved.entryId, note: null },
        ip: origin.ip,
        request_id: origin.requestId,
      },
    ]);
  });
});
