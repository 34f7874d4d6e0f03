import { sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money, type LedgerReport } from '@custos/contract';
import { queryRows, type Tx } from '../src/db/client.js';
import { LedgerRepository } from '../src/modules/ledger/ledger.repository.js';
import { LedgerService } from '../src/modules/ledger/ledger.service.js';
import { accountIdOf, fund } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * The invariant checker (`LedgerService.verify`), one tampering per check (issue 31). Every other
 * test file ends with a clean checker, so each check must be shown to fire on exactly the
 * corruption it guards, and to say which rows. Each tampering is raw SQL in a transaction that is
 * rolled back after the checker has read it: the database's own guards (the deferred
 * balanced-entry trigger, unique and check constraints) would refuse most of these at commit or
 * at once, and the checker is what is left when one of them was dropped, disabled or bypassed.
 * Where a guard fires at once, the tampering drops it inside that same transaction. The file's
 * closing checker (test-app `close`) shows the rollbacks left the ledger honest.
 */

let t: TestApp;
let alice: string;
let bob: string;
/** Ledger account ids, by `<member>:<ASSET>:<purpose>`. */
const ids = new Map<string, string>();
let moveKey: string;
let holdEntryId: string;
let holdId: string;

type Problem = LedgerReport['problems'][number];

const db = () => t.testDatabase.database.db;
const id = (key: string) => {
  const found = ids.get(key);
  if (!found) throw new Error(`no ledger account ${key}`);
  return found;
};

beforeAll(async () => {
  t = await createTestApp();
  alice = await accountIdOf(t, await registerMember(t, 'checker-alice@example.com'));
  bob = await accountIdOf(t, await registerMember(t, 'checker-bob@example.com'));
  // An honest ledger with some of everything the checks read: funded from a platform account that
  // may go negative, a transfer between members, and a pending hold.
  await fund(t, alice, 'USDT', '100.0000');
  await fund(t, alice, 'RAB', '5.0000');
  moveKey = 'checker-move:alice-bob';
  await t.services.ledger.transaction((tx) =>
    t.services.ledger.post(tx, {
      idempotencyKey: moveKey,
      kind: 'test',
      postings: [
        {
          account: { ownerAccountId: alice, asset: 'USDT', purpose: 'available' },
          amount: money.parseMoney('-30'),
          recordType: 'transfer_out',
        },
        {
          account: { ownerAccountId: bob, asset: 'USDT', purpose: 'available' },
          amount: money.parseMoney('30'),
          recordType: 'transfer_in',
        },
      ],
    }),
  );
  const hold = await t.services.ledger.transaction((tx) =>
    t.services.ledger.hold(tx, {
      ownerAccountId: alice,
      asset: 'USDT',
      amount: money.parseMoney('20'),
      referenceType: 'test_checker',
      referenceId: 'h1',
    }),
  );
  holdId = hold.id;
  const [holdRow] = await queryRows<{ hold_entry_id: string }>(
    db(),
    sql`select hold_entry_id::text as hold_entry_id from ledger_holds where id = ${holdId}::uuid`,
  );
  holdEntryId = holdRow!.hold_entry_id;
  const rows = await queryRows<{ id: string; owner_account_id: string; asset: string; purpose: string }>(
    db(),
    sql`select id::text as id, owner_account_id::text as owner_account_id, asset, purpose from ledger_accounts
        where owner_account_id in (${alice}::uuid, ${bob}::uuid)`,
  );
  for (const row of rows) {
    ids.set(`${row.owner_account_id === alice ? 'alice' : 'bob'}:${row.asset}:${row.purpose}`, row.id);
  }
});
afterAll(async () => {
  await t.close();
});

/** Runs `tamper` and the checker in one transaction, then rolls it back: the problems it reported. */
async function problemsAfter(tamper: (tx: Tx) => Promise<void>): Promise<Problem[]> {
  let report: LedgerReport | undefined;
  try {
    await db().transaction(async (tx) => {
      await tamper(tx);
      report = await new LedgerService(tx, new LedgerRepository(tx)).verify();
      tx.rollback();
    });
  } catch (error) {
    if (!(error instanceof TransactionRollbackError)) throw error;
  }
  if (!report) throw new Error('the checker did not run');
  expect(report.clean).toBe(false);
  return report.problems;
}

