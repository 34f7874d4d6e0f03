import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import type { AdminWithdrawal, WithdrawMethod, Withdrawal } from '@custos/contract';
import { accountExtendedPublicKey, startDevChain, type DevChain } from '../../devchain/devchain.mjs';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The payout tracker on the dev chain with more failed payouts parked for an operator than it looks
 * at in one run: a new payout is still completed, and every parked one still gets looked at in turn.
 */

const FRIDAY_MORNING = new Date('2026-11-20T02:00:00Z');
const USDT = 10n ** 18n;
const PARKED = 130;
const hotWalletKey = generatePrivateKey();
const recipient = privateKeyToAddress(generatePrivateKey());

let chain: DevChain;
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

const db = () => t.testDatabase.database.db;

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
  token = await registerMember(t, 'tracker@example.com');
  await setTradePassword(t, token);
  method = (await post<WithdrawMethod>('/api/withdraw/add_chain', { network: 'BEP20', address: recipient }, token)).data;
  mainId = await accountIdOf(t, token);
  await fund(t, mainId, 'USDT', '1000');
  finance = await operatorToken(t, 'tracker-finance', 'finance');
  await chain.mint(privateKeyToAddress(hotWalletKey), 10_000n * USDT);
  await chain.sendNative(privateKeyToAddress(hotWalletKey), 10n ** 18n);
}, 120_000);

afterAll(async () => {
  // The parked rows were written by hand (no holds behind them): remove them before the ledger check.
  await db()?.execute(sql`delete from withdrawals where client_key like 'parked-%'`);
  await t?.close();
  await chain?.stop();
});

async function request(amount: string): Promise<Withdrawal> {
  const response = await post<Withdrawal>(
    '/api/withdraw/withdraw',
    { methodId: method.id, amount, tradePassword: 'trade-pass-1', idempotencyKey: randomUUID() },
    token,
  );
  expect(response.code).toBe(200);
  return response.data;
}

describe('the payout tracker with many parked failures', () => {
  it(`completes a new payout although ${PARKED} older failed payouts wait for an operator`, async () => {
    const balances = await trackBalances(t, { main: mainId });
    const template = await request('10');
    // Failed payouts an operator has not dealt with yet, all older than the new one; their
    // transactions were never mined (the tracker finds no receipt and leaves them failed).
    await db().execute(
      sql`insert into withdrawals (id, member_id, account_id, method_id, method_type, network, destination, amount, fee,
            received, status, client_key, request_hash, platform_day, tx_hash, payout_raw_tx, payout_error, created_at)
          select gen_random_uuid(), member_id, account_id, method_id, method_type, network, destination, amount, fee,
            received, 'failed', 'parked-' || g, request_hash, platform_day, '0x' || lpad(to_hex(g), 64, '0'), '0x00',
            'insufficient funds', now() - interval '1 day' - g * interval '1 second'
          from withdrawals, generate_series(1, ${PARKED}) g where id = ${template.id}::uuid`,
    );

    const approved = await post<AdminWithdrawal>(`/api/admin/withdrawals/${template.id}/approve`, {}, finance);
    expect(approved.data.status).toBe('processing');
    await chain.mine(3);
    expect(await t.services.withdraw.trackPayouts()).toEqual({ completed: 1, failed: 0 });
    const [row] = await queryRows<{ status: string }>(db(), sql`select status from withdrawals where id = ${template.id}::uuid`);
    expect(row!.status).toBe('success');
    expect(await chain.balanceOf(recipient)).toBe(9n * USDT);
    // Only the new payout moves money (the parked rows have no holds, and none of them is captured).
    await balances.expectChanges({
      'main:USDT:available': '-10.0000',
      'platform:withdrawals:USDT': '9.0000',
      'platform:fees:USDT': '1.0000',
    });
  });

  it('looks at every parked failure in turn, least recently looked at first', async () => {
    const unseen = async () =>
      (
        await queryRows<{ n: number }>(
          db(),
          sql`select count(*)::int as n from withdrawals where client_key like 'parked-%' and payout_checked_at is null`,
        )
      )[0]!.n;
    // The first run looked at 100 rows at most (the new payout and 99 parked ones).
    expect(await unseen()).toBe(PARKED - 99);
    const balances = await trackBalances(t, { main: mainId });
    await t.services.withdraw.trackPayouts();
    expect(await unseen()).toBe(0);
    // Looking at a failed payout with no receipt moves nothing.
    await balances.expectChanges({});
  });
});
