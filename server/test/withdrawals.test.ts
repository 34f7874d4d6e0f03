import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminWithdrawal, WithdrawIndex, WithdrawMethod, Withdrawal } from '@custos/contract';
import { base32Decode, hotp, totpStep } from '../src/lib/totp.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Withdrawals with an injected clock: methods, the window and holidays, limits, every state change
 * and refund, and 50 concurrent full-balance requests of which exactly one is accepted.
 */

// Friday 2026-11-20, 10:00 in Shanghai (the platform's default time zone).
const FRIDAY_MORNING = new Date('2026-11-20T02:00:00Z');
let now = FRIDAY_MORNING;
const clock = { now: () => now };

let t: TestApp;
let token: string;
let mainId: string;
let finance: string;
let cryptoMethod: WithdrawMethod;
let bankMethod: WithdrawMethod;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST', url: string, payload?: object, as = token) {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

function operatorCall<T = AdminWithdrawal>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: finance, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

function withdraw(fields: Record<string, unknown> = {}, as = token) {
  return call<Withdrawal>(
    'POST',
    '/api/withdraw/withdraw',
    { methodId: cryptoMethod?.id, amount: '100', tradePassword: 'trade-pass-1', idempotencyKey: randomUUID(), ...fields },
    as,
  );
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  token = await registerMember(t, 'withdrawer@example.com');
  mainId = await accountIdOf(t, token);
  finance = await operatorToken(t, 'withdraw-finance', 'finance');
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  now = FRIDAY_MORNING;
});

