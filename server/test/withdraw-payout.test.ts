import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { money, type AdminWithdrawal, type WithdrawMethod, type Withdrawal } from '@custos/contract';
import { accountExtendedPublicKey, startDevChain, type DevChain } from '../../devchain/devchain.mjs';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Real BEP20 payouts on the dev chain: the hot wallet signs, the signed transaction is stored before
 * it is broadcast, a failed broadcast (no gas) is retried with the very same transaction, a refund
 * waits until the payout can never be mined (a cancel transaction uses its nonce up), a payout that
 * looked failed but was mined is completed, and success comes only with confirmations.
 */

const FRIDAY_MORNING = new Date('2026-11-20T02:00:00Z');
const USDT = 10n ** 18n;
const hotWalletKey = generatePrivateKey();
const hotWalletAddress = privateKeyToAddress(hotWalletKey);
const recipient = privateKeyToAddress(generatePrivateKey());

let chain: DevChain;
let t: TestApp;
let token: string;
let mainId: string;
let finance: string;
let method: WithdrawMethod;
let firstId = '';

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(httpMethod: 'GET' | 'POST', url: string, payload?: object, as = token) {
  return t.app
    .inject({ method: httpMethod, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

async function request(amount: string): Promise<Withdrawal> {
  const response = await call<Withdrawal>('POST', '/api/withdraw/withdraw', {
    methodId: method.id,
    amount,
    tradePassword: 'trade-pass-1',
    idempotencyKey: randomUUID(),
  });
  expect(response.body.code).toBe(200);
  return response.body.data;
}

/** One JSON-RPC call to the dev chain's node. */
async function rpc(rpcMethod: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: rpcMethod, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${rpcMethod}: ${body.error.message}`);
  return body.result;
}

/** As if the broadcast had timed out although the node took the transaction. */
async function markFailedAsIfTimedOut(id: string): Promise<void> {
  await t.testDatabase.database.db.execute(
    sql`update withdrawals set status = 'failed', payout_error = 'timeout' where id = ${id}::uuid and status = 'processing'`,
  );
}

function operator(action: string, id: string, payload?: object) {
  return t.app
    .inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/${action}`,
      headers: { authorization: finance, lang: 'EN' },
      ...(payload ? { payload } : {}),
    })
    .then((response) => response.json<Envelope<AdminWithdrawal>>());
}

beforeAll(async () => {
  chain = await startDevChain();
  t = await createTestApp(
    {
      BSC_RPC_URL: chain.rpcUrl,
      BSC_USDT_CONTRACT: chain.tokenAddress,
      BSC_DEPOSIT_XPUB: accountExtendedPublicKey(),
      BSC_START_BLOCK: '0',
      BSC_HOT_WALLET_KEY: hotWalletKey,
      BSC_RPC_TIMEOUT_MS: '3000',
    },
    { clock: { now: () => FRIDAY_MORNING } },
  );
  token = await registerMember(t, 'payout@example.com');
  mainId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  method = (await call<WithdrawMethod>('POST', '/api/withdraw/add_chain', { network: 'BEP20', address: recipient })).body.data;
  await fund(t, mainId, 'USDT', '1000');
  finance = await operatorToken(t, 'payout-finance', 'finance');
  // The hot wallet holds USDT but, at first, no BNB for gas.
  await chain.mint(hotWalletAddress, 10_000n * USDT);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

describe('BEP20 payouts from the hot wallet', () => {
  it('shows the hot wallet and its balances to operators', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/chain/hot_wallet',
      headers: { authorization: finance },
    });
    const wallets =
      response.json<
        Envelope<{ network: string; configured: boolean; address: string; usdtBalance: string; nativeBalance: string }[]>
      >().data;
    expect(wallets[0]).toMatchObject({
      network: 'BEP20',
      configured: true,
      address: hotWalletAddress,
      usdtBalance: '10000',
      nativeBalance: '0',
    });
    expect(wallets[1]).toMatchObject({ network: 'TRC20', configured: false });
  });

  it('marks a payout that cannot be broadcast as failed and keeps the hold; no refund while its nonce is open', async () => {
    const balances = await trackBalances(t, { main: mainId });
    const withdrawal = await request('100');
    firstId = withdrawal.id;
    await balances.expectChanges({ 'main:USDT:available': '-100.0000', 'main:USDT:held': '100.0000' });
    const approved = await operator('approve', withdrawal.id);
    expect(approved.data).toMatchObject({ status: 'failed' });
    expect(approved.data.payoutError).toMatch(/funds|gas/i);
    expect(approved.data.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await availableOf(t, mainId, 'USDT')).toBe('900.0000');

    // Anyone holding the signed transaction could still get it mined once the wallet has gas: the
    // refund first needs a cancel transaction at its nonce, which cannot be sent without gas either.
    const refused = await operator('refund', withdrawal.id, { reason: 'Paid by bank instead' });
    expect(refused).toMatchObject({ code: 409 });
    expect(refused.message).toMatch(/cancel transaction could not be sent/);
    expect(await availableOf(t, mainId, 'USDT')).toBe('900.0000');
    // Neither the failed broadcast nor the refused refund moves anything: the 100 stays held.
    await balances.expectChanges({});
  });

  it('retries a failed payout with the same transaction, and completes it only after 3 confirmations', async () => {
    const balances = await trackBalances(t, { main: mainId });
    const withdrawal = await request('250.5');
    const failed = await operator('approve', withdrawal.id);
    expect(failed.data.status).toBe('failed');
    await balances.expectChanges({ 'main:USDT:available': '-250.5000', 'main:USDT:held': '250.5000' });
    const signedHash = failed.data.txHash;

    await chain.sendNative(hotWalletAddress, 10n ** 18n); // gas arrives
    // The first payout is given up now: a cancel transaction uses its nonce (mined at once here), and
    // the refund goes through once that cancel has the payout confirmations (3).
    const cancelling = await operator('refund', firstId, { reason: 'Paid by bank instead' });
    expect(cancelling).toMatchObject({ code: 409 });
    expect(cancelling.message).toMatch(/cancel transaction .* was sent/);
    await balances.expectChanges({});
    await chain.mine(2);
    const refunded = await operator('refund', firstId, { reason: 'Paid by bank instead' });
    expect(refunded.data).toMatchObject({ status: 'refunded', reason: 'Paid by bank instead' });
    expect(await availableOf(t, mainId, 'USDT')).toBe('749.5000');
    // The first payout's 100 goes back from held to available; nothing reaches a platform account.
    await balances.expectChanges({ 'main:USDT:available': '100.0000', 'main:USDT:held': '-100.0000' });

    const retried = await operator('retry', withdrawal.id);
    expect(retried.data).toMatchObject({ status: 'processing', txHash: signedHash, payoutError: null });

    // Mined at once (automine): one confirmation is not enough.
    expect(await t.services.withdraw.trackPayouts()).toEqual({ completed: 0, failed: 0 });
    await balances.expectChanges({});
    await chain.mine(2);
    expect(await t.services.withdraw.trackPayouts()).toEqual({ completed: 1, failed: 0 });
    expect(await t.services.withdraw.trackPayouts()).toEqual({ completed: 0, failed: 0 });
    // Completed once: the 250.5 held leaves the member, 249.5 to what was paid out, the 1 USDT fee to fees.
    await balances.expectChanges({
      'main:USDT:held': '-250.5000',
      'platform:withdrawals:USDT': '249.5000',
      'platform:fees:USDT': '1.0000',
    });

    const detail = await call<Withdrawal>('GET', `/api/withdraw/detail?id=${withdrawal.id}`);
    expect(detail.body.data).toMatchObject({ status: 'success', amount: '250.5000', fee: '1.0000', received: '249.5000' });
    // What arrives on chain is exactly what the record says arrives; the cancelled payout never pays.
    expect(await chain.balanceOf(recipient)).toBe(2495n * 10n ** 17n);
    expect(await availableOf(t, mainId, 'USDT')).toBe('749.5000');
  });

  it('pays the next withdrawal straight away', async () => {
    const balances = await trackBalances(t, { main: mainId });
    const withdrawal = await request('11');
    const approved = await operator('approve', withdrawal.id);
    expect(approved.data).toMatchObject({ status: 'processing', payoutError: null });
    await balances.expectChanges({ 'main:USDT:available': '-11.0000', 'main:USDT:held': '11.0000' });
    await chain.mine(3);
    await t.services.withdraw.trackPayouts();
    expect((await call<Withdrawal>('GET', `/api/withdraw/detail?id=${withdrawal.id}`)).body.data.status).toBe('success');
    expect(await chain.balanceOf(recipient)).toBe(2495n * 10n ** 17n + 10n * USDT);
    await balances.expectChanges({
      'main:USDT:held': '-11.0000',
      'platform:withdrawals:USDT': '10.0000',
      'platform:fees:USDT': '1.0000',
    });
  });

  it('refuses to mark a hot-wallet payout paid by hand or to approve it twice', async () => {
    const balances = await trackBalances(t, { main: mainId });
    const withdrawal = await request('20');
    await operator('approve', withdrawal.id);
    expect((await operator('mark_paid', withdrawal.id, { reference: '0xabc' })).code).toBe(409);
    expect((await operator('approve', withdrawal.id)).code).toBe(409);
    // The refused mark-paid and second approval leave the 20 held, nothing captured.
    await balances.expectChanges({ 'main:USDT:available': '-20.0000', 'main:USDT:held': '20.0000' });
    await chain.mine(3);
    await t.services.withdraw.trackPayouts();
    await balances.expectChanges({
      'main:USDT:held': '-20.0000',
      'platform:withdrawals:USDT': '19.0000',
      'platform:fees:USDT': '1.0000',
    });
  });
  it('a payout that looked failed but was mined is completed by the tracker, and cannot be refunded', async () => {
    await chain.setAutomine(false);
    try {
      const balances = await trackBalances(t, { main: mainId });
      const withdrawal = await request('30');
      const approved = await operator('approve', withdrawal.id);
      expect(approved.data.status).toBe('processing');
      await markFailedAsIfTimedOut(withdrawal.id);
      await chain.mine(3);
      const refused = await operator('refund', withdrawal.id, { reason: 'try' });
      expect(refused).toMatchObject({ code: 409 });
      // The mined payout is not refunded: the 30 stays held.
      await balances.expectChanges({ 'main:USDT:available': '-30.0000', 'main:USDT:held': '30.0000' });
      expect(await t.services.withdraw.trackPayouts()).toMatchObject({ completed: 1 });
      expect((await call<Withdrawal>('GET', `/api/withdraw/detail?id=${withdrawal.id}`)).body.data.status).toBe('success');
      await balances.expectChanges({
        'main:USDT:held': '-30.0000',
        'platform:withdrawals:USDT': '29.0000',
        'platform:fees:USDT': '1.0000',
      });
    } finally {
      await chain.setAutomine(true);
    }
  });

  it('a cancel transaction replaces a payout still pending; the refund goes through once it is mined', async () => {
    await chain.setAutomine(false);
    const before = await chain.balanceOf(recipient);
    try {
      const balances = await trackBalances(t, { main: mainId });
      const withdrawal = await request('40');
      const approved = await operator('approve', withdrawal.id);
      expect(approved.data.status).toBe('processing');
      await markFailedAsIfTimedOut(withdrawal.id);
      const available = await availableOf(t, mainId, 'USDT');
      await balances.expectChanges({ 'main:USDT:available': '-40.0000', 'main:USDT:held': '40.0000' });

      const pending = await operator('refund', withdrawal.id, { reason: 'Cancelled' });
      expect(pending).toMatchObject({ code: 409 });
      expect(pending.message).toMatch(/cancel transaction .* was sent/);
      expect(await availableOf(t, mainId, 'USDT')).toBe(available);
      await balances.expectChanges({});

      await chain.mine(3);
      const refunded = await operator('refund', withdrawal.id, { reason: 'Cancelled' });
      expect(refunded.data).toMatchObject({ status: 'refunded' });
      expect(await availableOf(t, mainId, 'USDT')).toBe(
        money.formatMoney(money.add(money.parseMoney(available), money.parseMoney('40'))),
      );
      // The cancel took the nonce: the signed payout never paid.
      expect(await chain.balanceOf(recipient)).toBe(before);
      expect(await t.services.withdraw.trackPayouts()).toEqual({ completed: 0, failed: 0 });
      // The whole 40 comes back; no fee is kept on a payout that never paid.
      await balances.expectChanges({ 'main:USDT:available': '40.0000', 'main:USDT:held': '-40.0000' });
    } finally {
      await chain.setAutomine(true);
    }
  });

  it('sends a processing payout again when the node has lost it', async () => {
    await chain.setAutomine(false);
    const before = await chain.balanceOf(recipient);
    try {
      const balances = await trackBalances(t, { main: mainId });
      const withdrawal = await request('12');
      const approved = await operator('approve', withdrawal.id);
      expect(approved.data.status).toBe('processing');
      const signedHash = approved.data.txHash!;
      expect(await rpc('hardhat_dropTransaction', [signedHash])).toBe(true);
      expect(await rpc('eth_getTransactionByHash', [signedHash])).toBeNull();
      await chain.mine(3);
      // The tracker finds the node does not know it and sends the stored transaction again, unchanged.
      expect(await t.services.withdraw.trackPayouts()).toEqual({ completed: 0, failed: 0 });
      await balances.expectChanges({ 'main:USDT:available': '-12.0000', 'main:USDT:held': '12.0000' });
      expect(await rpc('eth_getTransactionByHash', [signedHash])).toMatchObject({ hash: signedHash, blockNumber: null });
      await chain.mine(3);
      expect(await t.services.withdraw.trackPayouts()).toEqual({ completed: 1, failed: 0 });
      expect(await rpc('eth_getTransactionReceipt', [signedHash])).toMatchObject({ status: '0x1' });
      expect((await call<Withdrawal>('GET', `/api/withdraw/detail?id=${withdrawal.id}`)).body.data).toMatchObject({
        status: 'success',
        txHash: signedHash,
        received: '11.0000',
      });
      // 12 less the 1 USDT fee arrives once; nothing else was sent.
      await chain.mine(3);
      expect(await chain.balanceOf(recipient)).toBe(before + 11n * USDT);
      // Captured once although sent twice.
      await t.services.withdraw.trackPayouts();
      await balances.expectChanges({
        'main:USDT:held': '-12.0000',
        'platform:withdrawals:USDT': '11.0000',
        'platform:fees:USDT': '1.0000',
      });
    } finally {
      await chain.setAutomine(true);
    }
  });
});
