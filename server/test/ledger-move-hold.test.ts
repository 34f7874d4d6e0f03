import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { money } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { LedgerInvariantError } from '../src/modules/ledger/ledger.service.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * moveHold (docs/decisions/031-otc.md): part or all of a pending hold moves to another reference of
 * the same owner in one entry; the held balance stays, nothing can move more than the hold holds.
 */

let t: TestApp;
let alice: string;
let bob: string;
const m = money.parseMoney;

beforeAll(async () => {
  t = await createTestApp();
  alice = await accountIdOf(t, await registerMember(t, 'move-hold-alice@example.com'));
  bob = await accountIdOf(t, await registerMember(t, 'move-hold-bob@example.com'));
  await fund(t, alice, 'USDT', '100');
  await fund(t, bob, 'USDT', '100');
});
afterEach(async () => {
  expect((await t.services.ledger.verify()).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
});

const ref = (id: string) => ({ referenceType: 'test_move', referenceId: id });

function hold(ownerAccountId: string, amount: string, id: string) {
  const ledger = t.services.ledger;
  return ledger.transaction((tx) => ledger.hold(tx, { ownerAccountId, asset: 'USDT', amount: m(amount), ...ref(id) }));
}
function move(from: string, to: string, amount: string, key: string) {
  const ledger = t.services.ledger;
  return ledger.transaction((tx) =>
    ledger.moveHold(tx, { from: ref(from), to: ref(to), amount: m(amount), idempotencyKey: key, recordType: 'otc_escrow' }),
  );
}
async function holds(): Promise<Record<string, string>> {
  const rows = await queryRows<{ reference_id: string; amount: string; status: string }>(
    t.testDatabase.database.db,
    sql`select reference_id, amount::text as amount, status from ledger_holds where reference_type = 'test_move' order by reference_id`,
  );
  return Object.fromEntries(rows.map((row) => [row.reference_id, `${row.amount} ${row.status}`]));
}
async function heldOf(accountId: string): Promise<string> {
  const balances = await t.services.ledger.balancesOf([accountId]);
  return money.formatMoney(balances.get(`${accountId}:USDT:held`) ?? money.ZERO);
}

describe('moveHold', () => {
  it('moves part of a hold to a new reference, then the rest (the source is settled), then back (merged)', async () => {
    const balances = await trackBalances(t, { alice, bob });
    await hold(alice, '50', 'listing-a');
    await balances.expectChanges({ 'alice:USDT:available': '-50.0000', 'alice:USDT:held': '50.0000' });
    await move('listing-a', 'order-1', '20', 'move-1');
    expect(await holds()).toEqual({ 'listing-a': '30.0000 pending', 'order-1': '20.0000 pending' });
    await move('listing-a', 'order-2', '30', 'move-2');
    expect(await holds()).toMatchObject({ 'listing-a': '30.0000 captured', 'order-2': '30.0000 pending' });
    await move('order-1', 'order-2', '20', 'move-3');
    expect(await holds()).toMatchObject({ 'order-1': '20.0000 captured', 'order-2': '50.0000 pending' });
    // The held balance never changed, nor did what is available.
    expect(await heldOf(alice)).toBe('50.0000');
    expect(await availableOf(t, alice, 'USDT')).toBe('50.0000');
    await balances.expectChanges({});
    // The member's balance log (available only) shows only the hold itself.
    const log = await t.services.ledger.log(alice, { asset: 'USDT' }, { limit: 10, offset: 0 });
    expect(log.total).toBe(2); // the funding and the hold
  });

  it('never moves more than the hold holds, nor from a settled hold, nor into another owner’s hold', async () => {
    await hold(bob, '10', 'bob-1');
    const balances = await trackBalances(t, { alice, bob });
    await expect(move('bob-1', 'bob-2', '10.0001', 'over')).rejects.toBeInstanceOf(LedgerInvariantError);
    await expect(move('listing-a', 'bob-3', '1', 'settled')).rejects.toBeInstanceOf(LedgerInvariantError);
    await expect(move('bob-1', 'order-2', '1', 'foreign')).rejects.toBeInstanceOf(LedgerInvariantError);
    await expect(move('missing', 'bob-4', '1', 'missing')).rejects.toBeInstanceOf(LedgerInvariantError);
    expect(await holds()).toMatchObject({ 'bob-1': '10.0000 pending' });
    expect(await heldOf(bob)).toBe('10.0000');
    await balances.expectChanges({});
  });

  it('moves nothing again for a key it has used', async () => {
    await hold(bob, '40', 'bob-5');
    const balances = await trackBalances(t, { alice, bob });
    const first = await move('bob-5', 'bob-6', '15', 'once');
    const again = await move('bob-5', 'bob-6', '15', 'once');
    expect(again).toEqual({ entryId: first.entryId, duplicate: true });
    expect(await holds()).toMatchObject({ 'bob-5': '25.0000 pending', 'bob-6': '15.0000 pending' });
    await balances.expectChanges({});
    await t.services.ledger.transaction((tx) => t.services.ledger.releaseHold(tx, ref('bob-6')));
    expect(await availableOf(t, bob, 'USDT')).toBe('65.0000');
    // Only the moved part comes back: 15 of the 40 held.
    await balances.expectChanges({ 'bob:USDT:available': '15.0000', 'bob:USDT:held': '-15.0000' });
  });
});