describe('withdrawal methods', () => {
  it('asks for a trading password, then for a method (4901), before anything else', async () => {
    const noPassword = await withdraw({ methodId: randomUUID() });
    expect(noPassword.body.code).toBe(4900);
    await setTradePassword(t, token);
    const noMethod = await withdraw({ methodId: randomUUID() });
    expect(noMethod.body).toMatchObject({ code: 4901, message: 'Please add a withdrawal method first' });
  });

  it('saves a crypto address checked against its network, refuses duplicates and wrong networks', async () => {
    const wrong = await call('POST', '/api/withdraw/add_chain', {
      network: 'BEP20',
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('receiving address');
    const typo = await call('POST', '/api/withdraw/add_chain', {
      network: 'BEP20',
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
    });
    expect(typo.status).toBe(400);
    const saved = await call<WithdrawMethod>('POST', '/api/withdraw/add_chain', {
      network: 'BEP20',
      address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    });
    expect(saved.body.data).toMatchObject({
      type: 'crypto',
      network: 'BEP20',
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    cryptoMethod = saved.body.data;
    const again = await call('POST', '/api/withdraw/add_chain', {
      network: 'BEP20',
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    expect(again.body).toMatchObject({ code: 409, message: 'This method is saved already' });
  });

  it('saves a bank card and only ever shows its last four digits; wallets are saved as payment details only', async () => {
    const bank = await call<WithdrawMethod>('POST', '/api/withdraw/add_bank', {
      bankName: 'ICBC',
      cardNumber: '6222 0212 3456 7890',
      holderName: 'Li Lei',
      branch: 'Pudong',
    });
    expect(bank.body.data).toMatchObject({ type: 'bank', cardNumberMasked: '**** 7890', bankName: 'ICBC' });
    expect(JSON.stringify(bank.body)).not.toContain('6222');
    bankMethod = bank.body.data;
    // wechat and alipay are OTC payment details (product.md §5, decision 031): saved, never withdrawn to.
    const wechat = await call<WithdrawMethod>('POST', '/api/withdraw/add_wechat', { holderName: 'Li Lei', account: 'lilei' });
    expect(wechat.body).toMatchObject({ code: 200, data: { type: 'wechat', account: 'lilei' } });
    const list = await call<WithdrawMethod[]>('GET', '/api/withdraw/methods');
    expect(list.body.data.map((method) => method.type)).toEqual(['crypto', 'bank', 'wechat']);
    const index = await call<WithdrawIndex>('GET', '/api/withdraw/index');
    expect(index.body.data.methods.map((method) => method.type)).toEqual(['crypto', 'bank']);
    const refused = await call('POST', '/api/withdraw/withdraw', {
      methodId: wechat.body.data.id,
      amount: '20',
      tradePassword: 'trade-pass-1',
      idempotencyKey: 'wechat-withdraw-1',
    });
    expect(refused.body).toMatchObject({ code: 409 });
    expect(refused.body.message).toContain('OTC');
    await call('POST', '/api/withdraw/delete_method', { id: wechat.body.data.id });
  });
});

describe('the window and holidays', () => {
  it('refuses outside Monday–Friday 09:00–21:00 with the window in the message, holding nothing', async () => {
    await fund(t, mainId, 'USDT', '1000');
    const balances = await trackBalances(t, { main: mainId });
    now = new Date('2026-11-21T04:00:00Z'); // Saturday noon in Shanghai
    const index = await call<WithdrawIndex>('GET', '/api/withdraw/index');
    expect(index.body.data).toMatchObject({ openNow: false, nextOpenAt: '2026-11-23T01:00:00.000Z', timeZone: 'Asia/Shanghai' });
    const refused = await withdraw();
    expect(refused.body).toMatchObject({
      code: 409,
      message: 'Withdrawals can be requested Monday to Friday, 09:00–21:00 (Asia/Shanghai)',
    });
    now = new Date('2026-11-20T13:00:00Z'); // Friday 21:00
    expect((await withdraw()).body.code).toBe(409);
    const chinese = await t.app.inject({
      method: 'POST',
      url: '/api/withdraw/withdraw',
      headers: { authorization: token, lang: 'CN' },
      payload: { methodId: cryptoMethod.id, amount: '100', tradePassword: 'trade-pass-1', idempotencyKey: randomUUID() },
    });
    expect(chinese.json<Envelope>().message).toBe('提现申请时间：周一至周五 09:00–21:00（Asia/Shanghai）');
    expect(await availableOf(t, mainId, 'USDT')).toBe('1000.0000');
    await balances.expectChanges({});
  });

  it('refuses on an operator-set holiday, naming it; removing the holiday opens the day again', async () => {
    const balances = await trackBalances(t, { main: mainId });
    const added = await operatorCall('POST', '/api/admin/withdraw/holidays', { date: '2026-11-20', note: 'Founders day' });
    expect(added.body.data).toEqual([{ date: '2026-11-20', note: 'Founders day' }]);
    const refused = await withdraw();
    expect(refused.body).toMatchObject({
      code: 409,
      message: 'No withdrawals on 2026-11-20 (Founders day); please try on the next working day',
    });
    const index = await call<WithdrawIndex>('GET', '/api/withdraw/index');
    expect(index.body.data).toMatchObject({
      openNow: false,
      holidayToday: 'Founders day',
      nextOpenAt: '2026-11-23T01:00:00.000Z',
    });
    await operatorCall('DELETE', '/api/admin/withdraw/holidays/2026-11-20');
    await balances.expectChanges({});
    expect((await call<WithdrawIndex>('GET', '/api/withdraw/index')).body.data.openNow).toBe(true);
  });
});

describe('requests and their states', () => {
  it('refuses bad amounts with the reason and holds nothing', async () => {
    const balances = await trackBalances(t, { main: mainId });
    expect((await withdraw({ amount: '5' })).body).toMatchObject({
      code: 409,
      message: 'The minimum withdrawal is 10.0000 USDT',
    });
    expect((await withdraw({ amount: '50001' })).body).toMatchObject({
      code: 409,
      message: 'The maximum withdrawal is 50000.0000 USDT',
    });
    expect((await withdraw({ amount: '10.12345' })).status).toBe(400);
    expect((await withdraw({ amount: '-10' })).status).toBe(400);
    expect((await withdraw({ amount: '2000' })).body).toMatchObject({ code: 409, message: 'Insufficient USDT balance' });
    expect((await withdraw({ tradePassword: 'wrong-pass-1' })).status).toBe(400);
    expect(await availableOf(t, mainId, 'USDT')).toBe('1000.0000');
    await balances.expectChanges({});
  });

  it('holds the amount at request, shows fee and what arrives, and replays a retry', async () => {
    const key = randomUUID();
    const balances = await trackBalances(t, { main: mainId });
    const first = await withdraw({ amount: '100', idempotencyKey: key });
    expect(first.body.data).toMatchObject({ status: 'pending', amount: '100.0000', fee: '1.0000', received: '99.0000' });
    const retry = await withdraw({ amount: '100', idempotencyKey: key });
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect((await withdraw({ amount: '101', idempotencyKey: key })).body.code).toBe(409);
    expect(await availableOf(t, mainId, 'USDT')).toBe('900.0000');
    // Held once (the retry replays, the changed request is refused); nothing reaches a platform account yet.
    await balances.expectChanges({ 'main:USDT:available': '-100.0000', 'main:USDT:held': '100.0000' });
    const log = await call<{ items: { type: string; amount: string }[] }>('GET', '/api/user/balance_log?asset=USDT');
    expect(log.body.data.items[0]).toMatchObject({ type: 'withdraw', amount: '-100.0000' });
  });

  it('rejecting returns the held amount and tells the member why', async () => {
    const balances = await trackBalances(t, { main: mainId });
    const { body } = await withdraw({ amount: '50' });
    await balances.expectChanges({ 'main:USDT:available': '-50.0000', 'main:USDT:held': '50.0000' });
    const rejected = await operatorCall('POST', `/api/admin/withdrawals/${body.data.id}/reject`, {
      reason: 'Address under review',
    });
    expect(rejected.body.data).toMatchObject({
      status: 'refunded',
      reason: 'Address under review',
      decidedBy: 'withdraw-finance',
    });
    expect(await availableOf(t, mainId, 'USDT')).toBe('900.0000');
    const detail = await call<Withdrawal>('GET', `/api/withdraw/detail?id=${body.data.id}`);
    expect(detail.body.data).toMatchObject({ status: 'refunded', reason: 'Address under review' });
    // A decided withdrawal cannot be decided again.
    expect((await operatorCall('POST', `/api/admin/withdrawals/${body.data.id}/approve`)).body.code).toBe(409);
    await balances.expectChanges({ 'main:USDT:available': '50.0000', 'main:USDT:held': '-50.0000' });
  });

  it('a bank withdrawal is approved, then marked paid with the bank reference: the hold leaves the member', async () => {
    const balances = await trackBalances(t, { main: mainId });
    const { body } = await withdraw({ methodId: bankMethod.id, amount: '200' });
    expect(body.data.destination).toBe('ICBC **** 7890');
    const approved = await operatorCall('POST', `/api/admin/withdrawals/${body.data.id}/approve`);
    // Approval moves nothing: the amount stays held until it is paid.
    await balances.expectChanges({ 'main:USDT:available': '-200.0000', 'main:USDT:held': '200.0000' });
    expect(approved.body.data).toMatchObject({ status: 'processing', kycStatus: 'none' });
    expect(approved.body.data.riskHints).toEqual(expect.arrayContaining(['first_withdrawal', 'new_account']));
    const paid = await operatorCall('POST', `/api/admin/withdrawals/${body.data.id}/mark_paid`, {
      reference: 'ICBC-20261120-0001',
    });
    expect(paid.body.data).toMatchObject({ status: 'success', payoutReference: 'ICBC-20261120-0001' });
    expect(await availableOf(t, mainId, 'USDT')).toBe('700.0000');
    // The fixed fee of 1 to fees, what arrives (199) to the withdrawals account.
    await balances.expectChanges({
      'main:USDT:held': '-200.0000',
      'platform:withdrawals:USDT': '199.0000',
      'platform:fees:USDT': '1.0000',
    });
    const platform = await operatorCall<{ platformCode: string; asset: string; balance: string }[]>(
      'GET',
      '/api/admin/ledger/platform',
    );
    const balanceOf = (code: string) =>
      platform.body.data.find((row) => row.platformCode === code && row.asset === 'USDT')?.balance;
    expect(balanceOf('withdrawals')).toBe('199.0000');
    expect(balanceOf('fees')).toBe('1.0000');
    const queue = await operatorCall<{ items: AdminWithdrawal[] }>('GET', '/api/admin/withdrawals?query=withdrawer@example.com');
    expect(queue.body.data.items.map((item) => item.status)).toEqual(['success', 'refunded', 'pending']);
  });

  it('counts the daily limit per platform day', async () => {
    const settings = (await operatorCall<Record<string, unknown>>('GET', '/api/admin/withdraw/settings')).body.data;
    await operatorCall('PUT', '/api/admin/withdraw/settings', { ...settings, dailyLimit: '400.0000' });
    // Today: 100 pending + 200 paid (the refunded 50 does not count): 100 left.
    const balances = await trackBalances(t, { main: mainId });
    const over = await withdraw({ amount: '150' });
    expect(over.body).toMatchObject({ code: 409, message: "This exceeds today's limit of 400.0000 USDT (100.0000 USDT left)" });
    now = new Date('2026-11-23T02:00:00Z'); // Monday: a new day
    await balances.expectChanges({});
    expect((await withdraw({ amount: '150' })).body.data.status).toBe('pending');
    await balances.expectChanges({ 'main:USDT:available': '-150.0000', 'main:USDT:held': '150.0000' });
    await operatorCall('PUT', '/api/admin/withdraw/settings', settings);
  });

  it('keeps members out of each other’s withdrawals and refuses sub-accounts', async () => {
    const other = await registerMember(t, 'withdraw-other@example.com');
    const mine = (await call<{ items: Withdrawal[] }>('GET', '/api/withdraw/list')).body.data.items[0]!;
    expect((await call('GET', `/api/withdraw/detail?id=${mine.id}`, undefined, other)).status).toBe(404);
    expect((await call<{ total: number }>('GET', '/api/withdraw/list', undefined, other)).body.data.total).toBe(0);
    const sub = await call<{ id: string }>('POST', '/api/account/create_sub', { nickname: 'Side' });
    await call('POST', '/api/account/switch', { accountId: sub.body.data.id });
    const balances = await trackBalances(t, { main: mainId, sub: sub.body.data.id });
    expect((await withdraw()).body).toMatchObject({
      code: 409,
      message: 'Withdrawals are made from the main account; please switch to it',
    });
    await balances.expectChanges({});
    await call('POST', '/api/account/switch', { accountId: mainId });
  });

  it('needs the authenticator code once one is bound: missing or wrong is refused and nothing is held', async () => {
    const member = await registerMember(t, 'withdraw-2fa@example.com');
    const accountId = await accountIdOf(t, member);
    await setTradePassword(t, member);
    await fund(t, accountId, 'USDT', '100');
    const balances = await trackBalances(t, { member: accountId });
    const method = await call<WithdrawMethod>(
      'POST',
      '/api/withdraw/add_chain',
      { network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
      member,
    );
    const { secret } = (await call<{ secret: string }>('GET', '/api/user/google_2fa', undefined, member)).body.data;
    const codeNow = () => hotp(base32Decode(secret), totpStep(now.getTime()));
    expect((await call('POST', '/api/user/google_2fa/bind', { googleCode: codeNow() }, member)).body.code).toBe(200);
    now = new Date(now.getTime() + 30_000);
    expect((await call<WithdrawIndex>('GET', '/api/withdraw/index', undefined, member)).body.data.requiresAuthenticator).toBe(
      true,
    );

    const missing = await withdraw({ methodId: method.body.data.id, amount: '20' }, member);
    expect(missing.status).toBe(400);
    const wrongCode = codeNow() === '000000' ? '111111' : '000000';
    const wrong = await withdraw({ methodId: method.body.data.id, amount: '20', googleCode: wrongCode }, member);
    expect(wrong.status).toBe(400);
    expect(await availableOf(t, accountId, 'USDT')).toBe('100.0000');
    await balances.expectChanges({});
    const right = await withdraw({ methodId: method.body.data.id, amount: '20', googleCode: codeNow() }, member);
    expect(right.body.data).toMatchObject({ status: 'pending', amount: '20.0000' });
    expect(await availableOf(t, accountId, 'USDT')).toBe('80.0000');
    await balances.expectChanges({ 'member:USDT:available': '-20.0000', 'member:USDT:held': '20.0000' });
  });

  it('accepts exactly one of 50 concurrent full-balance withdrawals', async () => {
    // PGlite runs one transaction at a time: only this test's PostgreSQL run proves the race.
    const member = await registerMember(t, 'withdraw-race@example.com');
    const accountId = await accountIdOf(t, member);
    await setTradePassword(t, member);
    const method = await call<WithdrawMethod>(
      'POST',
      '/api/withdraw/add_chain',
      { network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
      member,
    );
    await fund(t, accountId, 'USDT', '500');
    const balances = await trackBalances(t, { member: accountId });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => withdraw({ methodId: method.body.data.id, amount: '500' }, member)),
    );
    expect(results.filter((result) => result.body.code === 200)).toHaveLength(1);
    expect(results.filter((result) => result.body.code === 409)).toHaveLength(49);
    expect(await availableOf(t, accountId, 'USDT')).toBe('0.0000');
    await balances.expectChanges({ 'member:USDT:available': '-500.0000', 'member:USDT:held': '500.0000' });
  });
  it('refuses to mark two withdrawals paid with the same transaction hash', async () => {
    const member = await registerMember(t, 'withdraw-hash@example.com');
    await setTradePassword(t, member);
    const accountId = await accountIdOf(t, member);
    await fund(t, accountId, 'USDT', '500');
    const balances = await trackBalances(t, { member: accountId });
    const method = await call<WithdrawMethod>(
      'POST',
      '/api/withdraw/add_chain',
      { network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
      member,
    );
    const ids: string[] = [];
    for (const amount of ['20', '30']) {
      const { body } = await withdraw({ methodId: method.body.data.id, amount }, member);
      expect(body.code).toBe(200);
      await operatorCall('POST', `/api/admin/withdrawals/${body.data.id}/approve`);
      ids.push(body.data.id);
    }
    const hash = `0x${'ab'.repeat(32)}`;
    const first = await operatorCall('POST', `/api/admin/withdrawals/${ids[0]}/mark_paid`, { reference: hash });
    expect(first.body.data.status).toBe('success');
    const second = await operatorCall('POST', `/api/admin/withdrawals/${ids[1]}/mark_paid`, {
      reference: `0x${'AB'.repeat(32)}`,
    });
    expect(second.body).toMatchObject({ code: 409, message: 'This transaction hash already settles another withdrawal' });
    // Only the first is paid; the second (refused) still holds its 30.
    await balances.expectChanges({
      'member:USDT:available': '-50.0000',
      'member:USDT:held': '30.0000',
      'platform:withdrawals:USDT': '19.0000',
      'platform:fees:USDT': '1.0000',
    });
    const other = await operatorCall('POST', `/api/admin/withdrawals/${ids[1]}/mark_paid`, { reference: `0x${'cd'.repeat(32)}` });
    expect(other.body.data.status).toBe('success');
    await balances.expectChanges({
      'member:USDT:held': '-30.0000',
      'platform:withdrawals:USDT': '29.0000',
      'platform:fees:USDT': '1.0000',
    });
  });
});