/** Each problem as its check and the row it names, in a stable order. */
function named(problems: readonly Problem[]): { check: string; row: Record<string, unknown> }[] {
  return problems
    .map((problem) => ({ check: problem.check, row: JSON.parse(problem.detail) as Record<string, unknown> }))
    .sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
}

function sortKey(problem: { check: string; row: Record<string, unknown> }): string {
  return `${problem.check} ${JSON.stringify(problem.row, Object.keys(problem.row).sort())}`;
}

async function insertEntry(tx: Tx, idempotencyKey: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into journal_entries (idempotency_key, kind) values (${idempotencyKey}, 'test') returning id::text as id`,
  );
  return row!.id;
}

/**
 * Appends a posting to `ledgerAccountId` and applies it to the account's balance, the way the
 * ledger does; `balanceAfterOff` writes a balance_after that far from the true running balance.
 * `asset` is the posting's own asset (normally the account's).
 */
async function appendPosting(
  tx: Tx,
  entryId: string,
  ledgerAccountId: string,
  amount: string,
  options: { asset?: string; balanceAfterOff?: string } = {},
): Promise<string> {
  await tx.execute(sql`update ledger_accounts set balance = balance + ${amount}::numeric where id = ${ledgerAccountId}::uuid`);
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
        select ${entryId}::bigint, id, coalesce(${options.asset ?? null}::text, asset), ${amount}::numeric,
               balance + ${options.balanceAfterOff ?? '0'}::numeric, 'transfer_in'
        from ledger_accounts where id = ${ledgerAccountId}::uuid
        returning id::text as id`,
  );
  return row!.id;
}

async function balanceOf(key: string): Promise<string> {
  const [row] = await queryRows<{ balance: string }>(
    db(),
    sql`select balance::text as balance from ledger_accounts where id = ${id(key)}::uuid`,
  );
  return row!.balance;
}

/** The checker's row for a member ledger account (balance_not_sum_of_postings, negative_balance). */
function accountRow(key: string, owner: string, balance: string, extra: Record<string, string> = {}) {
  const [, asset, purpose] = key.split(':');
  return { id: id(key), owner_account_id: owner, platform_code: null, asset, purpose, balance, ...extra };
}

