import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HDKey } from '@scure/bip32';
import { generateMnemonic, mnemonicToSeedSync } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { money, type Deposit } from '@custos/contract';
import { tronMatchKey } from '../src/modules/chain/address-derivation.js';
import type { DepositWatcher } from '../src/modules/chain/deposit-watcher.js';
import { tronAddressKey } from '../src/modules/chain/trongrid-source.js';
import { FakeTronGrid } from './support/fake-trongrid.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * TRC20 deposits through TronGrid's HTTP API, against a local server that answers TronGrid's
 * endpoints in its documented format (no TRON node can run here): the same rules as BEP20.
 */

const USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const SENDER = '0x' + 'ab'.repeat(20);
const USDT = 1_000_000n; // 6 decimals on TRON

let grid: FakeTronGrid;
let t: TestApp;
let token: string;
let mainId: string;
let address: string;
let toHex: string;
let watcher: DepositWatcher;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(url: string, as = token) {
  return t.app
    .inject({ method: 'GET', url, headers: { authorization: as, lang: 'EN' } })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

async function depositOf(txId: string): Promise<Deposit | undefined> {
  const items = (await call<{ items: Deposit[] }>('/api/recharge/list?network=TRC20')).body.data.items;
  return items.find((deposit) => deposit.txHash === txId);
}

beforeAll(async () => {
  grid = await new FakeTronGrid(USDT_CONTRACT).start();
  const xpub = HDKey.fromMasterSeed(mnemonicToSeedSync(generateMnemonic(wordlist))).derive("m/44'/195'/0'").publicExtendedKey;
  t = await createTestApp({
    TRON_API_URL: grid.url,
    TRON_API_KEY: 'test-api-key',
    TRON_USDT_CONTRACT: USDT_CONTRACT,
    TRON_DEPOSIT_XPUB: xpub,
    TRON_START_BLOCK: '0',
    TRON_TIMEOUT_MS: '1000',
    // A short depth keeps these tests small; the default is TRON's solidification depth (19).
    TRON_CONFIRMATIONS: '3',
  });
  watcher = t.services.depositWatchers.find((candidate) => candidate.network === 'TRC20')!;
  token = await registerMember(t, 'tron-depositor@example.com');
  mainId = await accountIdOf(t, token);
  address = (await call<{ address: string }>('/api/recharge/address?network=TRC20')).body.data.address;
  toHex = tronMatchKey(address)!;
});

afterAll(async () => {
  await t?.close();
  await grid?.stop();
});

describe('TRC20 deposits through TronGrid', () => {
  it('gives the member a base58check TRON address, and reads the forms TronGrid prints addresses in', () => {
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(tronAddressKey(toHex.toUpperCase().replace('0X', '0x'))).toBe(toHex);
    expect(tronAddressKey(`41${toHex.slice(2)}`)).toBe(toHex);
    expect(tronAddressKey(address)).toBe(toHex);
    expect(tronAddressKey('not an address')).toBeNull();
  });

  it('credits a deposit once at 3 confirmations, reading events page by page, with the API key', async () => {
    const balances = await trackBalances(t, { main: mainId });
    grid.pageSize = 2;
    // Five transfers in one block, two of them ours: paging must find both.
    const [, ours, , , alsoOurs] = grid.mine(1, [
      { fromHex: SENDER, toHex: '0x' + '11'.repeat(20), value: 5n * USDT },
      { fromHex: SENDER, toHex, value: 7n * USDT + 654_321n },
      { fromHex: SENDER, toHex: '0x' + '22'.repeat(20), value: 1n },
      { fromHex: SENDER, toHex: '0x' + '33'.repeat(20), value: 9n * USDT },
      { fromHex: SENDER, toHex, value: 3n * USDT },
    ]);
    await watcher.scan();
    expect(await depositOf(ours!)).toMatchObject({ status: 'confirming', confirmations: 1, amount: '7.6543', network: 'TRC20' });
    expect(await depositOf(alsoOurs!)).toMatchObject({ status: 'confirming', amount: '3.0000' });
    grid.mine(1);
    await watcher.scan();
    expect(await availableOf(t, mainId, 'USDT')).toBe('0.0000');
    await balances.expectChanges({});
    grid.mine(1);
    await watcher.scan();
    expect(await depositOf(ours!)).toMatchObject({ status: 'credited', confirmations: 3 });
    expect(await availableOf(t, mainId, 'USDT')).toBe('10.6543');
    // Both of ours (7.6543 rounded down from 7.654321, and 3), none of the other addresses' transfers.
    await balances.expectChanges({ 'main:USDT:available': '10.6543', 'platform:deposits:USDT': '-10.6543' });
    grid.mine(3);
    await watcher.scan();
    await watcher.scan();
    expect(await availableOf(t, mainId, 'USDT')).toBe('10.6543');
    await balances.expectChanges({});
    expect([...grid.apiKeysSeen]).toEqual(['test-api-key']);
  });

  it('never credits a deposit whose block is replaced before its confirmations', async () => {
    const before = await availableOf(t, mainId, 'USDT');
    const balances = await trackBalances(t, { main: mainId });
    const blockWithDeposit = grid.head + 1;
    const [txId] = grid.mine(1, [{ fromHex: SENDER, toHex, value: 4n * USDT }]);
    await watcher.scan();
    expect(await depositOf(txId!)).toMatchObject({ status: 'confirming' });
    grid.dropFrom(blockWithDeposit);
    // The replacing chain has USDT moving in it (as nearly every TRON block does): the event index
    // shows it has passed the replaced block, so that block is read again and found without ours.
    grid.mine(1);
    grid.mine(4, [{ fromHex: SENDER, toHex: SENDER, value: USDT }]);
    await watcher.scan();
    expect(await depositOf(txId!)).toMatchObject({ status: 'orphaned', confirmations: 0 });
    expect(await availableOf(t, mainId, 'USDT')).toBe(before);
    await balances.expectChanges({});
  });

  it('records a deposit below the minimum and never credits it', async () => {
    const before = await availableOf(t, mainId, 'USDT');
    const balances = await trackBalances(t, { main: mainId });
    const [txId] = grid.mine(1, [{ fromHex: SENDER, toHex, value: USDT - 1n }]);
    grid.mine(3);
    await watcher.scan();
    expect(await depositOf(txId!)).toMatchObject({ status: 'below_minimum', amount: '0.9999' });
    expect(await availableOf(t, mainId, 'USDT')).toBe(before);
    await balances.expectChanges({});
  });

  it('loses and repeats nothing while TronGrid is down or answers garbage, and shows it to operators', async () => {
    const before = await availableOf(t, mainId, 'USDT');
    const balances = await trackBalances(t, { main: mainId });
    const [txId] = grid.mine(1, [{ fromHex: SENDER, toHex, value: 2n * USDT }]);
    grid.mine(3);
    grid.failWith = 503;
    expect(await watcher.scanOnce()).toBeNull();
    grid.failWith = undefined;
    grid.garbage = true;
    expect(await watcher.scanOnce()).toBeNull();
    grid.garbage = false;
    expect(await depositOf(txId!)).toBeUndefined();
    await balances.expectChanges({});

    const watchers = await t.app.inject({
      method: 'GET',
      url: '/api/admin/chain/watchers',
      headers: { authorization: await operatorToken(t, 'tron-support', 'support') },
    });
    const tron = watchers
      .json<Envelope<{ network: string; enabled: boolean; consecutiveFailures: number; lastError: string }[]>>()
      .data.find((row) => row.network === 'TRC20')!;
    expect(tron).toMatchObject({ enabled: true, consecutiveFailures: 2 });
    expect(tron.lastError).toMatch(/not JSON/);

    expect(await watcher.scanOnce()).not.toBeNull();
    expect(await depositOf(txId!)).toMatchObject({ status: 'credited' });
    // The 2 USDT sent, exactly once.
    const credited = money.formatMoney(money.add(money.parseMoney(before), money.parseMoney('2')));
    expect(await depositOf(txId!)).toMatchObject({ amount: '2.0000' });
    expect(await availableOf(t, mainId, 'USDT')).toBe(credited);
    await balances.expectChanges({ 'main:USDT:available': '2.0000', 'platform:deposits:USDT': '-2.0000' });
    await watcher.scan();
    expect(await availableOf(t, mainId, 'USDT')).toBe(credited);
    await balances.expectChanges({});
  });
});
