import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import type { OperatorSession } from '../src/modules/operators/operator.service.js';
import { createOperator, loginOperator, operatorCode, operatorToken } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let nowMs = Date.UTC(2026, 10, 22, 9, 0, 0);
const clock = { now: () => new Date(nowMs) };
let t: TestApp;
let root: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  const created = await createOperator(t, 'root', 'super_admin');
  const login = await loginOperator(t, 'root', created.password, operatorCode(t, created.secret));
  root = { id: created.id, token: login.json<{ data: { token: string } }>().data.token };
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

interface Item {
  id: string;
  username: string;
  role: string;
  totpBound: boolean;
  disabled: boolean;
  mustChangePassword: boolean;
  createdAt: string;
  lastLoginAt: string | null;
}

async function list(token = root.token): Promise<Item[]> {
  return (await call('GET', '/api/admin/operators', token)).json<{ data: Item[] }>().data;
}

async function audit(action: string, targetId: string) {
  return queryRows<{ operator_id: string; before: unknown; after: unknown }>(
    t.testDatabase.database.db,
    sql`select operator_id, before, after from audit_log where action = ${action} and target_id = ${targetId} order by created_at`,
  );
}

async function create(username: string, role: string) {
  return call('POST', '/api/admin/operators', root.token, { username, role });
}

