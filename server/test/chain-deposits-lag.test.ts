import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { HDKey } from '@scure/bip32';
import { generateMnemonic, mnemonicToSeedSync } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { accountExtendedPublicKey, startDevChain, type DevChain } from '../../devchain/devchain.mjs';
import { queryRows } from '../src/db/client.js';
import { tronMatchKey } from '../src/modules/chain/address-derivation.js';
import type { DepositWatcher } from '../src/modules/chain/deposit-watcher.js';
import { FakeTronGrid } from './support/fake-trongrid.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { RpcProxy } from './support/rpc-proxy.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Deposits are never passed over on a source that answers from behind the head: a BEP20 node (or one
 * of several behind a load balancer) that reports a head it does not have yet, and TronGrid's event
 * index lagging its full node. The cursor only moves past blocks that were read in full.
 */

const USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const SENDER = '0x' + 'ab'.repeat(20);
const TRX_USDT = 1_000_000n;
const BSC_USDT = 10n ** 18n;

let chain: DevChain;
let proxy: RpcProxy;
let grid: FakeTronGrid;
let t: TestApp;
let token: string;
let mainId: string;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function addressOf(network: 'BEP20' | 'TRC20'): Promise<string> {
  return t.app
    .inject({ method: 'GET', url: `/api/recharge/address?network=${network}`, headers: { authorization: token } })
    .then((response) => response.json<Envelope<{ address: string }>>().data.address);
}

function watcherOf(network: 'BEP20' | 'TRC20'): DepositWatcher {
  return t.services.depositWatchers.find((candidate) => candidate.network === network)!;
}

async function cursorOf(network: 'BEP20' | 'TRC20'): Promise<{ scanned: string; hash: string | null }> {
  const [row] = await queryRows<{ scanned: string; hash: string | null }>(
    t.testDatabase.database.db,
    sql`select scanned_block::text as scanned, scanned_hash as hash from chain_cursors where network = ${network}`,
  );
  return row!;
}

beforeAll(async () => {
  chain = await startDevChain();
  proxy = await new RpcProxy(chain.rpcUrl).start();
  grid = await new FakeTronGrid(USDT_CONTRACT).start();
  const tronXpub = HDKey.fromMasterSeed(mnemonicToSeedSync(generateMnemonic(wordlist))).derive("m/44'/195'/0'").publicExtendedKey;
  t = await createTestApp({
    BSC_RPC_URL: proxy.url,
    BSC_USDT_CONTRACT: chain.tokenAddress,
    BSC_DEPOSIT_XPUB: accountExtendedPublicKey(),
    BSC_START_BLOCK: '0',
    BSC_RPC_TIMEOUT_MS: '3000',
    TRON_API_URL: grid.url,
    TRON_USDT_CONTRACT: USDT_CONTRACT,
    TRON_DEPOSIT_XPUB: tronXpub,
    TRON_START_BLOCK: '0',
    TRON_TIMEOUT_MS: '2000',
  });
  token = await registerMember(t, 'lagging@example.com');
  mainId = await accountIdOf(t, token);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await proxy?.stop();
  await grid?.stop();
  await chain?.stop();
});

describe('a BEP20 node behind the head it reports', () => {
  it('moves the cursor past no block the node did not have, and credits the deposit once it does', async () => {
    const watcher = watcherOf('BEP20');
    const balances = await trackBalances(t, { main: mainId });
    await watcher.scan();
    const address = (await addressOf('BEP20')) as `0x${string}`;
    await chain.mine(2);
    const lagHead = await chain.blockNumber();
    await chain.mint(address, 25n * BSC_USDT);
    await chain.mine(5);
    const head = await chain.blockNumber();

    // Another node behind the same address: it reports the real head but has only blocks up to
    // lagHead (no block after it, no logs from after it).
    proxy.intercept = async (call, forward) => {
      const hex = (value: bigint) => `0x${value.toString(16)}`;
      if (call.method === 'eth_getBlockByNumber' && typeof call.params?.[0] === 'string' && call.params?.[0].startsWith('0x')) {
        return BigInt(call.params?.[0]) > lagHead ? null : undefined;
      }
      if (call.method === 'eth_getLogs') {
        const filter = call.params?.[0] as { fromBlock: string; toBlock: string };
        if (BigInt(filter.fromBlock) > lagHead) return [];
        return forward({
          ...call,
          params: [{ ...filter, toBlock: hex(BigInt(filter.toBlock) > lagHead ? lagHead : BigInt(filter.toBlock)) }],
        });
      }
      return undefined;
    };
    const before = await cursorOf('BEP20');
    expect(await watcher.scanOnce()).toBeNull();
    expect(await cursorOf('BEP20')).toEqual(before);
    expect(await availableOf(t, mainId, 'USDT')).toBe('0.0000');
    await balances.expectChanges({});

    // The node catches up: the deposit is read and credited (it has 6 confirmations by now).
    proxy.intercept = undefined;
    const result = await watcher.scan();
    expect(result.credited).toBe(1);
    expect(await availableOf(t, mainId, 'USDT')).toBe('25.0000');
    await balances.expectChanges({ 'main:USDT:available': '25.0000', 'platform:deposits:USDT': '-25.0000' });
    const after = await cursorOf('BEP20');
    expect(BigInt(after.scanned)).toBe(head - 2n);
    expect(after.hash).toMatch(/^0x[0-9a-f]{64}$/);
  });
});

describe("TronGrid's event index lagging its full node", () => {
  it('waits at 19 confirmations by default (solidification)', () => {
    expect(watcherOf('TRC20').confirmations).toBe(19);
  });

  it('reads no block the index has not reached, so a deposit in it is credited once the index gets there', async () => {
    const watcher = watcherOf('TRC20');
    const balances = await trackBalances(t, { main: mainId });
    const toHex = tronMatchKey(await addressOf('TRC20'))!;
    const [txId] = grid.mine(1, [{ fromHex: SENDER, toHex, value: 8n * TRX_USDT }]);
    // The full node goes 30 blocks further (with USDT moving in each) while the index stays 40 behind.
    for (let i = 0; i < 30; i += 1) grid.mine(1, [{ fromHex: SENDER, toHex: SENDER, value: TRX_USDT }]);
    grid.indexLag = 40;
    await watcher.scan();
    await watcher.scan();
    expect(await availableOf(t, mainId, 'USDT')).toBe('25.0000');
    await balances.expectChanges({});

    grid.indexLag = 0;
    await watcher.scan();
    await watcher.scan();
    expect(await availableOf(t, mainId, 'USDT')).toBe('33.0000');
    // The 8 once; the sender's transfers to itself credit nobody.
    await balances.expectChanges({ 'main:USDT:available': '8.0000', 'platform:deposits:USDT': '-8.0000' });
    const [row] = await queryRows<{ status: string }>(
      t.testDatabase.database.db,
      sql`select status from chain_deposits where tx_hash = ${txId!}`,
    );
    expect(row!.status).toBe('credited');
    expect((await t.services.ledger.verify()).clean).toBe(true);
  });
});
