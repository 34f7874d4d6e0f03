import { randomUUID } from 'node:crypto';
import { money } from '@custos/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

// The assertion every money test leans on must itself fail on a wrong amount, a wrong sign, a wrong
// account and an account nobody named.
let t: TestApp;
let aliceId: string;
let bobId: string;

async function move(from: string, to: string, amount: string) {
  const units = money.parseMoney(amount);
  await t.services.ledger.transaction((tx) =>
    t.services.ledger.post(tx, {
      idempotencyKey: `tracker-test:${randomUUID()}`,
      kind: 'adjustment',
      postings: [
        { account: { ownerAccountId: to, asset: 'USDT', purpose: 'available' }, amount: units, recordType: 'adjustment_credit' },
        {
          account: { ownerAccountId: from, asset: 'USDT', purpose: 'available' },
          amount: money.negate(units),
          recordType: 'adjustment_credit',
        },
      ],
    }),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  aliceId = await accountIdOf(t, await registerMember(t, 'tracker-alice@example.com'));
  bobId = await accountIdOf(t, await registerMember(t, 'tracker-bob@example.com'));
  await fund(t, aliceId, 'USDT', '100');
});

afterAll(async () => {
  await t.close();
});

describe('the balance tracker', () => {
  it('passes on the exact changes and moves its snapshot', async () => {
    const balances = await trackBalances(t, { alice: aliceId, bob: bobId });
    await move(aliceId, bobId, '12.5');
    await balances.expectChanges({ 'alice:USDT:available': '-12.5000', 'bob:USDT:available': '+12.5000' });
    await balances.expectChanges({});
    expect(await balances.balance('bob:USDT:available')).toBe('12.5000');
    expect(await balances.balance('bob:RAB:available')).toBe('0.0000');
  });

  it('sees platform accounts', async () => {
    const balances = await trackBalances(t, { alice: aliceId });
    await fund(t, aliceId, 'USDT', '3');
    await balances.expectChanges({ 'alice:USDT:available': '3.0000', 'platform:adjustments:USDT': '-3.0000' });
  });

  it('fails on a wrong amount, a wrong sign, a wrong purpose and an unnamed account', async () => {
    const balances = await trackBalances(t, { alice: aliceId, bob: bobId });
    await move(aliceId, bobId, '1');
    const right = { 'alice:USDT:available': '-1.0000', 'bob:USDT:available': '1.0000' };
    const wrongs: Record<string, string>[] = [
      { ...right, 'bob:USDT:held': '1.0001' },
      { ...right, 'alice:USDT:available': '1.0000' },
      { 'alice:USDT:available': '-1.0000', 'bob:USDT:held': '1.0000' },
      { 'alice:USDT:available': '-1.0000' },
    ];
    for (const wrong of wrongs) {
      const again = await trackBalances(t, { alice: aliceId, bob: bobId });
      await move(aliceId, bobId, '1');
      await expect(again.expectChanges(wrong)).rejects.toThrow();
    }
    await expect(
      balances.expectChanges({ 'alice:USDT:available': '-5.0000', 'bob:USDT:available': '5.0000' }),
    ).resolves.toBeUndefined();

    // An account the test did not name is listed under its id, so it cannot pass unseen.
    const unnamed = await trackBalances(t, { alice: aliceId });
    await move(aliceId, bobId, '2');
    expect(await unnamed.changes()).toEqual({ 'alice:USDT:available': '-2.0000', [`account:${bobId}:USDT:available`]: '2.0000' });
  });

  it('refuses a zero listed as a change', async () => {
    const balances = await trackBalances(t, { alice: aliceId });
    await expect(balances.expectChanges({ 'alice:USDT:available': '0.0000' })).rejects.toThrow(/zero/);
  });
});
