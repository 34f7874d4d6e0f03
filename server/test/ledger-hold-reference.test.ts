import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '@custos/contract';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** A hold reference names one hold: a second call under it with another owner, asset or amount is refused. */

let t: TestApp;
let alice: string;
let bob: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await accountIdOf(t, await registerMember(t, 'hold-ref-alice@example.com'));
  bob = await accountIdOf(t, await registerMember(t, 'hold-ref-bob@example.com'));
  await fund(t, alice, 'USDT', '100');
  await fund(t, bob, 'USDT', '100');
});
afterAll(async () => {
  await t.close();
});

const m = money.parseMoney;

function hold(ownerAccountId: string, asset: 'USDT' | 'RAB', amount: string, referenceId: string) {
  const ledger = t.services.ledger;
  return ledger.transaction((tx) =>
    ledger.hold(tx, { ownerAccountId, asset, amount: m(amount), referenceType: 'test_hold_ref', referenceId }),
  );
}

describe('hold() under an existing reference', () => {
  it('returns the same hold for the same owner, asset and amount, and refuses any other', async () => {
    const balances = await trackBalances(t, { alice, bob });
    const first = await hold(alice, 'USDT', '20', 'r1');
    expect((await hold(alice, 'USDT', '20.0000', 'r1')).id).toBe(first.id);

    await expect(hold(alice, 'USDT', '25', 'r1')).rejects.toMatchObject({
      code: 409,
      messageKey: 'ledger.idempotency_mismatch',
    });
    await expect(hold(bob, 'USDT', '20', 'r1')).rejects.toMatchObject({ code: 409, messageKey: 'ledger.idempotency_mismatch' });
    await expect(hold(alice, 'RAB', '20', 'r1')).rejects.toMatchObject({ code: 409, messageKey: 'ledger.idempotency_mismatch' });

    // Nothing moved for the refused calls.
    expect(await availableOf(t, alice, 'USDT')).toBe('80.0000');
    expect(await availableOf(t, bob, 'USDT')).toBe('100.0000');
    expect((await t.services.ledger.verify()).clean).toBe(true);
    // The one hold, once.
    await balances.expectChanges({ 'alice:USDT:available': '-20.0000', 'alice:USDT:held': '20.0000' });
  });

  it('refuses a mismatch also once the hold was released', async () => {
    const balances = await trackBalances(t, { alice, bob });
    await hold(bob, 'USDT', '10', 'r2');
    await t.services.ledger.transaction((tx) =>
      t.services.ledger.releaseHold(tx, { referenceType: 'test_hold_ref', referenceId: 'r2' }),
    );
    await expect(hold(bob, 'USDT', '30', 'r2')).rejects.toMatchObject({ code: 409 });
    expect(await availableOf(t, bob, 'USDT')).toBe('100.0000');
    await balances.expectChanges({});
  });
});
