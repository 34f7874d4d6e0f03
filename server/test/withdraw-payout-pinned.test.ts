import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import type { AdminWithdrawal, WithdrawMethod, Withdrawal } from '@custos/contract';
import { accountExtendedPublicKey, startDevChain, type DevChain } from '../../devchain/devchain.mjs';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { RpcProxy } from './support/rpc-proxy.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * A BEP20 payout is given up (refunded) or signed anew only on evidence pinned at the payout
 * confirmation depth (3): not at one confirmation of a cancel, and not when the node answers out of
 * step (here: a node behind the same address that has not got the payout's receipt).
 */

const FRIDAY_MORNING = new Date('2026-11-20T02:00:00Z');
const USDT = 10n ** 18n;
const hotWalletKey = generatePrivateKey();
const hotWallet = privateKeyToAddress(hotWalletKey);
const recipient = privateKeyToAddress(generatePrivateKey());

let chain: DevChain;
let proxy: RpcProxy;
let t: TestApp;
let token: string;
let mainId: string;
let finance: string;
let method: WithdrawMethod;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function post<T>(url: string, payload: object, as: string) {
  return t.app
    .inject({ method: 'POST', url, headers: { authorization: as, lang: 'EN' }, payload })
    .then((response) => response.json<Envelope<T>>());
}

const operator = (action: string, id: string, payload: object = {}) =>
  post<AdminWithdrawal>(`/api/admin/withdrawals/${id}/${action}`, payload, finance);

async function request(amount: string): Promise<Withdrawal> {
  const response = await post<Withdrawal>(
    '/api/withdraw/withdraw',
    { methodId: method.id, amount, tradePassword: 'trade-pass-1', idempotencyKey: randomUUID() },
    token,
  );
  expect(response.code).toBe(200);
  return response.data;
}

async function statusOf(id: string): Promise<{ status: string; tx_hash: string }> {
  const rows = await t.testDatabase.database.db.execute(sql`select status, tx_hash from withdrawals where id = ${id}::uuid`);
  return (rows as { rows: { status: string; tx_hash: string }[] }).rows[0]!;
}

beforeAll(async () => {
  chain = await startDevChain();
  proxy = await new RpcProxy(chain.rpcUrl).start();
  t = await createTestApp(
    {
      BSC_RPC_URL: proxy.url,
      BSC_USDT_CONTRACT: chain.tokenAddress,
      BSC_DEPOSIT_XPUB: accountExtendedPublicKey(),
      BSC_START_BLOCK: '0',
      BSC_HOT_WALLET_KEY: hotWalletKey,
      BSC_RPC_TIMEOUT_MS: '3000',
    },
    { clock: { now: () => FRIDAY_MORNING } },
  );
  token = await registerMember(t, 'pinned@example.com');
  mainId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  method = (await post<WithdrawMethod>('/api/withdraw/add_chain', { network: 'BEP20', address: recipient }, token)).data;
  await fund(t, mainId, 'USDT', '1000');
  finance = await operatorToken(t, 'pinned-finance', 'finance');
  await chain.mint(hotWallet, 10_000n * USDT);
  await chain.sendNative(hotWallet, 10n ** 18n);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await proxy?.stop();
  await chain?.stop();
});

/** As if the broadcast had timed out although the node took the transaction. */
async function markFailed(id: string): Promise<void> {
  await t.testDatabase.database.db.execute(
    sql`update withdrawals set status = 'failed', payout_error = 'timeout' where id = ${id}::uuid and status = 'processing'`,
  );
}

describe('giving up a BEP20 payout only on pinned, deep evidence', () => {
  it('refunds after a cancel only once the cancel has the payout confirmations, not at one', async () => {
    await chain.setAutomine(false);
    try {
      const balances = await trackBalances(t, { main: mainId });
      const withdrawal = await request('40');
      expect((await operator('approve', withdrawal.id)).data.status).toBe('processing');
      await markFailed(withdrawal.id);
      const available = await availableOf(t, mainId, 'USDT');
      expect(await operator('refund', withdrawal.id, { reason: 'Cancelled' })).toMatchObject({ code: 409 });

      await chain.mine(1); // the cancel is mined: one confirmation
      const shallow = await operator('refund', withdrawal.id, { reason: 'Cancelled' });
      expect(shallow).toMatchObject({ code: 409 });
      expect(shallow.message).toMatch(/cancel transaction .* was sent/);
      expect(await operator('retry', withdrawal.id)).toMatchObject({ code: 409 });
      expect(await availableOf(t, mainId, 'USDT')).toBe(available);
      expect((await statusOf(withdrawal.id)).status).toBe('failed');
      // At one confirmation of the cancel the 40 is still held.
      await balances.expectChanges({ 'main:USDT:available': '-40.0000', 'main:USDT:held': '40.0000' });

      await chain.mine(2);
      expect((await operator('refund', withdrawal.id, { reason: 'Cancelled' })).data.status).toBe('refunded');
      await balances.expectChanges({ 'main:USDT:available': '40.0000', 'main:USDT:held': '-40.0000' });
    } finally {
      await chain.setAutomine(true);
    }
  });

  it('neither refunds nor signs anew a paid payout when a node out of step has no receipt for it', async () => {
    const balances = await trackBalances(t, { main: mainId });
    const withdrawal = await request('50');
    const approved = await operator('approve', withdrawal.id);
    expect(approved.data.status).toBe('processing');
    await markFailed(withdrawal.id);
    await chain.mine(5);
    const paidBefore = await chain.balanceOf(recipient);
    const available = await availableOf(t, mainId, 'USDT');

    // Behind the same address, a node that has not got this transaction: no receipt, not known.
    proxy.intercept = (call) => {
      const hash = String(call.params?.[0]).toLowerCase();
      if (hash !== approved.data.txHash) return Promise.resolve(undefined);
      return Promise.resolve(
        call.method === 'eth_getTransactionReceipt' || call.method === 'eth_getTransactionByHash' ? null : undefined,
      );
    };
    try {
      const refused = await operator('refund', withdrawal.id, { reason: 'looks void' });
      expect(refused.message).toMatch(/cancel transaction .* was sent/);
      expect(refused.code).toBe(409);
      expect((await operator('retry', withdrawal.id)).code).toBe(409);
    } finally {
      proxy.intercept = undefined;
    }
    expect(await availableOf(t, mainId, 'USDT')).toBe(available);
    expect(await statusOf(withdrawal.id)).toEqual({ status: 'failed', tx_hash: approved.data.txHash });
    expect(await chain.balanceOf(recipient)).toBe(paidBefore);
    // Neither refunded nor captured while the node is out of step: the 50 stays held.
    await balances.expectChanges({ 'main:USDT:available': '-50.0000', 'main:USDT:held': '50.0000' });

    // With the node in step the tracker completes it: paid once.
    expect(await t.services.withdraw.trackPayouts()).toMatchObject({ completed: 1 });
    expect((await statusOf(withdrawal.id)).status).toBe('success');
    expect((await t.services.ledger.verify()).clean).toBe(true);
    await balances.expectChanges({
      'main:USDT:held': '-50.0000',
      'platform:withdrawals:USDT': '49.0000',
      'platform:fees:USDT': '1.0000',
    });
  });
});
