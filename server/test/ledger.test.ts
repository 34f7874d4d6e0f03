import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { AppError } from '../src/http/app-error.js';
import { LedgerInvariantError } from '../src/modules/ledger/ledger.service.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
let alice: string;
let bob: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await accountIdOf(t, await registerMember(t, 'ledger-alice@example.com'));
  bob = await accountIdOf(t, await registerMember(t, 'ledger-bob@example.com'));
});
afterAll(async () => {
  await t.close();
});

const m = money.parseMoney;
const db = () => t.testDatabase.database.db;

function move(key: string, from: string, to: string, amount: string) {
  return t.services.ledger.transaction((tx) =>
    t.services.ledger.post(tx, {
      idempotencyKey: key,
      kind: 'test',
      postings: [
        {
          account: { ownerAccountId: from, asset: 'USDT', purpose: 'available' },
          amount: money.negate(m(amount)),
          recordType: 'transfer_out',
        },
        { account: { ownerAccountId: to, asset: 'USDT', purpose: 'available' }, amount: m(amount), recordType: 'transfer_in' },
      ],
    }),
  );
}

/** The database's own refusal (drizzle wraps it in a "Failed query" error). */
async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return `${String(error)} ${cause instanceof Error ? cause.message : ''}`;
  }
  throw new Error('the database accepted it');
}