describe('the invariant checker', () => {
  it('is clean on an honest ledger, platform accounts below zero and a pending hold included', async () => {
    const report = await t.services.ledger.verify();
    expect(report).toMatchObject({ clean: true, problems: [] });
    expect(report.totals).toEqual([
      { asset: 'FUEL', sum: '0.0000' },
      { asset: 'RAB', sum: '0.0000' },
      { asset: 'TICKET', sum: '0.0000' },
      { asset: 'USDT', sum: '0.0000' },
    ]);
    // What the clean run rests on: money in held, and an account allowed below zero that is.
    expect(await balanceOf('alice:USDT:held')).toBe('20.0000');
    const [adjustments] = await queryRows<{ balance: string }>(
      db(),
      sql`select balance::text as balance from ledger_accounts where platform_code = 'adjustments' and asset = 'USDT'`,
    );
    expect(adjustments!.balance).toBe('-100.0000');
  });

  it('entry_unbalanced: a transfer whose two halves were written as two entries', async () => {
    let out = '';
    let into = '';
    const problems = await problemsAfter(async (tx) => {
      out = await insertEntry(tx, 'tamper:half-out');
      into = await insertEntry(tx, 'tamper:half-in');
      await appendPosting(tx, out, id('alice:USDT:available'), '-5.0000');
      await appendPosting(tx, into, id('bob:USDT:available'), '5.0000');
    });
    // Every account still equals its postings and the asset still sums to zero: only this check sees it.
    expect(named(problems)).toEqual(
      named([
        { check: 'entry_unbalanced', detail: JSON.stringify({ entry_id: out, asset: 'USDT', off_by: '-5.0000' }) },
        { check: 'entry_unbalanced', detail: JSON.stringify({ entry_id: into, asset: 'USDT', off_by: '5.0000' }) },
      ]),
    );
  });

  it('entry_without_postings: an entry with nothing posted', async () => {
    let entryId = '';
    const problems = await problemsAfter(async (tx) => {
      entryId = await insertEntry(tx, 'tamper:empty');
    });
    expect(named(problems)).toEqual([
      { check: 'entry_without_postings', row: { entry_id: entryId, idempotency_key: 'tamper:empty' } },
    ]);
  });

  it('balance_not_sum_of_postings: money moved between two balances with no entry, one up and one down', async () => {
    const problems = await problemsAfter(async (tx) => {
      await tx.execute(sql`update ledger_accounts set balance = balance - 5 where id = ${id('alice:USDT:available')}::uuid`);
      await tx.execute(sql`update ledger_accounts set balance = balance + 5 where id = ${id('bob:USDT:available')}::uuid`);
    });
    // The asset still sums to zero, so only this check sees it, on both accounts.
    expect(named(problems)).toEqual(
      named([
        {
          check: 'balance_not_sum_of_postings',
          detail: JSON.stringify(accountRow('alice:USDT:available', alice, '45.0000', { postings_sum: '50.0000' })),
        },
        {
          check: 'balance_not_sum_of_postings',
          detail: JSON.stringify(accountRow('bob:USDT:available', bob, '35.0000', { postings_sum: '30.0000' })),
        },
      ]),
    );
  });

  it('balance_not_sum_of_postings and asset_total_not_zero: one balance raised by the smallest unit, from nowhere', async () => {
    const problems = await problemsAfter(async (tx) => {
      await tx.execute(sql`update ledger_accounts set balance = balance + 0.0001 where id = ${id('bob:USDT:available')}::uuid`);
    });
    expect(named(problems)).toEqual(
      named([
        {
          check: 'balance_not_sum_of_postings',
          detail: JSON.stringify(accountRow('bob:USDT:available', bob, '30.0001', { postings_sum: '30.0000' })),
        },
        { check: 'asset_total_not_zero', detail: JSON.stringify({ asset: 'USDT', sum: '0.0001' }) },
      ]),
    );
  });

  it('negative_balance: an entry that overdraws a member by the smallest unit', async () => {
    const problems = await problemsAfter(async (tx) => {
      await tx.execute(sql`alter table ledger_accounts drop constraint ledger_accounts_non_negative`);
      const entry = await insertEntry(tx, 'tamper:overdraw');
      await appendPosting(tx, entry, id('alice:USDT:available'), '-50.0001');
      await appendPosting(tx, entry, id('bob:USDT:available'), '50.0001');
    });
    // Balanced, posted and summed correctly: only the sign is wrong.
    expect(named(problems)).toEqual([{ check: 'negative_balance', row: accountRow('alice:USDT:available', alice, '-0.0001') }]);
  });

  it('balance_after_mismatch: a posting whose balance_after is one unit high, and one that is one unit low', async () => {
    const postings: string[] = [];
    const problems = await problemsAfter(async (tx) => {
      const entry = await insertEntry(tx, 'tamper:balance-after');
      postings.push(await appendPosting(tx, entry, id('alice:USDT:available'), '-5.0000', { balanceAfterOff: '0.0001' }));
      postings.push(await appendPosting(tx, entry, id('bob:USDT:available'), '5.0000', { balanceAfterOff: '-0.0001' }));
    });
    expect(named(problems)).toEqual(
      named([
        {
          check: 'balance_after_mismatch',
          detail: JSON.stringify({
            id: postings[0],
            ledger_account_id: id('alice:USDT:available'),
            balance_after: '45.0001',
            running: '45.0000',
          }),
        },
        {
          check: 'balance_after_mismatch',
          detail: JSON.stringify({
            id: postings[1],
            ledger_account_id: id('bob:USDT:available'),
            balance_after: '34.9999',
            running: '35.0000',
          }),
        },
      ]),
    );
  });

  it('idempotency_key_reused: a retried transfer posted a second time under the same key', async () => {
    const problems = await problemsAfter(async (tx) => {
      await tx.execute(sql`alter table journal_entries drop constraint journal_entries_idempotency_key_unique`);
      const entry = await insertEntry(tx, moveKey);
      await appendPosting(tx, entry, id('alice:USDT:available'), '-30.0000');
      await appendPosting(tx, entry, id('bob:USDT:available'), '30.0000');
    });
    expect(named(problems)).toEqual([{ check: 'idempotency_key_reused', row: { idempotency_key: moveKey, uses: 2 } }]);
  });

  it('held_balance_not_pending_holds: a hold marked released with its money left in held', async () => {
    const problems = await problemsAfter(async (tx) => {
      await tx.execute(
        sql`update ledger_holds set status = 'released', settle_entry_id = ${holdEntryId}::bigint, settled_at = now()
            where id = ${holdId}::uuid`,
      );
    });
    expect(named(problems)).toEqual([
      {
        check: 'held_balance_not_pending_holds',
        row: { id: id('alice:USDT:held'), owner_account_id: alice, asset: 'USDT', held: '20.0000', pending_holds: '0' },
      },
    ]);
  });

  it('held_balance_not_pending_holds: a pending hold with no money in held', async () => {
    const problems = await problemsAfter(async (tx) => {
      await tx.execute(
        sql`insert into ledger_holds (owner_account_id, asset, amount, reference_type, reference_id, hold_entry_id)
            values (${bob}::uuid, 'USDT', 7, 'test_checker', 'no-money', ${holdEntryId}::bigint)`,
      );
    });
    expect(named(problems)).toEqual([
      {
        check: 'held_balance_not_pending_holds',
        row: { id: id('bob:USDT:held'), owner_account_id: bob, asset: 'USDT', held: '0.0000', pending_holds: '7.0000' },
      },
    ]);
  });

  it('held_balance_not_pending_holds: a pending hold whose owner has no held account at all', async () => {
    const problems = await problemsAfter(async (tx) => {
      // Bob's RAB held account was never posted to, so nothing stops it from being deleted.
      await tx.execute(sql`delete from ledger_accounts where id = ${id('bob:RAB:held')}::uuid`);
      await tx.execute(
        sql`insert into ledger_holds (owner_account_id, asset, amount, reference_type, reference_id, hold_entry_id)
            values (${bob}::uuid, 'RAB', 3, 'test_checker', 'no-account', ${holdEntryId}::bigint)`,
      );
    });
    expect(named(problems)).toEqual([
      {
        check: 'held_balance_not_pending_holds',
        row: { id: null, owner_account_id: bob, asset: 'RAB', held: '0', pending_holds: '3.0000' },
      },
    ]);
  });

  it('asset_total_not_zero: a balanced entry whose posting lands on an account of another asset', async () => {
    const problems = await problemsAfter(async (tx) => {
      // The (account, asset) foreign key is what keeps a posting's asset that of its account.
      await tx.execute(sql`alter table postings drop constraint postings_account_asset_fk`);
      const entry = await insertEntry(tx, 'tamper:cross-asset');
      await appendPosting(tx, entry, id('alice:USDT:available'), '-0.0001');
      await appendPosting(tx, entry, id('bob:RAB:available'), '0.0001', { asset: 'USDT' });
    });
    // The entry balances in its postings' asset and every balance is its postings' sum: only the
    // totals per asset see that a USDT unit became a RAB unit.
    expect(named(problems)).toEqual(
      named([
        { check: 'asset_total_not_zero', detail: JSON.stringify({ asset: 'RAB', sum: '0.0001' }) },
        { check: 'asset_total_not_zero', detail: JSON.stringify({ asset: 'USDT', sum: '-0.0001' }) },
      ]),
    );
  });
});
