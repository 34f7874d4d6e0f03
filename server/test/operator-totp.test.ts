import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { base32Decode, hotp, totpStep } from '../src/lib/totp.js';
import { createOperator, loginOperator, operatorCode } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let nowMs = Date.UTC(2026, 10, 21, 9, 0, 0);
const clock = { now: () => new Date(nowMs) };
let t: TestApp;
let oneTimePassword: string;
const PASSWORD = 'a long console passphrase';

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  const created = await t.services.operators.ensureFirstOperator();
  if (!created) throw new Error('first operator was not created');
  oneTimePassword = created.oneTimePassword;
});
afterAll(async () => {
  await t.close();
});

function nextStep() {
  nowMs += 30_000;
}

function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
}

function tokenOf(response: { json: <T>() => T }): string {
  return response.json<{ data: { token: string } }>().data.token;
}

let adminSecret = '';

describe('operator authenticator', () => {
  it('must be bound after the one-time password is replaced, before anything else', async () => {
    const first = await loginOperator(t, 'admin', oneTimePassword);
    expect(first.json()).toMatchObject({ code: 200, data: { operator: { mustChangePassword: true, totpBound: false } } });
    const token = tokenOf(first);
    // Still the one-time password: setting up an authenticator waits for the password change.
    expect((await call('POST', '/api/admin/auth/totp/setup', token)).json()).toMatchObject({
      code: 403,
      message: 'Change the one-time password before continuing',
    });
    expect(
      (await call('POST', '/api/admin/auth/password', token, { oldPassword: oneTimePassword, newPassword: PASSWORD })).json(),
    ).toMatchObject({ code: 200, data: { mustChangePassword: false, totpBound: false } });

    for (const [method, url] of [
      ['GET', '/api/admin/members'],
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/operators'],
    ] as const) {
      const refused = await call(method, url, token);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json(), url).toEqual({ code: 403, message: 'Bind an authenticator app before continuing', data: null });
    }
    expect((await call('GET', '/api/admin/auth/me', token)).json()).toMatchObject({ code: 200, data: { totpBound: false } });

    const setup = (await call('POST', '/api/admin/auth/totp/setup', token)).json<{
      data: { secret: string; otpauthUrl: string };
    }>().data;
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUrl).toBe(
      `otpauth://totp/Custos%20console%3Aadmin?secret=${setup.secret}&issuer=Custos%20console&algorithm=SHA1&digits=6&period=30`,
    );
    // The same secret until it is bound, so a reload shows the same QR code.
    expect((await call('POST', '/api/admin/auth/totp/setup', token)).json()).toMatchObject({ data: { secret: setup.secret } });

    const right = operatorCode(t, setup.secret);
    const wrong = right === '000000' ? '111111' : '000000';
    expect((await call('POST', '/api/admin/auth/totp/bind', token, { googleCode: wrong })).json()).toEqual({
      code: 400,
      message: 'The authenticator code is wrong or was already used',
      data: null,
    });
    expect((await call('POST', '/api/admin/auth/totp/bind', token, { googleCode: '12ab' })).json()).toMatchObject({
      code: 400,
      message: 'authenticator code: please enter the 6-digit code',
    });
    expect((await call('POST', '/api/admin/auth/totp/bind', token, { googleCode: right })).json()).toMatchObject({
      code: 200,
      data: { username: 'admin', totpBound: true },
    });
    expect((await call('GET', '/api/admin/members', token)).json()).toMatchObject({ code: 200 });
    expect((await call('POST', '/api/admin/auth/totp/setup', token)).json()).toMatchObject({ code: 409 });
    expect((await call('POST', '/api/admin/auth/totp/bind', token, { googleCode: right })).json()).toMatchObject({ code: 409 });

    const rows = await queryRows<{ totp_secret: string; totp_pending_secret: string | null }>(
      t.testDatabase.database.db,
      sql`select totp_secret, totp_pending_secret from operators where username = 'admin'`,
    );
    expect(rows[0]).toEqual({ totp_secret: setup.secret, totp_pending_secret: null });
    adminSecret = setup.secret;
  });

  it('then logs in only with a fresh code; a missing code gets its own answer (4010)', async () => {
    const missing = await loginOperator(t, 'admin', PASSWORD);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ code: 4010, message: 'Enter the 6-digit code from your authenticator app', data: null });

    // A wrong password answers as before without a code, and without telling which part was wrong with one.
    expect((await loginOperator(t, 'admin', 'not the password')).json()).toEqual({
      code: 401,
      message: 'Wrong username or password',
      data: null,
    });
    const wrongPasswordWithCode = (
      await loginOperator(t, 'admin', 'not the password', operatorCode(t, adminSecret))
    ).json<unknown>();
    const unknownWithCode = (await loginOperator(t, 'ghost', 'not the password', '123456')).json<unknown>();
    expect(wrongPasswordWithCode).toEqual({ code: 401, message: 'Wrong username, password or authenticator code', data: null });
    expect(unknownWithCode).toEqual(wrongPasswordWithCode);

    // The code that bound the authenticator was used: it cannot log in.
    expect((await loginOperator(t, 'admin', PASSWORD, operatorCode(t, adminSecret))).json()).toEqual(wrongPasswordWithCode);
    nextStep();
    const code = operatorCode(t, adminSecret);
    const ok = await loginOperator(t, 'admin', PASSWORD, code);
    expect(ok.json()).toMatchObject({ code: 200, data: { operator: { totpBound: true } } });
    expect((await call('GET', '/api/admin/members', tokenOf(ok))).json()).toMatchObject({ code: 200 });
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await loginOperator(t, 'admin', PASSWORD, wrong)).json()).toEqual(wrongPasswordWithCode);
    // Single use: the same code again is refused.
    expect((await loginOperator(t, 'admin', PASSWORD, code)).json()).toEqual(wrongPasswordWithCode);
    expect((await loginOperator(t, 'admin', PASSWORD, 'abc')).json()).toMatchObject({
      code: 400,
      message: 'authenticator code: please enter the 6-digit code',
    });

    // The next step's code is accepted too (one step of clock drift), after which this step's is too old.
    const ahead = hotp(base32Decode(adminSecret), totpStep(nowMs) + 1);
    expect((await loginOperator(t, 'admin', PASSWORD, ahead)).json()).toMatchObject({ code: 200 });
    nextStep();
    nextStep();
  });

  it('lets one of two log-ins racing with the same code through', async () => {
    // PGlite runs one transaction at a time: only this test's PostgreSQL run proves the race.
    const code = operatorCode(t, adminSecret);
    const results = await Promise.all([
      loginOperator(t, 'admin', PASSWORD, code),
      loginOperator(t, 'admin', PASSWORD, code),
      loginOperator(t, 'admin', PASSWORD, code),
    ]);
    expect(results.map((result) => result.json<{ code: number }>().code).sort()).toEqual([200, 401, 401]);
    nextStep();
  });

  it('counts wrong codes toward the username’s limit at that address: after 5, even the right code waits there (429)', async () => {
    const { password, secret } = await createOperator(t, 'limited', 'finance');
    const code = operatorCode(t, secret);
    const wrong = code === '000000' ? '111111' : '000000';
    const from = (ip: string, googleCode: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/auth/login',
        remoteAddress: ip,
        headers: { lang: 'EN' },
        payload: { username: 'limited', password, googleCode },
      });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await from('10.44.0.1', wrong)).statusCode).toBe(401);
    }
    const locked = await from('10.44.0.1', code);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toMatch(/^\d+$/);
    // The pause belongs to that address: the right password with a fresh code gets in from another.
    expect((await from('10.44.0.2', code)).json()).toMatchObject({ code: 200 });
    nextStep();
  });

  it('pauses binding after 5 wrong codes', async () => {
    const { id } = await createOperator(t, 'rebinder', 'support');
    await t.testDatabase.database.db.execute(sql`update operators set totp_secret = null where id = ${id}`);
    const token = tokenOf(await loginOperator(t, 'rebinder', 'rebinder-password-long'));
    const { secret } = (await call('POST', '/api/admin/auth/totp/setup', token)).json<{ data: { secret: string } }>().data;
    const right = operatorCode(t, secret);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await call('POST', '/api/admin/auth/totp/bind', token, { googleCode: wrong })).statusCode).toBe(400);
    }
    expect((await call('POST', '/api/admin/auth/totp/bind', token, { googleCode: right })).statusCode).toBe(429);
  });

  it('audits the binding and the refused codes', async () => {
    const rows = await queryRows<{ action: string; after: unknown }>(
      t.testDatabase.database.db,
      sql`select action, after from audit_log where action in ('operator.totp_bound', 'operator.login_failed') order by created_at, id`,
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { action: 'operator.totp_bound', after: { totpBound: true } },
        { action: 'operator.login_failed', after: { reason: 'authenticator_code' } },
        { action: 'operator.login_failed', after: { reason: 'password' } },
      ]),
    );
  });
});
