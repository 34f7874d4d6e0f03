import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { AppError } from '../src/http/app-error.js';
import { latestCodeFor, loginMember, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function post(url: string, token: string, payload: object = {}) {
  return t.app.inject({ method: 'POST', url, headers: { authorization: token, lang: 'EN' }, payload });
}

async function memberRow(email: string) {
  const rows = await queryRows<{ id: string; trade_password_hash: string | null }>(
    t.testDatabase.database.db,
    sql`select id, trade_password_hash from members where email = ${email}`,
  );
  return { id: rows[0]!.id, tradePasswordHash: rows[0]!.trade_password_hash };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: number; messageKey: string }> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { code: error.code, messageKey: error.messageKey };
}

describe('login password change', () => {
  it('needs the right current password, refuses the same one, and ends the other sessions', async () => {
    const token = await registerMember(t, 'changer@example.com', 'first-password');
    const other = (await loginMember(t, 'changer@example.com', 'first-password')).json<{ data: { token: string } }>().data.token;
    const change = (oldPassword: string, password: string) =>
      post('/api/user/update_password', token, { oldPassword, password, confirmPassword: password });
    expect((await change('not-it', 'second-password')).json()).toEqual({
      code: 400,
      message: 'The current password is wrong',
      data: null,
    });
    expect((await change('first-password', 'first-password')).json()).toMatchObject({
      code: 400,
      message: 'The new password must differ from the current one',
    });
    expect((await change('first-password', 'second-password')).json()).toMatchObject({ code: 200 });
    expect((await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: other } })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: token } })).statusCode).toBe(
      200,
    );
    expect((await loginMember(t, 'changer@example.com', 'second-password')).json()).toMatchObject({ code: 200 });
  });

  it('pauses after 5 wrong current passwords, even for the right one', async () => {
    const token = await registerMember(t, 'bruteforce@example.com', 'real-password');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(
        (
          await post('/api/user/update_password', token, {
            oldPassword: 'guess',
            password: 'next-password',
            confirmPassword: 'next-password',
          })
        ).statusCode,
      ).toBe(400);
    }
    const locked = await post('/api/user/update_password', token, {
      oldPassword: 'real-password',
      password: 'next-password',
      confirmPassword: 'next-password',
    });
    expect(locked.statusCode).toBe(429);
  });
});

describe('trading password', () => {
  it('answers 4900 until set, is set once, must differ from the login password, and is checked', async () => {
    const email = 'trader@example.com';
    const token = await registerMember(t, email, 'login-password');
    expect(await refusal(t.services.security.verifyTradePassword(await memberRow(email), 'anything'))).toEqual({
      code: 4900,
      messageKey: 'trade_password_not_set',
    });

    const set = (password: string, confirmPassword = password) =>
      post('/api/user/set_trade_password', token, { password, confirmPassword });
    expect((await set('trade-pass', 'trade-pazz')).json()).toMatchObject({
      code: 400,
      message: 'confirm password: the two passwords do not match',
    });
    expect((await set('login-password')).json()).toMatchObject({
      code: 400,
      message: 'The trading password must differ from the login password',
    });
    expect((await set('trade-pass')).json()).toMatchObject({ code: 200 });
    expect((await set('trade-pass-2')).json()).toMatchObject({
      code: 409,
      message: 'The trading password is already set; change it instead',
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: token } })).json(),
    ).toMatchObject({ data: { hasTradePassword: true } });

    const member = await memberRow(email);
    expect(member.tradePasswordHash).toMatch(/^\$argon2id\$/);
    await expect(t.services.security.verifyTradePassword(member, 'trade-pass')).resolves.toBeUndefined();
    expect(await refusal(t.services.security.verifyTradePassword(member, 'wrong'))).toEqual({
      code: 400,
      messageKey: 'auth.trade_password_wrong',
    });

    const change = (oldTradePassword: string, password: string) =>
      post('/api/user/update_trade_password', token, { oldTradePassword, password, confirmPassword: password });
    expect((await change('nope', 'trade-pass-2')).json()).toMatchObject({ code: 400, message: 'The trading password is wrong' });
    expect((await change('trade-pass', 'trade-pass-2')).json()).toMatchObject({ code: 200 });
    await expect(t.services.security.verifyTradePassword(await memberRow(email), 'trade-pass-2')).resolves.toBeUndefined();
  });

  it('changing the trading password before it is set answers 4900', async () => {
    const token = await registerMember(t, 'no-trade@example.com');
    const response = await post('/api/user/update_trade_password', token, {
      oldTradePassword: 'x',
      password: 'trade-pass',
      confirmPassword: 'trade-pass',
    });
    expect(response.json()).toEqual({ code: 4900, message: 'Please set your trading password first', data: null });
  });

  it('pauses after 5 wrong trading passwords (429), even for the right one', async () => {
    const email = 'locked-trader@example.com';
    const token = await registerMember(t, email, 'login-password');
    await post('/api/user/set_trade_password', token, { password: 'trade-pass', confirmPassword: 'trade-pass' });
    const member = await memberRow(email);
    for (let attempt = 0; attempt < 5; attempt += 1) await refusal(t.services.security.verifyTradePassword(member, 'wrong'));
    expect(await refusal(t.services.security.verifyTradePassword(member, 'trade-pass'))).toEqual({
      code: 429,
      messageKey: 'too_many_requests',
    });
  });

  it('is reset with an e-mail code', async () => {
    const email = 'forgot-trade@example.com';
    const token = await registerMember(t, email, 'login-password');
    await post('/api/user/set_trade_password', token, { password: 'trade-pass', confirmPassword: 'trade-pass' });
    expect((await post('/api/user/send_trade_password_code', token)).json()).toMatchObject({
      code: 200,
      data: { resendAfterS: 60 },
    });
    const code = await latestCodeFor(t, email);
    expect(
      (
        await post('/api/user/reset_trade_password', token, {
          code: '000000' === code ? '111111' : '000000',
          password: 'new-trade',
          confirmPassword: 'new-trade',
        })
      ).json(),
    ).toMatchObject({ code: 400 });
    expect(
      (await post('/api/user/reset_trade_password', token, { code, password: 'new-trade', confirmPassword: 'new-trade' })).json(),
    ).toMatchObject({ code: 200 });
    await expect(t.services.security.verifyTradePassword(await memberRow(email), 'new-trade')).resolves.toBeUndefined();
  });
});
