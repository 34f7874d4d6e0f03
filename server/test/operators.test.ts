import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
let oneTimePassword: string;
const NEW_PASSWORD = 'a much better passphrase';

beforeAll(async () => {
  t = await createTestApp();
  const created = await t.services.operators.ensureFirstOperator();
  if (!created) throw new Error('first operator was not created');
  oneTimePassword = created.oneTimePassword;
});
afterAll(async () => {
  await t.close();
});

async function login(password: string, username = 'admin', ip = '10.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/auth/login',
    headers: { lang: 'EN' },
    payload: { username, password },
    remoteAddress: ip,
  });
}

function auditActions() {
  return queryRows<{ action: string }>(
    t.testDatabase.database.db,
    sql`select action from audit_log order by created_at, id`,
  ).then((rows) => rows.map((row) => row.action));
}

describe('first operator', () => {
  it('is created once, with a one-time password of 20 CSPRNG characters', async () => {
    expect(oneTimePassword).toMatch(/^[A-Za-z2-9]{20}$/);
    expect(await t.services.operators.ensureFirstOperator()).toBeNull();
    const rows = await queryRows<{ password_hash: string }>(t.testDatabase.database.db, sql`select password_hash from operators`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('operator log-in', () => {
  it('refuses a wrong password and an unknown user with the same answer', async () => {
    const wrong = await login('not the password', 'admin', '10.0.0.2');
    const unknown = await login('not the password', 'ghost', '10.0.0.2');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ code: 401, message: 'Wrong username or password', data: null });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('logs in, and until the one-time password is replaced only me/password/logout are allowed', async () => {
    const response = await login(oneTimePassword);
    expect(response.statusCode).toBe(200);
    const { token, operator } = response.json<{
      data: { token: string; operator: { mustChangePassword: boolean; role: string } };
    }>().data;
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(operator).toMatchObject({ mustChangePassword: true, role: 'super_admin' });

    const me = await t.app.inject({ method: 'GET', url: '/api/admin/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.json()).toMatchObject({ code: 200, data: { username: 'admin' } });

    const tooShort = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/password',
      headers: { authorization: `Bearer ${token}`, lang: 'EN' },
      payload: { oldPassword: oneTimePassword, newPassword: 'short' },
    });
    expect(tooShort.json()).toEqual({ code: 400, message: 'new password: at least 6 characters', data: null });

    const wrongOld = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/password',
      headers: { authorization: `Bearer ${token}`, lang: 'EN' },
      payload: { oldPassword: 'not it at all', newPassword: NEW_PASSWORD },
    });
    expect(wrongOld.json()).toEqual({ code: 400, message: 'The current password is wrong', data: null });

    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/password',
      headers: { authorization: `Bearer ${token}` },
      payload: { oldPassword: oneTimePassword, newPassword: NEW_PASSWORD },
    });
    expect(changed.json()).toMatchObject({ code: 200, data: { mustChangePassword: false } });

    expect((await login(oneTimePassword, 'admin', '10.0.0.3')).statusCode).toBe(401);
    expect((await login(NEW_PASSWORD, 'admin', '10.0.0.3')).statusCode).toBe(200);
  });

  it('ends a session at log-out; the token then answers 401', async () => {
    const { token } = (await login(NEW_PASSWORD, 'admin', '10.0.0.4')).json<{ data: { token: string } }>().data;
    const logout = await t.app.inject({ method: 'POST', url: '/api/admin/auth/logout', headers: { authorization: token } });
    expect(logout.json()).toMatchObject({ code: 200, data: null });
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/admin/auth/me',
      headers: { authorization: `Bearer ${token}`, lang: 'EN' },
    });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ code: 401, message: 'Your session has ended, please log in again', data: null });
  });

  it('answers 401 without a token or with a made-up one', async () => {
    for (const headers of [{}, { authorization: 'Bearer made-up' }]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/admin/auth/me', headers });
      expect(response.statusCode).toBe(401);
    }
  });

  it('pauses a username at one address after 5 wrong passwords from it, with 429 and the wait', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await login('wrong', 'admin', '10.0.1.1')).statusCode).toBe(401);
    const locked = await login(NEW_PASSWORD, 'admin', '10.0.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toMatch(/^\d+$/);
    expect(locked.json<{ message: string }>().message).toMatch(/^Too many attempts, please try again in \d+ s$/);
  });

  it('writes every action to the audit log, which refuses changes', async () => {
    const actions = await auditActions();
    expect(actions).toEqual(
      expect.arrayContaining([
        'operator.bootstrap',
        'operator.login',
        'operator.login_failed',
        'operator.password_changed',
        'operator.logout',
      ]),
    );
    // The append-only trigger's own refusal (42501 insufficient_privilege), not any failure.
    await expect(t.testDatabase.database.db.execute(sql`update audit_log set action = 'x'`)).rejects.toMatchObject({
      cause: { code: '42501', message: 'audit_log is append-only (UPDATE refused)' },
    });
    await expect(t.testDatabase.database.db.execute(sql`delete from audit_log`)).rejects.toMatchObject({
      cause: { code: '42501', message: 'audit_log is append-only (DELETE refused)' },
    });
    expect(await auditActions()).toEqual(actions);
  });
});
