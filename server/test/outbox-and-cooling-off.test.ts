import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WithdrawIndex, WithdrawMethod, WithdrawSettings } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { newTotpSecret } from '../src/lib/totp.js';
import { trackBalances, type BalanceTracker } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { createOperator, latestCodeFor, loginOperator, operatorCode, operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Issue 20 A2 (docs/decisions/016): a support operator must not be able to take a member over. The
 * outbox never shows a usable code and every read of it is audited; after a factor of a withdrawal
 * is reset without proof of the old one, withdrawals wait the cooling-off period (injected clock).
 */

// Thursday 2026-11-19, 10:00 in Shanghai: inside the default window, and so is the next day.
const THURSDAY_MORNING = new Date('2026-11-19T02:00:00Z');
const HOUR_MS = 3_600_000;
let now = THURSDAY_MORNING;
const clock = { now: () => now };

let t: TestApp;
let support: string;
let supportId: string;
let finance: string;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, as: string, payload?: object, lang = 'EN') {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

async function auditOf(action: string) {
  return queryRows<{ operator_id: string | null; target_id: string | null; before: unknown; after: unknown; ip: string | null }>(
    t.testDatabase.database.db,
    sql`select operator_id, target_id, before, after, ip from audit_log where action = ${action} order by created_at, id`,
  );
}

/**
 * A member with a trading password, 1000 USDT, a saved BEP20 address, ready to withdraw, and a
 * balance tracker started after the funding.
 */
async function readyMember(
  email: string,
): Promise<{ token: string; id: string; method: WithdrawMethod; balances: BalanceTracker }> {
  const token = await registerMember(t, email);
  await setTradePassword(t, token);
  const accountId = await accountIdOf(t, token);
  await fund(t, accountId, 'USDT', '1000');
  const method = await call<WithdrawMethod>('POST', '/api/withdraw/add_chain', token, {
    network: 'BEP20',
    address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
  });
  expect(method.body.code).toBe(200);
  const [row] = await queryRows<{ id: string }>(t.testDatabase.database.db, sql`select id from members where email = ${email}`);
  return { token, id: row!.id, method: method.body.data, balances: await trackBalances(t, { member: accountId }) };
}

/** What an accepted 100 request changes: held, nothing reaching a platform account. */
const HELD = { 'member:USDT:available': '-100.0000', 'member:USDT:held': '100.0000' };

function withdraw(member: { token: string; method: WithdrawMethod }, lang = 'EN') {
  return call<{ status: string }>(
    'POST',
    '/api/withdraw/withdraw',
    member.token,
    { methodId: member.method.id, amount: '100', tradePassword: 'trade-pass-1', idempotencyKey: randomUUID() },
    lang,
  );
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  const created = await createOperator(t, 'outbox-support', 'support');
  supportId = created.id;
  const login = await loginOperator(t, 'outbox-support', created.password, operatorCode(t, created.secret));
  support = login.json<{ data: { token: string } }>().data.token;
  finance = await operatorToken(t, 'outbox-finance', 'finance');
}, 180_000);
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  now = THURSDAY_MORNING;
});

