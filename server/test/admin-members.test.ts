import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { loginMember, operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
let admin: string;
let reviewer: string;
let inviterId: string;
let inviteeId: string;

function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
}

async function memberIdOf(email: string): Promise<string> {
  const rows = await queryRows<{ id: string }>(t.testDatabase.database.db, sql`select id from members where email = ${email}`);
  return rows[0]!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await operatorToken(t, 'root', 'super_admin');
  reviewer = await operatorToken(t, 'kyc', 'reviewer');
  const inviterToken = await registerMember(t, 'boss@example.com');
  const inviteCode = (
    await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: inviterToken } })
  ).json<{ data: { inviteCode: string } }>().data.inviteCode;
  await registerMember(t, 'worker@example.com', 'member-password', inviteCode);
  inviterId = await memberIdOf('boss@example.com');
  inviteeId = await memberIdOf('worker@example.com');
});
afterAll(async () => {
  await t.close();
});

async function auditRows(action: string) {
  return queryRows<{ operator_id: string; target_id: string; before: unknown; after: unknown }>(
    t.testDatabase.database.db,
    sql`select operator_id, target_id, before, after from audit_log where action = ${action} order by created_at`,
  );
}

describe('console: members', () => {
  it('lists and searches members with their inviter', async () => {
    const all = (await call('GET', '/api/admin/members?page=1&pageSize=1', admin)).json<{
      data: { items: { email: string }[]; total: number };
    }>().data;
    expect(all.total).toBe(2);
    expect(all.items).toHaveLength(1);
    const found = (await call('GET', '/api/admin/members?query=work', admin)).json<{
      data: { items: { email: string; inviterEmail: string | null }[] };
    }>().data;
    expect(found.items).toEqual([expect.objectContaining({ email: 'worker@example.com', inviterEmail: 'boss@example.com' })]);
    const none = (await call('GET', '/api/admin/members?query=%25', admin)).json<{ data: { total: number } }>().data;
    expect(none.total).toBe(0);
  });

  it('shows a member in detail with accounts, invitees and sessions', async () => {
    const detail = (await call('GET', `/api/admin/members/${inviterId}`, admin)).json<{ data: Record<string, unknown> }>().data;
    expect(detail).toMatchObject({ email: 'boss@example.com', directInvitees: 1, inviterEmail: null, status: 'active' });
    expect(detail.accounts).toEqual([expect.objectContaining({ kind: 'main' })]);
    expect(detail.sessions).toHaveLength(1);
    expect((await call('GET', '/api/admin/members/00000000-0000-4000-8000-000000000000', admin)).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/members/not-a-uuid', admin)).statusCode).toBe(400);
  });

  it('freezes: sessions end, log-in is refused, the audit log has before and after; unfreezing restores log-in', async () => {
    const token = (await loginMember(t, 'worker@example.com', 'member-password')).json<{ data: { token: string } }>().data.token;
    expect((await call('POST', `/api/admin/members/${inviteeId}/freeze`, admin, {})).json()).toEqual({
      code: 400,
      message: 'please enter reason',
      data: null,
    });
    expect(
      (await call('POST', `/api/admin/members/${inviteeId}/freeze`, admin, { reason: 'suspicious withdrawals' })).json(),
    ).toMatchObject({ code: 200 });
    expect((await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: token } })).statusCode).toBe(
      401,
    );
    expect((await loginMember(t, 'worker@example.com', 'member-password')).json()).toMatchObject({ code: 403 });
    expect((await call('POST', `/api/admin/members/${inviteeId}/freeze`, admin, { reason: 'again' })).json()).toMatchObject({
      code: 409,
    });
    const [entry] = await auditRows('member.freeze');
    expect(entry).toMatchObject({
      target_id: inviteeId,
      before: { status: 'active' },
      after: { status: 'frozen', reason: 'suspicious withdrawals', endedSessions: 2 },
    });

    expect((await call('POST', `/api/admin/members/${inviteeId}/unfreeze`, admin, { reason: 'cleared' })).json()).toMatchObject({
      code: 200,
    });
    expect((await loginMember(t, 'worker@example.com', 'member-password')).json()).toMatchObject({ code: 200 });
    expect(await auditRows('member.unfreeze')).toHaveLength(1);
  });

  it('resets a password: the member logs in with the temporary one and gets 300 until choosing a new one', async () => {
    const before = (await loginMember(t, 'boss@example.com', 'member-password')).json<{ data: { token: string } }>().data.token;
    const reset = (await call('POST', `/api/admin/members/${inviterId}/reset_password`, admin)).json<{
      data: { temporaryPassword: string };
    }>().data;
    expect(reset.temporaryPassword).toMatch(/^[A-Za-z2-9]{12}$/);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: before } })).statusCode).toBe(
      401,
    );
    expect((await loginMember(t, 'boss@example.com', 'member-password')).statusCode).toBe(400);
    const token = (await loginMember(t, 'boss@example.com', reset.temporaryPassword)).json<{ data: { token: string } }>().data
      .token;
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: token } })).json(),
    ).toMatchObject({ code: 300 });
    const [entry] = await auditRows('member.reset_password');
    expect(JSON.stringify(entry)).not.toContain(reset.temporaryPassword);
  });

  it('lets each role do only what it may', async () => {
    expect((await call('GET', '/api/admin/members', reviewer)).json()).toMatchObject({ code: 200 });
    expect((await call('POST', `/api/admin/members/${inviteeId}/freeze`, reviewer, { reason: 'x' })).json()).toMatchObject({
      code: 403,
    });
    expect((await call('POST', `/api/admin/members/${inviteeId}/reset_password`, reviewer)).json()).toMatchObject({ code: 403 });
    expect((await call('GET', '/api/admin/mail', reviewer)).json()).toMatchObject({ code: 403 });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/members' })).statusCode).toBe(401);
  });

  it('refuses member tokens on console calls and operator tokens on member calls', async () => {
    const memberToken = (await loginMember(t, 'worker@example.com', 'member-password')).json<{ data: { token: string } }>().data
      .token;
    expect((await call('GET', '/api/admin/members', memberToken)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: admin } })).statusCode).toBe(
      401,
    );
  });
});

