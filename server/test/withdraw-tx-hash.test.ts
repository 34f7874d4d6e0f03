import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminWithdrawal, Network, WithdrawMethod, Withdrawal } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * One on-chain transfer settles one withdrawal: the hash is stored in one spelling per network and a
 * unique index stands behind the check, so neither another spelling of the hash nor concurrent
 * mark-paid calls can settle two withdrawals with it. PGlite runs one transaction at a time, so the
 * concurrent case only shows the race on PostgreSQL (server:postgres); on PGlite it still must hold.
 */

const FRIDAY_MORNING = new Date('2026-11-20T02:00:00Z');
let t: TestApp;
let token: string;
let accountId: string;
let finance: string;
const methods: Partial<Record<Network, WithdrawMethod>> = {};

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T>(url: string, payload: object, as: string) {
  return t.app
    .inject({ method: 'POST', url, headers: { authorization: as, lang: 'EN' }, payload })
    .then((response) => response.json<Envelope<T>>());
}

/** Approved withdrawals waiting to be marked paid (no hot wallet: every network is paid outside). */
async function approved(network: Network, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const requested = await call<Withdrawal>(
      '/api/withdraw/withdraw',
      { methodId: methods[network]!.id, amount: '20', tradePassword: 'trade-pass-1', idempotencyKey: randomUUID() },
      token,
    );
    expect(requested.code).toBe(200);
    expect((await call<AdminWithdrawal>(`/api/admin/withdrawals/${requested.data.id}/approve`, {}, finance)).code).toBe(200);
    ids.push(requested.data.id);
  }
  return ids;
}

function markPaid(id: string, reference: string) {
  return call<AdminWithdrawal>(`/api/admin/withdrawals/${id}/mark_paid`, { reference }, finance);
}

async function paidWith(network: Network, txHash: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as n from withdrawals where network = ${network} and tx_hash = ${txHash} and status = 'success'`,
  );
  return row!.n;
}

beforeAll(async () => {
  t = await createTestApp({}, { clock: { now: () => FRIDAY_MORNING } });
  token = await registerMember(t, 'tx-hash@example.com');
  accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  await fund(t, accountId, 'USDT', '1000');
  finance = await operatorToken(t, 'tx-hash-finance', 'finance');
  for (const [network, address] of [
    ['BEP20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ] as const) {
    methods[network] = (await call<WithdrawMethod>('/api/withdraw/add_chain', { network, address }, token)).data;
  }
});
afterAll(async () => {
  await t.close();
});

describe('marking chain withdrawals paid with a transaction hash', () => {
  it('treats 0x, bare and upper-case spellings of one hash as the same transaction', async () => {
    const balances = await trackBalances(t, { member: accountId });
    const bep = await approved('BEP20', 2);
    const hex = 'ab'.repeat(32);
    expect((await markPaid(bep[0]!, hex.toUpperCase())).data).toMatchObject({ status: 'success', txHash: `0x${hex}` });
    expect(await markPaid(bep[1]!, `0x${hex}`)).toMatchObject({
      code: 409,
      message: 'This transaction hash already settles another withdrawal',
    });

    const trc = await approved('TRC20', 2);
    const tron = 'cd'.repeat(32);
    expect((await markPaid(trc[0]!, `0x${tron}`)).data).toMatchObject({ status: 'success', txHash: tron });
    expect((await markPaid(trc[1]!, tron.toUpperCase())).code).toBe(409);
    // The refused ones still wait, their holds untouched.
    expect(await availableOf(t, accountId, 'USDT')).toBe('920.0000');
    // 4 × 20 requested; one per network paid (19 out, 1 fee each), the two refused still held.
    await balances.expectChanges({
      'member:USDT:available': '-80.0000',
      'member:USDT:held': '40.0000',
      'platform:withdrawals:USDT': '38.0000',
      'platform:fees:USDT': '2.0000',
    });
  });

  it('lets only one of 8 concurrent mark-paid calls with one hash through', { timeout: 60_000 }, async () => {
    const balances = await trackBalances(t, { member: accountId });
    const ids = await approved('BEP20', 8);
    const hex = 'ef'.repeat(32);
    // Spelled differently on purpose: normalising happens before the index compares.
    const spellings = [`0x${hex}`, hex, hex.toUpperCase(), `0x${hex.toUpperCase()}`];
    const results = await Promise.all(ids.map((id, i) => markPaid(id, spellings[i % spellings.length]!)));
    expect(results.filter((result) => result.code === 200)).toHaveLength(1);
    expect(results.filter((result) => result.code === 409)).toHaveLength(7);
    expect(await paidWith('BEP20', `0x${hex}`)).toBe(1);
    // 2 + 2 + 8 requested at 20 each (12 × 20 = 240 held or paid).
    expect(await availableOf(t, accountId, 'USDT')).toBe('760.0000');
    expect((await t.services.ledger.verify()).clean).toBe(true);
    // One of the 8 captured (19 out, 1 fee); the other 7 × 20 stay held.
    await balances.expectChanges({
      'member:USDT:available': '-160.0000',
      'member:USDT:held': '140.0000',
      'platform:withdrawals:USDT': '19.0000',
      'platform:fees:USDT': '1.0000',
    });
  });

  it('is backed by the database: a second withdrawal cannot store a hash another one holds', async () => {
    // The service's read-then-write is kept from racing today only because completing a payout locks
    // the platform account rows first; the unique index makes that independent of lock order.
    const balances = await trackBalances(t, { member: accountId });
    const [first, second] = await approved('TRC20', 2);
    const db = t.testDatabase.database.db;
    const hash = '12'.repeat(32);
    await db.execute(sql`update withdrawals set tx_hash = ${hash} where id = ${first!}::uuid`);
    const refused = await db.execute(sql`update withdrawals set tx_hash = ${hash} where id = ${second!}::uuid`).then(
      () => 'accepted',
      (error: unknown) => String((error as { cause?: unknown }).cause ?? error),
    );
    expect(refused).toMatch(/withdrawals_tx_hash/);
    await db.execute(sql`update withdrawals set tx_hash = null where id = ${first!}::uuid`);
    await balances.expectChanges({ 'member:USDT:available': '-40.0000', 'member:USDT:held': '40.0000' });
  });
});