describe('the mail outbox', () => {
  it('never shows a usable code: the member gets it, the outbox and its table hold it masked', async () => {
    const email = 'outbox-member@example.com';
    await registerMember(t, email);
    const sent = await t.app.inject({ method: 'POST', url: '/api/auth/send_login_code', payload: { email } });
    expect(sent.json()).toMatchObject({ code: 200 });
    const code = await latestCodeFor(t, email);

    const outbox = await call<{ items: { id: string; subject: string; body: string; template: string }[] }>(
      'GET',
      `/api/admin/mail?recipient=${email}`,
      support,
    );
    expect(outbox.body.code).toBe(200);
    const mails = outbox.body.data.items;
    expect(mails.map((mail) => mail.template).sort()).toEqual(['login_code', 'register_code']);
    for (const mail of mails) {
      expect(mail.subject).toContain('••••••');
      expect(mail.body).toContain('••••••');
      expect(`${mail.subject}\n${mail.body}`).not.toMatch(/\d{6}/);
    }
    const rows = await queryRows<{ subject: string; body: string; pending_delivery: unknown }>(
      t.testDatabase.database.db,
      sql`select subject, body, pending_delivery from mail_outbox where recipient = ${email}`,
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(`${row.subject}\n${row.body}`).not.toContain(code);
      expect(row.pending_delivery).toBeNull();
    }

    // The code the outbox hides still logs the member in: it reached them by mail only.
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login_by_code', payload: { email, code } });
    expect(login.json()).toMatchObject({ code: 200 });
  });

  it('gives up a code mail that could not be delivered before its code expired, and erases its clear copy', async () => {
    const id = await t.services.mail.send('undelivered@example.com', 'login_code', 'en', { code: '424242' });
    await t.services.mail.flush();
    // As if the relay had refused it and ten minutes had passed.
    await t.testDatabase.database.db.execute(
      sql`update mail_outbox set status = 'pending', pending_delivery = ${JSON.stringify({ subject: 'code 424242', text: 'code 424242' })}::jsonb,
            created_at = now() - interval '11 minutes' where id = ${id}`,
    );
    const delivered = t.mailbox.length;
    await t.services.mail.retryPending();
    const [row] = await queryRows<{ status: string; pending_delivery: unknown; last_error: string }>(
      t.testDatabase.database.db,
      sql`select status, pending_delivery, last_error from mail_outbox where id = ${id}`,
    );
    expect(row).toMatchObject({ status: 'failed', pending_delivery: null, last_error: 'not delivered before its code expired' });
    expect(t.mailbox).toHaveLength(delivered);
  });

  it('is read at most 50 mails a page, by support and super admins only', async () => {
    expect((await call('GET', '/api/admin/mail?pageSize=51', support)).body.code).toBe(400);
    expect((await call('GET', '/api/admin/mail?pageSize=50', support)).body.code).toBe(200);
    expect((await call('GET', '/api/admin/mail', finance)).body.code).toBe(403);
  });

  it('audits every read: who, which filter and page, and which mails were shown', async () => {
    const email = 'outbox-member@example.com';
    const before = (await auditOf('mail.outbox_read')).length;
    const shown = await call<{ items: { id: string }[]; total: number }>(
      'GET',
      `/api/admin/mail?recipient=${email}&pageSize=1`,
      support,
    );
    const reads = await auditOf('mail.outbox_read');
    expect(reads).toHaveLength(before + 1);
    expect(reads.at(-1)).toMatchObject({
      operator_id: supportId,
      target_id: email,
      after: { recipient: email, page: 1, pageSize: 1, total: 2, mailIds: [shown.body.data.items[0]!.id] },
    });
    expect(reads.at(-1)!.ip).toBeTruthy();
  });
});

