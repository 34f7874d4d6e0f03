import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { base32Decode, hotp, totpStep } from '../src/lib/totp.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let nowMs = Date.UTC(2026, 10, 21, 12, 0, 0);
const clock = { now: () => new Date(nowMs) };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(async () => {
  await t.close();
});

/** The code an authenticator app would show now (then time moves on, so the next code differs). */
function codeFor(secret: string): string {
  const code = hotp(base32Decode(secret), totpStep(nowMs));
  return code;
}
function nextStep() {
  nowMs += 30_000;
}

function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) });
}

async function setup(token: string) {
  return (await call('GET', '/api/user/google_2fa', token)).json<{
    data: { bound: boolean; secret: string; otpauthUrl: string };
  }>().data;
}

describe('Google authenticator', () => {
  it('binds with a code from the offered secret; codes are single-use', async () => {
    const token = await registerMember(t, 'totp@example.com');
    const first = await setup(token);
    expect(first.bound).toBe(false);
    expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.otpauthUrl).toBe(
      `otpauth://totp/Custos%3Atotp%40example.com?secret=${first.secret}&issuer=Custos&algorithm=SHA1&digits=6&period=30`,
    );
    expect((await setup(token)).secret).toBe(first.secret);

    expect(
      (
        await call('POST', '/api/user/google_2fa/bind', token, {
          googleCode: '000000' === codeFor(first.secret) ? '111111' : '000000',
        })
      ).json(),
    ).toMatchObject({
      code: 400,
      message: 'The authenticator code is wrong or was already used',
    });
    const code = codeFor(first.secret);
    expect((await call('POST', '/api/user/google_2fa/bind', token, { googleCode: code })).json()).toMatchObject({ code: 200 });
    expect((await call('GET', '/api/user/info', token)).json()).toMatchObject({ data: { hasAuthenticator: true } });
    expect((await call('POST', '/api/user/google_2fa/bind', token, { googleCode: code })).json()).toMatchObject({ code: 409 });

    // Security changes now need a fresh code; the binding code cannot be replayed.
    const change = (googleCode?: string) =>
      call('POST', '/api/user/update_password', token, {
        oldPassword: 'member-password',
        password: 'next-password',
        confirmPassword: 'next-password',
        ...(googleCode ? { googleCode } : {}),
      });
    expect((await change()).json()).toMatchObject({ code: 400, message: 'Enter the code from your authenticator app' });
    expect((await change(code)).json()).toMatchObject({
      code: 400,
      message: 'The authenticator code is wrong or was already used',
    });
    nextStep();
    expect((await change(codeFor(first.secret))).json()).toMatchObject({ code: 200 });
  });

  it('moves to a new authenticator with a code from each', async () => {
    const token = await registerMember(t, 'totp-move@example.com');
    const old = await setup(token);
    await call('POST', '/api/user/google_2fa/bind', token, { googleCode: codeFor(old.secret) });
    nextStep();
    const next = await setup(token);
    expect(next).toMatchObject({ bound: true });
    expect(next.secret).not.toBe(old.secret);
    const moved = await call('POST', '/api/user/google_2fa/change', token, {
      oldGoogleCode: codeFor(old.secret),
      newGoogleCode: codeFor(next.secret),
    });
    expect(moved.json()).toMatchObject({ code: 200 });
    const rows = await queryRows<{ totp_secret: string }>(
      t.testDatabase.database.db,
      sql`select totp_secret from members where email = 'totp-move@example.com'`,
    );
    expect(rows[0]!.totp_secret).toBe(next.secret);
  });

  it('pauses after 5 wrong codes', async () => {
    const token = await registerMember(t, 'totp-guess@example.com');
    const offered = await setup(token);
    for (let attempt = 0; attempt < 5; attempt += 1)
      await call('POST', '/api/user/google_2fa/bind', token, {
        googleCode: '999999' === codeFor(offered.secret) ? '999998' : '999999',
      });
    expect((await call('POST', '/api/user/google_2fa/bind', token, { googleCode: codeFor(offered.secret) })).statusCode).toBe(
      429,
    );
  });

  it('an operator can unbind a lost authenticator, audited', async () => {
    const token = await registerMember(t, 'totp-lost@example.com');
    const offered = await setup(token);
    await call('POST', '/api/user/google_2fa/bind', token, { googleCode: codeFor(offered.secret) });
    const admin = await operatorToken(t, 'helpdesk', 'support');
    const [member] = await queryRows<{ id: string }>(
      t.testDatabase.database.db,
      sql`select id from members where email = 'totp-lost@example.com'`,
    );
    const reset = await t.app.inject({
      method: 'POST',
      url: `/api/admin/members/${member!.id}/reset_authenticator`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(reset.json()).toMatchObject({ code: 200 });
    expect((await call('GET', '/api/user/info', token)).json()).toMatchObject({ data: { hasAuthenticator: false } });
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/admin/members/${member!.id}/reset_authenticator`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(again.json()).toMatchObject({ code: 409 });
    const audit = await queryRows<{ action: string }>(
      t.testDatabase.database.db,
      sql`select action from audit_log where action = 'member.reset_authenticator'`,
    );
    expect(audit).toHaveLength(1);
  });
});
