import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { accountExtendedPublicKey, startDevChain, type DevChain } from '../../devchain/devchain.mjs';
import { HDKey } from '@scure/bip32';
import type { Deposit } from '@custos/contract';
import { AddressDeriver, addressOfPublicKey, tronMatchKey } from '../src/modules/chain/address-derivation.js';
import type { ChainSource } from '../src/modules/chain/chain-source.js';
import { DepositWatcher, tokenUnitsToMoney } from '../src/modules/chain/deposit-watcher.js';
import { createLogger } from '../src/lib/logger.js';
import { ChainRepository } from '../src/modules/chain/chain.repository.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Deposits on a real EVM node (Hardhat, started here): credited only at 3 confirmations and exactly
 * once, never when the block is reorganised away first, nothing lost or repeated when the RPC stops
 * mid-scan, and below-minimum deposits shown but never credited.
 */

let chain: DevChain;
let t: TestApp;
let token: string;
let mainId: string;
let address: `0x${string}`;
let watcher: DepositWatcher;

const USDT = 10n ** 18n;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(url: string, as = token) {
  return t.app
    .inject({ method: 'GET', url, headers: { authorization: as, lang: 'EN' } })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

async function deposits(): Promise<Deposit[]> {
  return (await call<{ items: Deposit[] }>('/api/recharge/list')).body.data.items;
}

async function depositOf(txHash: string): Promise<Deposit | undefined> {
  return (await deposits()).find((deposit) => deposit.txHash === txHash.toLowerCase());
}

beforeAll(async () => {
  chain = await startDevChain();
  t = await createTestApp({
    BSC_RPC_URL: chain.rpcUrl,
    BSC_USDT_CONTRACT: chain.tokenAddress,
    BSC_DEPOSIT_XPUB: accountExtendedPublicKey(),
    BSC_START_BLOCK: '0',
    BSC_RPC_TIMEOUT_MS: '1500',
  });
  watcher = t.services.depositWatchers[0]!;
  token = await registerMember(t, 'depositor@example.com');
  mainId = await accountIdOf(t, token);
  const response = await call<{ address: `0x${string}`; confirmations: number; minimumAmount: string }>(
    '/api/recharge/address?network=BEP20',
  );
  expect(response.body.data).toMatchObject({ network: 'BEP20', confirmations: 3, minimumAmount: '1.0000' });
  address = response.body.data.address;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

describe('deposit addresses', () => {
  it('derives the member address from the xpub: the same as the key holder computes, stable, and per member', async () => {
    // Hardhat's accounts are the children 0/i of this xpub, so index i must give account i's address.
    const again = await call<{ address: string }>('/api/recharge/address?network=BEP20');
    expect(again.body.data.address).toBe(address);
    const other = await registerMember(t, 'depositor-2@example.com');
    const otherAddress = (await call<{ address: string }>('/api/recharge/address?network=BEP20', other)).body.data.address;
    expect(otherAddress).not.toBe(address);
    const deriver = new AddressDeriver('BEP20', accountExtendedPublicKey());
    const derived = [0, 1, 2, 3].map((index) => deriver.derive(index).address);
    expect(derived).toContain(address);
    expect(derived).toContain(otherAddress);
    // Account 0 of the Hardhat mnemonic is the well-known deployer.
    expect(deriver.derive(0).address).toBe(chain.deployer);
  });

  it('makes TRON addresses from the same kind of key: base58check T… whose hash matches the EVM form', () => {
    const key = HDKey.fromExtendedKey(accountExtendedPublicKey()).deriveChild(0).deriveChild(0);
    const tron = addressOfPublicKey('TRC20', key.publicKey!);
    const evm = addressOfPublicKey('BEP20', key.publicKey!);
    expect(tron.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(tron.matchKey).toBe(evm.matchKey);
    expect(tronMatchKey(tron.address)).toBe(tron.matchKey);
    expect(tronMatchKey(`${tron.address.slice(0, -1)}x`)).toBeNull();
  });

  it('refuses an extended private key as a deposit key', () => {
    const xprv = HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).privateExtendedKey;
    expect(() => new AddressDeriver('BEP20', xprv)).toThrow(/public/);
  });

  it('answers a disabled network with the reason', async () => {
    const response = await call('/api/recharge/address?network=TRC20');
    expect(response.status).toBe(409);
    expect(response.body.message).toBe('Deposits on TRC20 are not available at the moment');
    const index = await call<{ networks: { network: string; enabled: boolean }[] }>('/api/recharge/recharge');
    expect(index.body.data.networks).toEqual([
      { network: 'BEP20', enabled: true },
      { network: 'TRC20', enabled: false },
    ]);
  });
});

describe('the BEP20 watcher', () => {
  it('rounds token units down to 4 places', () => {
    expect(tokenUnitsToMoney(1_234_567_890_000_000_000n, 18).toString()).toBe('12345');
    expect(tokenUnitsToMoney(1_999_999n, 6).toString()).toBe('19999');
    expect(tokenUnitsToMoney(7n, 2).toString()).toBe('700');
  });

  it('records a deposit at first sight and credits it once, at 3 confirmations', async () => {
    const balances = await trackBalances(t, { main: mainId });
    const txHash = await chain.mint(address, 10n * USDT + 123_456_789n * 10n ** 9n); // 10.123456789 USDT
    await watcher.scan();
    expect(await depositOf(txHash)).toMatchObject({ status: 'confirming', confirmations: 1, amount: '10.1234' });
    expect(await availableOf(t, mainId, 'USDT')).toBe('0.0000');

    await chain.mine(1);
    await watcher.scan();
    expect(await depositOf(txHash)).toMatchObject({ status: 'confirming', confirmations: 2 });
    expect(await availableOf(t, mainId, 'USDT')).toBe('0.0000');
    await balances.expectChanges({});

    await chain.mine(1);
    await watcher.scan();
    expect(await depositOf(txHash)).toMatchObject({ status: 'credited', confirmations: 3, requiredConfirmations: 3 });
    expect(await availableOf(t, mainId, 'USDT')).toBe('10.1234');
    // The credit comes from the platform's deposits account, rounded down to 4 places on both sides.
    await balances.expectChanges({ 'main:USDT:available': '10.1234', 'platform:deposits:USDT': '-10.1234' });

    // More blocks and more scans, by this watcher or a second one on the same database, move nothing.
    const second = new DepositWatcher(
      t.testDatabase.database.db,
      watcher.source,
      new ChainRepository(t.testDatabase.database.db),
      t.services.ledger,
      { confirmations: 3, startBlock: 0n, maxBlockRange: 500, pollMs: 1000 },
      createLogger('silent'),
      t.services.memberEvents,
    );
    await chain.mine(2);
    // PGlite runs one transaction at a time: only this test's PostgreSQL run proves the race.
    await Promise.all([watcher.scan(), second.scan(), watcher.scan()]);
    expect(await availableOf(t, mainId, 'USDT')).toBe('10.1234');
    await balances.expectChanges({});
    const log = await call<{ items: { type: string; amount: string }[] }>('/api/user/balance_log?asset=USDT');
    expect(log.body.data.items.filter((item) => item.type === 'recharge').map((item) => item.amount)).toEqual(['10.1234']);
    // The member hears of the credit once, live (decision 022), whichever watcher scanned.
    const events = await queryRows<{ kind: string; network: string; amount: string }>(
      t.testDatabase.database.db,
      sql`select kind, payload->>'network' as network, payload->>'amount' as amount from member_events
          where member_id = (select member_id from accounts where id = ${mainId}::uuid)`,
    );
    expect(events).toEqual([{ kind: 'deposit.credited', network: 'BEP20', amount: '10.1234' }]);
  });

  it('never credits a deposit whose block is reorganised away before its confirmations', async () => {
    const before = await availableOf(t, mainId, 'USDT');
    const balances = await trackBalances(t, { main: mainId });
    const snapshot = await chain.snapshot();
    const txHash = await chain.mint(address, 5n * USDT);
    await watcher.scan();
    expect(await depositOf(txHash)).toMatchObject({ status: 'confirming', confirmations: 1 });

    // The block with the deposit leaves the chain; other blocks take its height and more follow.
    await chain.revert(snapshot);
    await chain.mine(4);
    await watcher.scan();
    expect(await depositOf(txHash)).toMatchObject({ status: 'orphaned', confirmations: 0 });
    await chain.mine(3);
    await watcher.scan();
    expect(await depositOf(txHash)).toMatchObject({ status: 'orphaned' });
    expect(await availableOf(t, mainId, 'USDT')).toBe(before);
    await balances.expectChanges({});
  });

  it('shows a deposit below the minimum and never credits it', async () => {
    const before = await availableOf(t, mainId, 'USDT');
    const balances = await trackBalances(t, { main: mainId });
    const txHash = await chain.mint(address, USDT / 2n);
    await chain.mine(4);
    await watcher.scan();
    expect(await depositOf(txHash)).toMatchObject({ status: 'below_minimum', amount: '0.5000', creditedAt: null });
    expect(await availableOf(t, mainId, 'USDT')).toBe(before);
    await balances.expectChanges({});
  });

  it('loses and repeats nothing when the RPC stops mid-scan, and shows the failure to operators', async () => {
    const before = await availableOf(t, mainId, 'USDT');
    const balances = await trackBalances(t, { main: mainId });
    const txHash = await chain.mint(address, 2n * USDT);
    await chain.mine(3);

    // The node stops answering after the scan has read the transfers, before it reads the block hash.
    const source = watcher.source;
    const stopping: ChainSource = {
      network: source.network,
      headBlock: () => source.headBlock(),
      blockHash: (blockNumber) => source.blockHash(blockNumber),
      tokenDecimals: () => source.tokenDecimals(),
      transfers: async (fromBlock, toBlock) => {
        const found = await source.transfers(fromBlock, toBlock);
        chain.pause();
        return found;
      },
    };
    const interrupted = new DepositWatcher(
      t.testDatabase.database.db,
      stopping,
      new ChainRepository(t.testDatabase.database.db),
      t.services.ledger,
      { confirmations: 3, startBlock: 0n, maxBlockRange: 500, pollMs: 1000 },
      createLogger('silent'),
    );
    try {
      expect(await interrupted.scanOnce()).toBeNull();
      expect(await watcher.scanOnce()).toBeNull();
    } finally {
      chain.resume();
    }
    expect(await depositOf(txHash)).toBeUndefined();
    expect(await availableOf(t, mainId, 'USDT')).toBe(before);
    await balances.expectChanges({});
    expect(watcher.nextDelayMs()).toBeGreaterThan(1000);

    const watchers = await t.app.inject({
      method: 'GET',
      url: '/api/admin/chain/watchers',
      headers: { authorization: await operatorToken(t, 'chain-support', 'support') },
    });
    const bsc = watchers.json<Envelope<{ network: string; consecutiveFailures: number; lastError: string }[]>>().data[0]!;
    expect(bsc).toMatchObject({ network: 'BEP20' });
    expect(bsc.consecutiveFailures).toBeGreaterThanOrEqual(2);
    expect(bsc.lastError).toMatch(/timed out|took too long|Timeout/i);

    await watcher.scan();
    expect(await depositOf(txHash)).toMatchObject({ status: 'credited' });
    expect(await availableOf(t, mainId, 'USDT')).toBe(addMoney(before, '2.0000'));
    await balances.expectChanges({ 'main:USDT:available': '2.0000', 'platform:deposits:USDT': '-2.0000' });
    await watcher.scan();
    expect(await availableOf(t, mainId, 'USDT')).toBe(addMoney(before, '2.0000'));
    await balances.expectChanges({});
  });

  it('lets operators find deposits by member e-mail and status', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/chain/deposits?query=depositor@example.com&status=below_minimum',
      headers: { authorization: await operatorToken(t, 'chain-finance', 'finance') },
    });
    const page = response.json<Envelope<{ items: { memberEmail: string; status: string }[]; total: number }>>().data;
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({ memberEmail: 'depositor@example.com', status: 'below_minimum' });
  });

  it('keeps one member out of another member’s deposits', async () => {
    const other = await registerMember(t, 'depositor-3@example.com');
    const list = await call<{ items: Deposit[]; total: number }>('/api/recharge/list', other);
    expect(list.body.data.total).toBe(0);
  });
});

function addMoney(a: string, b: string): string {
  const units = (text: string) => BigInt(text.replace('.', ''));
  const total = units(a) + units(b);
  return `${total / 10_000n}.${(total % 10_000n).toString().padStart(4, '0')}`;
}