describe('operator accounts', () => {
  it('are for super admins only: finance, support and reviewers get 403', async () => {
    for (const role of ['finance', 'support', 'reviewer'] as const) {
      const token = await operatorToken(t, `${role}-one`, role);
      const target = (await list()).find((item) => item.username === `${role}-one`)!;
      for (const [method, url, payload] of [
        ['GET', '/api/admin/operators', undefined],
        ['POST', '/api/admin/operators', { username: 'sneaky', role: 'super_admin' }],
        ['POST', `/api/admin/operators/${root.id}/role`, { role: 'finance' }],
        ['POST', `/api/admin/operators/${root.id}/disable`, undefined],
        ['POST', `/api/admin/operators/${root.id}/enable`, undefined],
        ['POST', `/api/admin/operators/${root.id}/reset_password`, undefined],
        ['POST', `/api/admin/operators/${root.id}/reset_totp`, undefined],
        ['POST', `/api/admin/operators/${target.id}/role`, { role: 'super_admin' }],
      ] as const) {
        const response = await call(method, url, token, payload);
        expect(response.statusCode, `${role} ${url}`).toBe(403);
        expect(response.json(), `${role} ${url}`).toEqual({ code: 403, message: 'You are not allowed to do this', data: null });
      }
    }
    expect((await list()).map((item) => item.username)).not.toContain('sneaky');
  });

  it('creates an operator with a one-time password shown once; it must change it and bind an authenticator', async () => {
    expect((await create('x', 'finance')).json()).toEqual({ code: 400, message: 'username: invalid value', data: null });
    expect((await create('has space', 'finance')).json()).toMatchObject({ code: 400, message: 'username: invalid value' });
    expect((await create('', 'finance')).json()).toMatchObject({ code: 400, message: 'please enter username' });
    expect((await create('alice', 'owner')).json()).toEqual({ code: 400, message: 'role: invalid value', data: null });
    const inChinese = await t.app.inject({
      method: 'POST',
      url: '/api/admin/operators',
      headers: { authorization: `Bearer ${root.token}`, lang: 'CN' },
      payload: { username: 'alice', role: 'owner' },
    });
    expect(inChinese.json()).toEqual({ code: 400, message: '角色：无效的值', data: null });

    const created = await create(' Alice ', 'finance');
    const { operator, oneTimePassword } = created.json<{ data: { operator: Item; oneTimePassword: string } }>().data;
    expect(oneTimePassword).toMatch(/^[A-Za-z2-9]{20}$/);
    expect(operator).toMatchObject({
      username: 'alice',
      role: 'finance',
      totpBound: false,
      disabled: false,
      mustChangePassword: true,
      lastLoginAt: null,
    });
    expect((await create('alice', 'support')).json()).toEqual({
      code: 409,
      message: 'This username is already taken',
      data: null,
    });
    expect((await create('ALICE', 'support')).json()).toMatchObject({ code: 409 });

    const [entry] = await audit('operator.create', operator.id);
    expect(entry).toEqual({
      operator_id: root.id,
      before: null,
      after: { username: 'alice', role: 'finance', disabled: false, mustChangePassword: true, totpBound: false },
    });
    // The password itself is nowhere in the log.
    const logged = await queryRows<{ text: string }>(
      t.testDatabase.database.db,
      sql`select audit_log::text as text from audit_log`,
    );
    expect(logged.some((row) => row.text.includes(oneTimePassword))).toBe(false);

    const login = await loginOperator(t, 'alice', oneTimePassword);
    expect(login.json()).toMatchObject({ code: 200, data: { operator: { mustChangePassword: true, totpBound: false } } });
    const token = login.json<{ data: { token: string } }>().data.token;
    expect((await call('GET', '/api/admin/members', token)).json()).toMatchObject({ code: 403 });
    await call('POST', '/api/admin/auth/password', token, { oldPassword: oneTimePassword, newPassword: 'alice chose this one' });
    expect((await call('GET', '/api/admin/members', token)).json()).toMatchObject({
      code: 403,
      message: 'Bind an authenticator app before continuing',
    });
    const { secret } = (await call('POST', '/api/admin/auth/totp/setup', token)).json<{ data: { secret: string } }>().data;
    await call('POST', '/api/admin/auth/totp/bind', token, { googleCode: operatorCode(t, secret) });
    expect((await call('GET', '/api/admin/members', token)).json()).toMatchObject({ code: 200 });
    const listed = (await list()).find((item) => item.username === 'alice')!;
    expect(listed).toMatchObject({ totpBound: true, mustChangePassword: false });
    expect(listed.lastLoginAt).not.toBeNull();
  });

  it('changes a role, audited with before and after', async () => {
    const alice = (await list()).find((item) => item.username === 'alice')!;
    expect((await call('POST', `/api/admin/operators/${alice.id}/role`, root.token, { role: 'support' })).json()).toMatchObject({
      code: 200,
      data: { username: 'alice', role: 'support' },
    });
    expect((await call('POST', `/api/admin/operators/${alice.id}/role`, root.token, { role: 'support' })).json()).toMatchObject({
      code: 409,
    });
    expect((await call('POST', `/api/admin/operators/${alice.id}/role`, root.token, {})).json()).toMatchObject({
      code: 400,
      message: 'please enter role',
    });
    const [entry] = await audit('operator.role_change', alice.id);
    expect(entry).toMatchObject({ operator_id: root.id, before: { role: 'finance' }, after: { role: 'support' } });
    expect(
      (
        await call('POST', '/api/admin/operators/00000000-0000-4000-8000-000000000000/role', root.token, { role: 'support' })
      ).json(),
    ).toMatchObject({
      code: 404,
    });
  });

  it('disables (ending every session; log-in refused) and enables again', async () => {
    const { id, password, secret } = await createOperator(t, 'bob', 'reviewer');
    const login = await loginOperator(t, 'bob', password, operatorCode(t, secret));
    const token = login.json<{ data: { token: string } }>().data.token;
    expect((await call('GET', '/api/admin/auth/me', token)).statusCode).toBe(200);

    expect((await call('POST', `/api/admin/operators/${id}/disable`, root.token)).json()).toMatchObject({
      code: 200,
      data: { disabled: true },
    });
    expect((await call('GET', '/api/admin/auth/me', token)).statusCode).toBe(401);
    nextStep();
    expect((await loginOperator(t, 'bob', password, operatorCode(t, secret))).json()).toMatchObject({
      code: 403,
      message: 'This operator account is disabled',
    });
    expect((await call('POST', `/api/admin/operators/${id}/disable`, root.token)).json()).toMatchObject({ code: 409 });
    const [disabled] = await audit('operator.disable', id);
    expect(disabled).toMatchObject({ before: { disabled: false }, after: { disabled: true, endedSessions: 1 } });

    expect((await call('POST', `/api/admin/operators/${id}/enable`, root.token)).json()).toMatchObject({
      code: 200,
      data: { disabled: false },
    });
    nextStep();
    expect((await loginOperator(t, 'bob', password, operatorCode(t, secret))).json()).toMatchObject({ code: 200 });
    expect(await audit('operator.enable', id)).toHaveLength(1);
  });

  it('resets a password to a new one-time password (sessions end; the authenticator stays bound)', async () => {
    const { id, password, secret } = await createOperator(t, 'carol', 'support');
    nextStep();
    const token = (await loginOperator(t, 'carol', password, operatorCode(t, secret))).json<{ data: { token: string } }>().data
      .token;
    const reset = await call('POST', `/api/admin/operators/${id}/reset_password`, root.token);
    const { oneTimePassword } = reset.json<{ data: { oneTimePassword: string } }>().data;
    expect(oneTimePassword).toMatch(/^[A-Za-z2-9]{20}$/);
    expect((await call('GET', '/api/admin/auth/me', token)).statusCode).toBe(401);
    nextStep();
    expect((await loginOperator(t, 'carol', password, operatorCode(t, secret))).json()).toMatchObject({ code: 401 });
    expect((await loginOperator(t, 'carol', oneTimePassword)).json()).toMatchObject({ code: 4010 });
    const again = await loginOperator(t, 'carol', oneTimePassword, operatorCode(t, secret));
    expect(again.json()).toMatchObject({ code: 200, data: { operator: { mustChangePassword: true, totpBound: true } } });
    const [entry] = await audit('operator.reset_password', id);
    expect(entry).toMatchObject({
      operator_id: root.id,
      before: { mustChangePassword: false },
      after: { mustChangePassword: true, endedSessions: 1 },
    });
  });

  it('resets an authenticator: sessions end and the next log-in must bind a new one', async () => {
    const { id, password, secret } = await createOperator(t, 'dave', 'finance');
    nextStep();
    const token = (await loginOperator(t, 'dave', password, operatorCode(t, secret))).json<{ data: { token: string } }>().data
      .token;
    expect((await call('POST', `/api/admin/operators/${id}/reset_totp`, root.token)).json()).toMatchObject({
      code: 200,
      data: { totpBound: false },
    });
    expect((await call('GET', '/api/admin/auth/me', token)).statusCode).toBe(401);
    expect((await call('POST', `/api/admin/operators/${id}/reset_totp`, root.token)).json()).toMatchObject({
      code: 409,
      message: 'No authenticator is bound yet',
    });
    // A password is enough now, and the session may only bind a new authenticator.
    const login = await loginOperator(t, 'dave', password);
    expect(login.json()).toMatchObject({ code: 200, data: { operator: { totpBound: false } } });
    const fresh = login.json<{ data: { token: string } }>().data.token;
    expect((await call('GET', '/api/admin/members', fresh)).json()).toMatchObject({ code: 403 });
    const setup = (await call('POST', '/api/admin/auth/totp/setup', fresh)).json<{ data: { secret: string } }>().data;
    expect(setup.secret).not.toBe(secret);
    const [entry] = await audit('operator.reset_totp', id);
    expect(entry).toMatchObject({ before: { totpBound: true }, after: { totpBound: false, endedSessions: 1 } });
  });

  it('refuses to act on oneself', async () => {
    for (const [url, payload] of [
      [`/api/admin/operators/${root.id}/role`, { role: 'finance' }],
      [`/api/admin/operators/${root.id}/disable`, undefined],
      [`/api/admin/operators/${root.id}/reset_password`, undefined],
      [`/api/admin/operators/${root.id}/reset_totp`, undefined],
    ] as const) {
      expect((await call('POST', url, root.token, payload)).json(), url).toEqual({
        code: 409,
        message: 'You cannot do this to your own account',
        data: null,
      });
    }
    expect((await list()).find((item) => item.id === root.id)).toMatchObject({ role: 'super_admin', disabled: false });
  });

  it('keeps the last active super admin: two demoting each other at once leave one', async () => {
    // PGlite runs one transaction at a time: only this test's PostgreSQL run proves the race.
    const other = await createOperator(t, 'erin', 'super_admin');
    nextStep();
    const erin = (await loginOperator(t, 'erin', other.password, operatorCode(t, other.secret))).json<{
      data: { token: string };
    }>().data.token;
    const [first, second] = await Promise.all([
      call('POST', `/api/admin/operators/${other.id}/role`, root.token, { role: 'finance' }),
      call('POST', `/api/admin/operators/${root.id}/role`, erin, { role: 'finance' }),
    ]);
    const codes = [first.json<{ code: number }>().code, second.json<{ code: number }>().code].sort();
    expect(codes[0]).toBe(200);
    expect([403, 409]).toContain(codes[1]);
    // Either may win the race; only the one still a super admin may list the operators.
    const survivorToken = first.json<{ code: number }>().code === 200 ? root.token : erin;
    const active = (await list(survivorToken)).filter((item) => item.role === 'super_admin' && !item.disabled);
    expect(active).toHaveLength(1);

    // A super admin acting on a stale session (demoted meanwhile) cannot remove the last one either.
    const survivor = active[0]!;
    const demoted = survivor.id === root.id ? other.id : root.id;
    const stale: OperatorSession = {
      sessionId: '00000000-0000-4000-8000-000000000000',
      operator: { id: demoted, username: 'stale', role: 'super_admin', mustChangePassword: false, totpBound: true },
    };
    const origin = { ip: '127.0.0.1', userAgent: null, requestId: 'test' };
    await expect(t.services.adminOperators.setDisabled(stale, survivor.id, true, origin)).rejects.toMatchObject({
      messageKey: 'operators.last_super_admin',
    });
    await expect(t.services.adminOperators.setRole(stale, survivor.id, 'support', origin)).rejects.toMatchObject({
      messageKey: 'operators.last_super_admin',
    });
    // Other changes by a demoted actor are refused as well.
    await expect(
      t.services.adminOperators.create(stale, { username: 'mallory', role: 'super_admin' }, origin),
    ).rejects.toMatchObject({
      messageKey: 'forbidden',
    });
    expect((await list(survivorToken)).filter((item) => item.role === 'super_admin' && !item.disabled)).toHaveLength(1);
  });
});
