import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { money } from '@custos/contract';
import {
  accountExtendedPublicKey,
  accountPrivateKey,
  HARDHAT_MNEMONIC,
  startDevChain,
  type DevChain,
} from '../../devchain/devchain.mjs';
import { queryRows } from '../src/db/client.js';
import { ChainRepository } from '../src/modules/chain/chain.repository.js';
import { sweepBep20, type SweepOptions } from '../src/modules/chain/sweep.js';
import { trackBalances, type BalanceTracker } from './support/balances.js';
import { accountIdOf } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** `npm run sweep` on the dev chain: gas first where needed, everything above the threshold collected, recorded. */

const USDT = 10n ** 18n;
const collection = privateKeyToAddress(generatePrivateKey());
let chain: DevChain;
let t: TestApp;
let rich: `0x${string}`;
let small: `0x${string}`;
let names: Record<string, string>;
const lines: string[] = [];

function options(overrides: Partial<SweepOptions> = {}): SweepOptions {
  return {
    rpcUrl: chain.rpcUrl,
    tokenAddress: chain.tokenAddress,
    mnemonic: HARDHAT_MNEMONIC,
    account: 1,
    collectionAddress: collection,
    minimum: money.parseMoney('10'),
    gasKey: accountPrivateKey(2),
    hotWalletAddress: privateKeyToAddress(accountPrivateKey(3)),
    dryRun: false,
    log: (line) => lines.push(line),
    ...overrides,
  };
}

async function addressOf(token: string): Promise<`0x${string}`> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/recharge/address?network=BEP20',
    headers: { authorization: token },
  });
  return response.json<{ data: { address: `0x${string}` } }>().data.address;
}

beforeAll(async () => {
  chain = await startDevChain();
  // Account 1's addresses hold no native coin, so the sweep must send gas first.
  t = await createTestApp({
    BSC_RPC_URL: chain.rpcUrl,
    BSC_USDT_CONTRACT: chain.tokenAddress,
    BSC_DEPOSIT_XPUB: accountExtendedPublicKey(1),
    BSC_START_BLOCK: '0',
  });
  const richToken = await registerMember(t, 'sweep-rich@example.com');
  const smallToken = await registerMember(t, 'sweep-small@example.com');
  rich = await addressOf(richToken);
  small = await addressOf(smallToken);
  names = { rich: await accountIdOf(t, richToken), small: await accountIdOf(t, smallToken) };
  await chain.mint(rich, 30n * USDT);
  await chain.mint(small, 5n * USDT);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

/**
 * A sweep moves custody between the platform's own addresses: the members were (or will be) credited
 * by the deposit watcher, so no ledger account may change, whether the sweep is refused, planned or sent.
 */
let balances: BalanceTracker;

describe('sweeping deposit addresses', () => {
  beforeEach(async () => {
    balances = await trackBalances(t, names);
  });
  afterEach(async () => {
    await balances.expectChanges({});
  });

  it('refuses a mnemonic (or account) that does not make the stored addresses, before sending anything', async () => {
    const repository = new ChainRepository(t.testDatabase.database.db);
    await expect(sweepBep20(repository, options({ account: 0 }))).rejects.toThrow(/does not make deposit address/);
    await expect(sweepBep20(repository, options({ mnemonic: 'not a mnemonic at all' }))).rejects.toThrow(/not a valid/);
    expect(await chain.balanceOf(rich)).toBe(30n * USDT);
  });

  it('refuses to pay gas from the payout hot wallet (its nonces belong to signed payouts), before sending anything', async () => {
    const repository = new ChainRepository(t.testDatabase.database.db);
    const hotWallet = privateKeyToAddress(accountPrivateKey(3));
    const nonceBefore = await chain.publicClient.getTransactionCount({ address: hotWallet });
    await expect(sweepBep20(repository, options({ gasKey: accountPrivateKey(3) }))).rejects.toThrow(
      /SWEEP_GAS_KEY must be a wallet of its own/,
    );
    expect(await chain.publicClient.getTransactionCount({ address: hotWallet })).toBe(nonceBefore);
    expect(await chain.balanceOf(rich)).toBe(30n * USDT);
  });

  it('plans in a dry run, then sends gas and collects what is above the threshold, recording each move', async () => {
    const repository = new ChainRepository(t.testDatabase.database.db);
    const planned = await sweepBep20(repository, options({ dryRun: true }));
    expect(planned).toEqual([expect.objectContaining({ address: rich, amount: '30.0000', status: 'planned' })]);
    expect(await chain.balanceOf(rich)).toBe(30n * USDT);

    const swept = await sweepBep20(repository, options());
    expect(swept).toEqual([expect.objectContaining({ address: rich, amount: '30.0000', status: 'sent' })]);
    expect(swept[0]!.gasTxHash).toMatch(/^0x/);
    expect(await chain.balanceOf(collection)).toBe(30n * USDT);
    expect(await chain.balanceOf(rich)).toBe(0n);
    expect(await chain.balanceOf(small)).toBe(5n * USDT);
    const rows = await queryRows<{ status: string; amount: string; to_address: string }>(
      t.testDatabase.database.db,
      sql`select status, amount::text as amount, to_address from chain_sweeps`,
    );
    expect(rows).toEqual([{ status: 'sent', amount: '30.0000', to_address: collection }]);

    // Nothing left above the threshold: a second run moves nothing.
    expect(await sweepBep20(repository, options())).toEqual([]);
  });
});