describe('withdrawals after a security reset', () => {
  it('wait 24 hours after support resets the authenticator, told in the member’s language; then go through', async () => {
    const member = await readyMember('cool-authenticator@example.com');
    expect((await withdraw(member)).body.data.status).toBe('pending');
    await member.balances.expectChanges(HELD);
    await t.testDatabase.database.db.execute(sql`update members set totp_secret = ${newTotpSecret()} where id = ${member.id}`);

    const reset = await call('POST', `/api/admin/members/${member.id}/reset_authenticator`, support);
    expect(reset.body.code).toBe(200);
    const [audit] = (await auditOf('member.reset_authenticator')).filter((entry) => entry.target_id === member.id);
    expect(audit).toMatchObject({ operator_id: supportId, after: { authenticator: 'none', withdrawalsCoolOff: true } });

    now = new Date(THURSDAY_MORNING.getTime() + 24 * HOUR_MS - 60_000);
    const refused = await withdraw(member);
    expect(refused.body).toEqual({
      code: 409,
      message:
        'For your safety, withdrawals are paused for 24 hours after your password, authenticator or trading password was reset. You can withdraw again from 2026-11-20 10:00 (Asia/Shanghai).',
      data: null,
    });
    expect((await withdraw(member, 'JP')).body.message).toBe(
      '安全のため、パスワード・認証アプリ・取引パスワードのリセット後 24 時間は出金できません。2026-11-20 10:00（Asia/Shanghai）から再び出金できます。',
    );
    const index = await call<WithdrawIndex>('GET', '/api/withdraw/index', member.token);
    expect(index.body.data.coolingOffUntil).toBe('2026-11-20T02:00:00.000Z');
    await member.balances.expectChanges({});

    now = new Date(THURSDAY_MORNING.getTime() + 24 * HOUR_MS);
    expect((await withdraw(member)).body.data.status).toBe('pending');
    await member.balances.expectChanges(HELD);
    expect((await call<WithdrawIndex>('GET', '/api/withdraw/index', member.token)).body.data.coolingOffUntil).toBeNull();
  });

  it('wait after support resets the login password (the operator saw the temporary one)', async () => {
    const member = await readyMember('cool-password@example.com');
    const reset = await call<{ temporaryPassword: string }>('POST', `/api/admin/members/${member.id}/reset_password`, support);
    expect(reset.body.code).toBe(200);
    const [row] = await queryRows<{ security_reset_at: Date | string }>(
      t.testDatabase.database.db,
      sql`select security_reset_at from members where id = ${member.id}`,
    );
    expect(new Date(row!.security_reset_at).toISOString()).toBe(THURSDAY_MORNING.toISOString());
  });

  it('wait after the member resets the trading password by e-mail code, not after changing it with the old one', async () => {
    const member = await readyMember('cool-trade@example.com');
    const changed = await call('POST', '/api/user/update_trade_password', member.token, {
      oldTradePassword: 'trade-pass-1',
      password: 'trade-pass-2',
      confirmPassword: 'trade-pass-2',
    });
    expect(changed.body.code).toBe(200);
    // Changing it with the old one proves the member knows it: no wait.
    expect((await call<WithdrawIndex>('GET', '/api/withdraw/index', member.token)).body.data.coolingOffUntil).toBeNull();
    await call('POST', '/api/user/send_trade_password_code', member.token);
    const code = await latestCodeFor(t, 'cool-trade@example.com');
    const reset = await call('POST', '/api/user/reset_trade_password', member.token, {
      code,
      password: 'trade-pass-1',
      confirmPassword: 'trade-pass-1',
    });
    expect(reset.body.code).toBe(200);
    const refused = (await withdraw(member)).body;
    expect(refused.code).toBe(409);
    expect(refused.message).toContain('paused for 24 hours');
    await member.balances.expectChanges({});
    now = new Date(THURSDAY_MORNING.getTime() + 25 * HOUR_MS);
    expect((await withdraw(member)).body.data.status).toBe('pending');
    await member.balances.expectChanges(HELD);
  });

  it('follow the operator’s setting, whose changes are audited; 0 turns the wait off', async () => {
    const member = await readyMember('cool-setting@example.com');
    await t.testDatabase.database.db.execute(
      sql`update members set security_reset_at = ${THURSDAY_MORNING.toISOString()} where id = ${member.id}`,
    );
    const settings = (await call<WithdrawSettings>('GET', '/api/admin/withdraw/settings', finance)).body.data;
    expect(settings.securityCoolingOffHours).toBe(24);

    const longer = await call<WithdrawSettings>('PUT', '/api/admin/withdraw/settings', finance, {
      ...settings,
      securityCoolingOffHours: 48,
    });
    expect(longer.body.data.securityCoolingOffHours).toBe(48);
    const [audit] = (await auditOf('withdraw.settings_updated')).slice(-1);
    expect(audit).toMatchObject({ before: { securityCoolingOffHours: 24 }, after: { securityCoolingOffHours: 48 } });
    now = new Date(THURSDAY_MORNING.getTime() + 30 * HOUR_MS);
    const refused = (await withdraw(member)).body;
    expect(refused.code).toBe(409);
    expect(refused.message).toContain('paused for 48 hours');
    expect(
      (await call('PUT', '/api/admin/withdraw/settings', finance, { ...settings, securityCoolingOffHours: 721 })).body.code,
    ).toBe(400);
    await member.balances.expectChanges({});

    await call('PUT', '/api/admin/withdraw/settings', finance, { ...settings, securityCoolingOffHours: 0 });
    expect((await withdraw(member)).body.data.status).toBe('pending');
    await member.balances.expectChanges(HELD);
    await call('PUT', '/api/admin/withdraw/settings', finance, settings);
  });
});