describe('console: mail outbox', () => {
  it('shows every mail, filtered by recipient', async () => {
    const all = (await call('GET', '/api/admin/mail', admin)).json<{
      data: { items: { recipient: string; status: string }[]; total: number };
    }>().data;
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(all.items.every((mail) => mail.status === 'logged')).toBe(true);
    const filtered = (await call('GET', '/api/admin/mail?recipient=Boss@Example.com', admin)).json<{
      data: { items: { recipient: string; subject: string }[] };
    }>().data;
    expect(filtered.items.length).toBeGreaterThan(0);
    expect(filtered.items.every((mail) => mail.recipient === 'boss@example.com')).toBe(true);
    expect(filtered.items[0]!.subject).toContain('••••••');
    expect(filtered.items[0]!.subject).not.toMatch(/\d{6}/);
  });
});

describe('console: audit log', () => {
  it('shows operator actions newest first, filtered by action or target, to super admins only', async () => {
    const all = (await call('GET', '/api/admin/audit?pageSize=100', admin)).json<{
      data: { items: { action: string; operator: string | null }[]; total: number };
    }>().data;
    expect(all.total).toBeGreaterThanOrEqual(5);
    expect(all.items.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['member.freeze', 'member.unfreeze', 'member.reset_password', 'operator.login']),
    );
    const freezes = (await call('GET', '/api/admin/audit?action=member.freeze', admin)).json<{
      data: { items: { operator: string; targetId: string; before: unknown; after: unknown }[] };
    }>().data;
    expect(freezes.items).toEqual([
      expect.objectContaining({ operator: 'root', targetId: inviteeId, before: { status: 'active' } }),
    ]);
    const forMember = (await call('GET', `/api/admin/audit?targetId=${inviterId}`, admin)).json<{
      data: { items: { action: string }[] };
    }>().data;
    expect(forMember.items.map((entry) => entry.action)).toEqual(['member.reset_password']);
    expect((await call('GET', '/api/admin/audit', reviewer)).json()).toMatchObject({ code: 403 });
  });
});
