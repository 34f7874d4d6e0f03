import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { accountExtendedPublicKey, startDevChain, type DevChain } from '../../devchain/devchain.mjs';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The demo's chain is a new one at every server start while the database stays (decision 019): after
 * `startOverOnNewChain`, a deposit on the new chain is credited although its blocks are numbered
 * from 0 again, and what the old chain credited stays credited.
 */

const USDT = 10n ** 18n;
let chain: DevChain;
let t: TestApp;
let accountId: string;
let address: `0x${string}`;

/** Sends USDT to the member from a fresh key, as `npm run demo:faucet` does (unique transaction hashes). */
async function depositFromFreshKey(on: DevChain, amountUnits: bigint): Promise<void> {
  const sender = generatePrivateKey();
  await on.sendNative(privateKeyToAddress(sender), 10n ** 16n);
  await on.mint(privateKeyToAddress(sender), amountUnits);
  await on.transfer(sender, address, amountUnits);
}

/** Scans until the watcher's cursor has caught up with the final blocks. */
async function scanToHead(): Promise<void> {
  const watcher = t.services.depositWatchers[0]!;
  for (let scans = 0; scans < 10; scans += 1) {
    const result = await watcher.scan();
    if (result.scannedBlock >= result.headBlock - 2n) return;
  }
  throw new Error('the watcher did not catch up');
}

beforeAll(async () => {
  chain = await startDevChain();
  t = await createTestApp({
    BSC_RPC_URL: chain.rpcUrl,
    BSC_USDT_CONTRACT: chain.tokenAddress,
    BSC_DEPOSIT_XPUB: accountExtendedPublicKey(1),
    BSC_START_BLOCK: '0',
  });
  const token = await registerMember(t, 'restart@example.com');
  accountId = await accountIdOf(t, token);
  const found = await t.services.auth.memberByEmail('restart@example.com');
  address = (await t.services.chain.address({ sessionId: '', ...found! }, 'BEP20')).address as `0x${string}`;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

describe('the demo chain restarted from block 0', () => {
  it('credits a deposit on the new chain once the watcher starts over, keeping the old chain’s credit', async () => {
    const balances = await trackBalances(t, { member: accountId });
    await depositFromFreshKey(chain, 40n * USDT);
    await chain.mine(30);
    await scanToHead();
    expect(await availableOf(t, accountId, 'USDT')).toBe('40.0000');
    await balances.expectChanges({ 'member:USDT:available': '40.0000', 'platform:deposits:USDT': '-40.0000' });

    // The same port, a new chain: its head is far below the old cursor, and its block hashes differ.
    const port = Number(new URL(chain.rpcUrl).port);
    await chain.stop();
    chain = await startDevChain({ port });
    await t.services.chain.startOverOnNewChain('BEP20');
    await depositFromFreshKey(chain, 25n * USDT);
    await chain.mine(3);
    await scanToHead();
    expect(await availableOf(t, accountId, 'USDT')).toBe('65.0000');
    // Only the new chain's 25: the old chain's 40 is neither taken back nor credited again.
    await balances.expectChanges({ 'member:USDT:available': '25.0000', 'platform:deposits:USDT': '-25.0000' });
    const statuses = await t.services.chain.watcherStatuses();
    expect(statuses.find((status) => status.network === 'BEP20')).toMatchObject({ lastError: null, consecutiveFailures: 0 });
  });
});
