import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
let token: string;
let mainId: string;
let subId: string;
let strangerId: string;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST', url: string, payload?: object, as = token) {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

function transfer(fields: Record<string, unknown>, as = token) {
  return call<Record<string, string>>(
    'POST',
    '/api/account/transfer',
    { toAccountId: subId, asset: 'USDT', amount: '10', tradePassword: 'trade-pass-1', idempotencyKey: randomUUID(), ...fields },
    as,
  );
}

beforeAll(async () => {
  t = await createTestApp();
  token = await registerMember(t, 'transfer@example.com');
  mainId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  subId = (await call<{ id: string }>('POST', '/api/account/create_sub', { nickname: 'Savings' })).body.data.id;
  const stranger = await registerMember(t, 'transfer-stranger@example.com');
  strangerId = await accountIdOf(t, stranger);
  await fund(t, mainId, 'USDT', '100');
  await fund(t, mainId, 'FUEL', '5');
});
afterAll(async () => {
  await t.close();
});

describe('transfers between main and sub-accounts', () => {
  it('moves USDT from the main account to a sub-account and back, with records on both sides', async () => {
    const balances = await trackBalances(t, { main: mainId, sub: subId, stranger: strangerId });
    const out = await transfer({ amount: '40.5' });
    expect(out.body).toMatchObject({
      code: 200,
      data: {
        direction: 'out',
        fromAccountId: mainId,
        toAccountId: subId,
        toNickname: 'Savings',
        asset: 'USDT',
        amount: '40.5000',
      },
    });
    expect(await availableOf(t, mainId, 'USDT')).toBe('59.5000');
    expect(await availableOf(t, subId, 'USDT')).toBe('40.5000');
    // A transfer is one person's money changing accounts: no fee, no platform account.
    await balances.expectChanges({ 'main:USDT:available': '-40.5000', 'sub:USDT:available': '40.5000' });

    await call('POST', '/api/account/switch', { accountId: subId });
    const back = await transfer({ toAccountId: mainId, amount: '0.5' });
    expect(back.body.data).toMatchObject({ direction: 'out', fromNickname: 'Savings', amount: '0.5000' });
    await balances.expectChanges({ 'main:USDT:available': '0.5000', 'sub:USDT:available': '-0.5000' });
    const records = await call<{ items: { direction: string; amount: string }[]; total: number }>(
      'GET',
      '/api/account/transfer_list',
    );
    expect(records.body.data.items.map((item) => [item.direction, item.amount])).toEqual([
      ['out', '0.5000'],
      ['in', '40.5000'],
    ]);
    const log = await call<{ items: { type: string; amount: string; balanceAfter: string }[] }>(
      'GET',
      '/api/user/balance_log?asset=USDT',
    );
    expect(log.body.data.items.map((item) => [item.type, item.amount, item.balanceAfter])).toEqual([
      ['transfer_out', '-0.5000', '40.0000'],
      ['transfer_in', '40.5000', '40.5000'],
    ]);
    await call('POST', '/api/account/switch', { accountId: mainId });
    expect(await availableOf(t, mainId, 'USDT')).toBe('60.0000');
  });

  it('replays a retry with the same key and posts once', async () => {
    const balances = await trackBalances(t, { main: mainId, sub: subId, stranger: strangerId });
    const key = randomUUID();
    const first = await transfer({ idempotencyKey: key, amount: '1' });
    const second = await transfer({ idempotencyKey: key, amount: '1' });
    expect(second.body.data).toEqual(first.body.data);
    expect(await availableOf(t, mainId, 'USDT')).toBe('59.0000');
    expect((await transfer({ idempotencyKey: key, amount: '2' })).body.code).toBe(409);
    await balances.expectChanges({ 'main:USDT:available': '-1.0000', 'sub:USDT:available': '1.0000' });
  });

  it('never reaches another member’s account, and refuses the same account, FUEL and overdrafts', async () => {
    const balances = await trackBalances(t, { main: mainId, sub: subId, stranger: strangerId });
    const stranger = await transfer({ toAccountId: strangerId });
    expect(stranger).toMatchObject({ status: 404, body: { code: 404 } });
    expect(await availableOf(t, strangerId, 'USDT')).toBe('0.0000');
    expect((await transfer({ toAccountId: mainId })).body).toMatchObject({
      code: 400,
      message: 'Choose another account to transfer to',
    });
    expect((await transfer({ asset: 'FUEL' })).status).toBe(400);
    expect((await transfer({ toAccountId: 'not-a-uuid' })).body.message).toMatch(/receiving account/);
    expect((await transfer({ amount: '59.0001' })).body).toMatchObject({ code: 409, message: 'Insufficient USDT balance' });
    expect((await transfer({ amount: '1.00001' })).status).toBe(400);
    expect((await transfer({ tradePassword: 'wrong' })).body.message).toBe('The trading password is wrong');
    expect(await availableOf(t, mainId, 'USDT')).toBe('59.0000');
    await balances.expectChanges({});
  });

  it('keeps each member’s transfer records to themselves', async () => {
    const stranger = await registerMember(t, 'transfer-stranger-2@example.com');
    expect((await call<{ total: number }>('GET', '/api/account/transfer_list', undefined, stranger)).body.data.total).toBe(0);
    expect((await call<{ total: number }>('GET', '/api/user/balance_log', undefined, stranger)).body.data.total).toBe(0);
  });
});