async function entryCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from journal_entries`);
  return row!.n;
}

describe('posting entries', () => {
  it('moves money in one balanced entry, records the balance after each posting, and replays a retried key', async () => {
    await fund(t, alice, 'USDT', '100.0000');
    const balances = await trackBalances(t, { alice, bob });
    const first = await move('ledger-test-1', alice, bob, '30.1234');
    expect(first.duplicate).toBe(false);
    expect(await availableOf(t, alice, 'USDT')).toBe('69.8766');
    expect(await availableOf(t, bob, 'USDT')).toBe('30.1234');

    const again = await move('ledger-test-1', alice, bob, '30.1234');
    expect(again).toEqual({ entryId: first.entryId, duplicate: true });
    expect(await availableOf(t, alice, 'USDT')).toBe('69.8766');
    // Moved once, although posted twice.
    await balances.expectChanges({ 'alice:USDT:available': '-30.1234', 'bob:USDT:available': '30.1234' });

    const rows = await queryRows<{ amount: string; balance_after: string; record_type: string }>(
      db(),
      sql`select amount::text as amount, balance_after::text as balance_after, record_type from postings
          where entry_id = ${first.entryId}::bigint order by id`,
    );
    expect(rows).toEqual([
      { amount: '-30.1234', balance_after: '69.8766', record_type: 'transfer_out' },
      { amount: '30.1234', balance_after: '30.1234', record_type: 'transfer_in' },
    ]);
  });

  it('refuses an overdraft with 409 and writes nothing', async () => {
    const before = await entryCount();
    const balances = await trackBalances(t, { alice, bob });
    const attempt = move('ledger-test-overdraft', bob, alice, '30.1235');
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ code: 409, messageKey: 'ledger.insufficient_balance' });
    expect(await entryCount()).toBe(before);
    expect(await availableOf(t, bob, 'USDT')).toBe('30.1234');
    await balances.expectChanges({});
    // The key was not used up: the same key can post once the money is there.
    await fund(t, bob, 'USDT', '0.0001');
    expect((await move('ledger-test-overdraft', bob, alice, '30.1235')).duplicate).toBe(false);
    expect(await availableOf(t, bob, 'USDT')).toBe('0.0000');
    await balances.expectChanges({
      'alice:USDT:available': '30.1235',
      'bob:USDT:available': '-30.1234',
      'platform:adjustments:USDT': '-0.0001',
    });
  });

  it('refuses entries that could never be valid before touching the database', async () => {
    const before = await entryCount();
    const post = (postings: Parameters<typeof t.services.ledger.post>[1]['postings']) =>
      t.services.ledger.transaction((tx) =>
        t.services.ledger.post(tx, {
          idempotencyKey: `bad-${randomUUID()}`,
          kind: 'test',
          postings,
        }),
      );
    await expect(
      post([
        { account: { ownerAccountId: alice, asset: 'USDT', purpose: 'available' }, amount: m('-1'), recordType: 'transfer_out' },
        { account: { ownerAccountId: bob, asset: 'USDT', purpose: 'available' }, amount: m('0.9999'), recordType: 'transfer_in' },
      ]),
    ).rejects.toBeInstanceOf(LedgerInvariantError);
    await expect(
      post([
        { account: { ownerAccountId: alice, asset: 'USDT', purpose: 'available' }, amount: m('-1'), recordType: 'transfer_out' },
        { account: { ownerAccountId: bob, asset: 'RAB', purpose: 'available' }, amount: m('1'), recordType: 'transfer_in' },
      ]),
    ).rejects.toBeInstanceOf(LedgerInvariantError);
    await expect(
      post([
        { account: { ownerAccountId: alice, asset: 'USDT', purpose: 'available' }, amount: m('0'), recordType: 'transfer_out' },
      ]),
    ).rejects.toBeInstanceOf(LedgerInvariantError);
    expect(await entryCount()).toBe(before);
  });
});

describe('the database guards the ledger', () => {
  it('refuses a negative member balance even from code that skips the ledger', async () => {
    expect(
      await refusal(
        db().execute(sql`update ledger_accounts set balance = -1 where owner_account_id = ${alice}::uuid and asset = 'USDT'`),
      ),
    ).toMatch(/ledger_accounts_non_negative/);
  });

  it('refuses to change or delete journal entries and postings', async () => {
    expect(await refusal(db().execute(sql`update postings set amount = amount + 1`))).toMatch(/append-only/);
    expect(await refusal(db().execute(sql`delete from postings`))).toMatch(/append-only/);
    expect(await refusal(db().execute(sql`update journal_entries set kind = 'x'`))).toMatch(/append-only/);
    expect(await refusal(db().execute(sql`truncate journal_entries cascade`))).toMatch(/append-only/);
  });

  it('refuses at commit an entry whose postings do not sum to zero', async () => {
    const before = await entryCount();
    const [account] = await queryRows<{ id: string }>(
      db(),
      sql`select id from ledger_accounts where owner_account_id = ${alice}::uuid and asset = 'USDT' and purpose = 'available'`,
    );
    expect(
      await refusal(
        db().transaction(async (tx) => {
          const [entry] = await queryRows<{ id: string }>(
            tx,
            sql`insert into journal_entries (idempotency_key, kind) values ('raw-unbalanced', 'test') returning id::text as id`,
          );
          await tx.execute(
            sql`insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
              values (${entry!.id}::bigint, ${account!.id}::uuid, 'USDT', 5, 0, 'adjustment_credit')`,
          );
        }),
      ),
    ).toMatch(/does not balance/);
    expect(await entryCount()).toBe(before);
  });

  it('refuses a posting whose asset differs from its account', async () => {
    const [account] = await queryRows<{ id: string }>(
      db(),
      sql`select id from ledger_accounts where owner_account_id = ${alice}::uuid and asset = 'USDT' and purpose = 'available'`,
    );
    expect(
      await refusal(
        db().transaction(async (tx) => {
          const [entry] = await queryRows<{ id: string }>(
            tx,
            sql`insert into journal_entries (idempotency_key, kind) values ('raw-asset', 'test') returning id::text as id`,
          );
          await tx.execute(
            sql`insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
              values (${entry!.id}::bigint, ${account!.id}::uuid, 'RAB', 5, 0, 'adjustment_credit')`,
          );
        }),
      ),
    ).toMatch(/postings_account_asset_fk/);
  });
});

describe('holds', () => {
  it('holds, then captures to a platform account or releases back, each once', async () => {
    await fund(t, alice, 'USDT', '50.0000');
    const start = m(await availableOf(t, alice, 'USDT'));
    const balances = await trackBalances(t, { alice, bob });
    const ledger = t.services.ledger;
    const hold = await ledger.transaction((tx) =>
      ledger.hold(tx, {
        ownerAccountId: alice,
        asset: 'USDT',
        amount: m('20'),
        referenceType: 'test_withdrawal',
        referenceId: 'w1',
      }),
    );
    expect(hold.status).toBe('pending');
    expect(await availableOf(t, alice, 'USDT')).toBe(money.formatMoney(money.subtract(start, m('20'))));
    // Holding again for the same reference is a retry, not a second hold.
    const again = await ledger.transaction((tx) =>
      ledger.hold(tx, {
        ownerAccountId: alice,
        asset: 'USDT',
        amount: m('20'),
        referenceType: 'test_withdrawal',
        referenceId: 'w1',
      }),
    );
    expect(again.id).toBe(hold.id);
    expect(await availableOf(t, alice, 'USDT')).toBe(money.formatMoney(money.subtract(start, m('20'))));
    await balances.expectChanges({ 'alice:USDT:available': '-20.0000', 'alice:USDT:held': '20.0000' });

    const capture = () =>
      ledger.transaction((tx) =>
        ledger.captureHold(
          tx,
          { referenceType: 'test_withdrawal', referenceId: 'w1' },
          { platformCode: 'withdrawals', asset: 'USDT' },
          {
            from: 'withdraw',
            to: 'withdraw',
          },
        ),
      );
    const captured = await capture();
    expect(captured.duplicate).toBe(false);
    expect((await capture()).duplicate).toBe(true);
    await expect(
      ledger.transaction((tx) => ledger.releaseHold(tx, { referenceType: 'test_withdrawal', referenceId: 'w1' })),
    ).rejects.toMatchObject({ code: 409 });
    // Captured once; the refused release moved nothing back.
    await balances.expectChanges({ 'alice:USDT:held': '-20.0000', 'platform:withdrawals:USDT': '20.0000' });

    await ledger.transaction((tx) =>
      ledger.hold(tx, {
        ownerAccountId: alice,
        asset: 'USDT',
        amount: m('5'),
        referenceType: 'test_withdrawal',
        referenceId: 'w2',
      }),
    );
    await ledger.transaction((tx) => ledger.releaseHold(tx, { referenceType: 'test_withdrawal', referenceId: 'w2' }));
    expect(await availableOf(t, alice, 'USDT')).toBe(money.formatMoney(money.subtract(start, m('20'))));
    const [held] = await queryRows<{ balance: string }>(
      db(),
      sql`select balance::text as balance from ledger_accounts where owner_account_id = ${alice}::uuid and purpose = 'held'`,
    );
    expect(held!.balance).toBe('0.0000');
    expect((await ledger.verify()).clean).toBe(true);
    // Held and released: back where it was.
    await balances.expectChanges({});
  });

  it('refuses to hold more than is available', async () => {
    const balances = await trackBalances(t, { alice, bob });
    const ledger = t.services.ledger;
    await expect(
      ledger.transaction((tx) =>
        ledger.hold(tx, {
          ownerAccountId: bob,
          asset: 'USDT',
          amount: m('1000'),
          referenceType: 'test_withdrawal',
          referenceId: 'w3',
        }),
      ),
    ).rejects.toMatchObject({ code: 409, messageKey: 'ledger.insufficient_balance' });
    await balances.expectChanges({});
  });
});

describe('batches of entries and holds (postMany, settleHolds)', () => {
  const available = (owner: string) => ({ ownerAccountId: owner, asset: 'USDT' as const, purpose: 'available' as const });
  const pay = (key: string, from: string, to: string, amount: string) => ({
    idempotencyKey: key,
    kind: 'test',
    postings: [
      { account: available(from), amount: money.negate(m(amount)), recordType: 'transfer_out' as const },
      { account: available(to), amount: m(amount), recordType: 'transfer_in' as const },
    ],
  });

  it('posts many entries in id order with running balances, replays posted keys, and refuses a batch that overdraws', async () => {
    const carol = await accountIdOf(t, await registerMember(t, 'ledger-carol@example.com'));
    const dave = await accountIdOf(t, await registerMember(t, 'ledger-dave@example.com'));
    await fund(t, carol, 'USDT', '10.0000');
    const balances = await trackBalances(t, { carol, dave });
    const ledger = t.services.ledger;
    const first = await ledger.transaction((tx) =>
      ledger.postMany(tx, [
        pay('batch-1', carol, dave, '1.0000'),
        pay('batch-2', carol, dave, '2.5000'),
        pay('batch-3', dave, carol, '0.5000'),
      ]),
    );
    expect(first.map((entry) => entry.duplicate)).toEqual([false, false, false]);
    expect(BigInt(first[0]!.entryId) < BigInt(first[1]!.entryId) && BigInt(first[1]!.entryId) < BigInt(first[2]!.entryId)).toBe(
      true,
    );
    expect(await availableOf(t, carol, 'USDT')).toBe('7.0000');
    expect(await availableOf(t, dave, 'USDT')).toBe('3.0000');
    const carolRows = await queryRows<{ amount: string; balance_after: string }>(
      db(),
      sql`select p.amount::text as amount, p.balance_after::text as balance_after from postings p
            join ledger_accounts a on a.id = p.ledger_account_id
          where a.owner_account_id = ${carol}::uuid and a.purpose = 'available' and p.entry_id >= ${first[0]!.entryId}::bigint order by p.id`,
    );
    expect(carolRows).toEqual([
      { amount: '-1.0000', balance_after: '9.0000' },
      { amount: '-2.5000', balance_after: '6.5000' },
      { amount: '0.5000', balance_after: '7.0000' },
    ]);

    // A retried batch: the posted keys move nothing, the new one posts.
    const again = await ledger.transaction((tx) =>
      ledger.postMany(tx, [pay('batch-2', carol, dave, '2.5000'), pay('batch-4', carol, dave, '1.0000')]),
    );
    expect(again.map((entry) => entry.duplicate)).toEqual([true, false]);
    expect(again[0]!.entryId).toBe(first[1]!.entryId);
    expect(await availableOf(t, carol, 'USDT')).toBe('6.0000');
    // 1 + 2.5 − 0.5 + 1 from Carol to Dave, the replayed 2.5 once.
    await balances.expectChanges({ 'carol:USDT:available': '-4.0000', 'dave:USDT:available': '4.0000' });

    // One entry of the batch overdraws: nothing of the batch is written.
    const before = await entryCount();
    await expect(
      ledger.transaction((tx) =>
        ledger.postMany(tx, [pay('batch-5', carol, dave, '1.0000'), pay('batch-6', carol, dave, '5.0001')]),
      ),
    ).rejects.toMatchObject({ code: 409, messageKey: 'ledger.insufficient_balance' });
    await expect(
      ledger.transaction((tx) =>
        ledger.postMany(tx, [pay('batch-7', carol, dave, '1.0000'), pay('batch-7', carol, dave, '1.0000')]),
      ),
    ).rejects.toBeInstanceOf(LedgerInvariantError);
    expect(await entryCount()).toBe(before);
    expect(await availableOf(t, carol, 'USDT')).toBe('6.0000');
    expect((await ledger.verify()).clean).toBe(true);
    await balances.expectChanges({});
  });

  it('posts a batch across more accounts than a filter lists inline: ten members and a platform account', async () => {
    const payer = await accountIdOf(t, await registerMember(t, 'ledger-wide-payer@example.com'));
    await fund(t, payer, 'USDT', '100.0000');
    const payees: string[] = [];
    for (let index = 0; index < 10; index += 1)
      payees.push(await accountIdOf(t, await registerMember(t, `ledger-wide-${index}@example.com`)));
    const balances = await trackBalances(t, {
      payer,
      ...Object.fromEntries(payees.map((payee, index) => [`payee${index}`, payee])),
    });
    const ledger = t.services.ledger;
    const fees = { platformCode: 'fees' as const, asset: 'USDT' as const };
    const feesBefore = await queryRows<{ balance: string }>(
      db(),
      sql`select balance::text as balance from ledger_accounts where platform_code = 'fees' and asset = 'USDT'`,
    );
    const posted = await ledger.transaction((tx) =>
      ledger.postMany(
        tx,
        payees.map((payee, index) => ({
          idempotencyKey: `wide-${index}`,
          kind: 'test',
          postings: [
            { account: available(payer), amount: m('-1.5000'), recordType: 'transfer_out' as const },
            { account: available(payee), amount: m('1.0000'), recordType: 'transfer_in' as const },
            { account: fees, amount: m('0.5000'), recordType: 'withdraw_fee' as const },
          ],
        })),
      ),
    );
    expect(posted.map((entry) => entry.duplicate)).toEqual(payees.map(() => false));
    expect(await availableOf(t, payer, 'USDT')).toBe('85.0000');
    for (const payee of payees) expect(await availableOf(t, payee, 'USDT')).toBe('1.0000');
    const feesAfter = await queryRows<{ balance: string }>(
      db(),
      sql`select balance::text as balance from ledger_accounts where platform_code = 'fees' and asset = 'USDT'`,
    );
    expect(money.subtract(m(feesAfter[0]!.balance), m(feesBefore[0]?.balance ?? '0'))).toBe(m('5.0000'));
    expect((await ledger.verify()).clean).toBe(true);
    await balances.expectChanges({
      'payer:USDT:available': '-15.0000',
      ...Object.fromEntries(payees.map((_, index) => [`payee${index}:USDT:available`, '1.0000'])),
      'platform:fees:USDT': '5.0000',
    });
  });

  it('releases and captures many holds with further entries in one batch, each once', async () => {
    const erin = await accountIdOf(t, await registerMember(t, 'ledger-erin@example.com'));
    await fund(t, erin, 'USDT', '100.0000');
    const balances = await trackBalances(t, { erin });
    const ledger = t.services.ledger;
    for (const id of ['h1', 'h2']) {
      await ledger.transaction((tx) =>
        ledger.hold(tx, { ownerAccountId: erin, asset: 'USDT', amount: m('10'), referenceType: 'test_batch', referenceId: id }),
      );
    }
    expect(await availableOf(t, erin, 'USDT')).toBe('80.0000');
    await balances.expectChanges({ 'erin:USDT:available': '-20.0000', 'erin:USDT:held': '20.0000' });
    const fees = { platformCode: 'fees' as const, asset: 'USDT' as const };
    const settle = () =>
      ledger.transaction((tx) =>
        ledger.settleHolds(
          tx,
          [
            { reference: { referenceType: 'test_batch', referenceId: 'h1' }, status: 'released', recordType: 'hold_release' },
            {
              reference: { referenceType: 'test_batch', referenceId: 'h2' },
              status: 'captured',
              recordType: 'withdraw',
              destinations: [
                { account: available(erin), amount: m('7.5'), recordType: 'hold_release' },
                { account: fees, amount: m('2.5'), recordType: 'withdraw_fee' },
              ],
            },
          ],
          [
            {
              idempotencyKey: 'batch-bonus',
              kind: 'test',
              postings: [
                { account: available(erin), amount: m('1'), recordType: 'transfer_in' },
                { account: fees, amount: m('-1'), recordType: 'transfer_out' },
              ],
            },
          ],
        ),
      );
    const first = await settle();
    expect(first.map((entry) => entry.duplicate)).toEqual([false, false, false]);
    // 80 + 10 released + 7.5 of the capture + 1.
    expect(await availableOf(t, erin, 'USDT')).toBe('98.5000');
    const holds = await queryRows<{ reference_id: string; status: string; settle_entry_id: string }>(
      db(),
      sql`select reference_id, status, settle_entry_id::text as settle_entry_id from ledger_holds
          where reference_type = 'test_batch' order by reference_id`,
    );
    expect(holds).toEqual([
      { reference_id: 'h1', status: 'released', settle_entry_id: first[0]!.entryId },
      { reference_id: 'h2', status: 'captured', settle_entry_id: first[1]!.entryId },
    ]);
    // Settled again the same way: a retry, nothing moves.
    const again = await settle();
    expect(again).toEqual(first.map((entry) => ({ ...entry, duplicate: true })));
    expect(await availableOf(t, erin, 'USDT')).toBe('98.5000');
    // Settled once: 10 released and 7.5 of the capture back, 2.5 to fees, 1 from fees.
    await balances.expectChanges({
      'erin:USDT:available': '18.5000',
      'erin:USDT:held': '-20.0000',
      'platform:fees:USDT': '1.5000',
    });
    // The other way: refused.
    await expect(
      ledger.transaction((tx) =>
        ledger.settleHolds(tx, [
          { reference: { referenceType: 'test_batch', referenceId: 'h2' }, status: 'released', recordType: 'hold_release' },
        ]),
      ),
    ).rejects.toMatchObject({ code: 409 });
    expect((await ledger.verify()).clean).toBe(true);
    await balances.expectChanges({});
  });
});
