import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { codeIn, startMailCatcher } from './support/mail-catcher.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
let catcher: Awaited<ReturnType<typeof startMailCatcher>>;
let rootCode: string;
let ipCounter = 0;

beforeAll(async () => {
  catcher = await startMailCatcher();
  t = await createTestApp({ SMTP_URL: catcher.url });
  rootCode = (await t.services.settings.get('registration')).rootInviteCode;
});
afterAll(async () => {
  await t.close();
  await catcher.close();
});

/** Each call from its own address unless told, so per-address limits do not couple the tests. */
function post(url: string, payload: object, options: { token?: string; lang?: string; ip?: string } = {}) {
  ipCounter += 1;
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: options.ip ?? `10.1.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`,
    headers: { lang: options.lang ?? 'EN', ...(options.token ? { authorization: options.token } : {}) },
  });
}

function get(url: string, token: string, lang = 'EN') {
  return t.app.inject({ method: 'GET', url, headers: { authorization: token, lang } });
}

async function register(email: string, invitationCode = rootCode, password = 'secret-123'): Promise<string> {
  const before = catcher.mails.filter((mail) => mail.to.includes(email)).length;
  expect((await post('/api/auth/send_register_code', { email, invitationCode })).json()).toMatchObject({
    code: 200,
    data: { resendAfterS: 60 },
  });
  const code = codeIn(await catcher.waitFor(email, before + 1));
  const response = await post('/api/auth/register', { email, code, invitationCode, password, confirmPassword: password });
  expect(response.json()).toMatchObject({ code: 200 });
  return response.json<{ data: { token: string } }>().data.token;
}

async function expireCodeWindow(email: string) {
  await t.testDatabase.database.db.execute(
    sql`update verification_codes set created_at = created_at - interval '61 seconds' where email = ${email}`,
  );
}

describe('registration', () => {
  it('sends a 6-digit code by SMTP in the member language, checks it, and registers under the platform root', async () => {
    const email = 'first@example.com';
    const sent = await post(
      '/api/auth/send_register_code',
      { email: 'First@Example.com', invitationCode: rootCode.toLowerCase() },
      { lang: 'CN' },
    );
    expect(sent.json()).toEqual({ code: 200, message: '成功', data: { resendAfterS: 60 } });
    const mail = await catcher.waitFor(email);
    expect(mail.subject).toMatch(/^Custos 注册验证码：\d{6}$/);
    expect(mail.text).toContain(codeIn(mail));
    const code = codeIn(mail);

    const wrong = await post('/api/auth/check_register_info', { email, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.json()).toEqual({ code: 400, message: 'The verification code is wrong or has expired', data: null });
    expect((await post('/api/auth/check_register_info', { email, code })).json()).toMatchObject({ code: 200 });

    const mismatch = await post('/api/auth/register', {
      email,
      code,
      invitationCode: rootCode,
      password: 'secret-123',
      confirmPassword: 'secret-124',
    });
    expect(mismatch.json()).toEqual({ code: 400, message: 'confirm password: the two passwords do not match', data: null });

    const registered = await post('/api/auth/register', {
      email,
      code,
      invitationCode: rootCode,
      password: 'secret-123',
      confirmPassword: 'secret-123',
    });
    const token = registered.json<{ data: { token: string } }>().data.token;
    const info = (await get('/api/user/info', token)).json<{ data: Record<string, unknown> }>().data;
    expect(info).toMatchObject({ email, accountKind: 'main', hasTradePassword: false });
    expect(info.inviteCode).toMatch(/^[A-Z2-9]{8}$/);
    // The default nickname is "Member" in the registration's language and a random tag: nothing of
    // the e-mail (an upline sees it in the members list) and not the invitation code.
    expect(info.nickname).toMatch(/^Member [A-Z2-9]{6}$/);
    expect(info.nickname).not.toContain(String(info.inviteCode).slice(0, 6));

    const again = await post('/api/auth/register', {
      email,
      code,
      invitationCode: rootCode,
      password: 'secret-123',
      confirmPassword: 'secret-123',
    });
    expect(again.json()).toMatchObject({ code: 400, message: 'The verification code is wrong or has expired' });
  });

  it('places a member invited by another under the inviter', async () => {
    const inviterToken = await register('inviter@example.com');
    const inviterInfo = (await get('/api/user/info', inviterToken)).json<{ data: { accountId: string; inviteCode: string } }>()
      .data;
    await register('invitee@example.com', inviterInfo.inviteCode);
    const rows = await queryRows<{ inviter_account_id: string | null }>(
      t.testDatabase.database.db,
      sql`select a.inviter_account_id from accounts a join members m on m.id = a.member_id where m.email = 'invitee@example.com'`,
    );
    expect(rows[0]!.inviter_account_id).toBe(inviterInfo.accountId);
  });

  it('refuses an unknown invitation code, and sends no mail', async () => {
    const response = await post('/api/auth/send_register_code', { email: 'nobody@example.com', invitationCode: 'ZZZZZZZZ' });
    expect(response.json()).toEqual({ code: 400, message: 'This invitation code does not exist', data: null });
    // A mail is written to the outbox before the request is answered, and flush() waits for every
    // delivery under way: nothing in either means nothing was or will be sent.
    await t.services.mail.flush();
    const outboxRows = await queryRows<{ n: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as n from mail_outbox where recipient = 'nobody@example.com'`,
    );
    expect(outboxRows[0]!.n).toBe(0);
    expect(catcher.mails.some((mail) => mail.to.includes('nobody@example.com'))).toBe(false);
  });

  it('does not send a second code within 60 s', async () => {
    const email = 'hasty@example.com';
    await post('/api/auth/send_register_code', { email, invitationCode: rootCode });
    const second = await post('/api/auth/send_register_code', { email, invitationCode: rootCode });
    expect(second.statusCode).toBe(429);
    expect(second.json<{ code: number; message: string }>()).toMatchObject({ code: 429 });
    expect(second.json<{ message: string }>().message).toMatch(/^Please wait (60|59) s before requesting another code$/);
  });

  it('answers a registered address exactly like a new one and mails it a notice without a code', async () => {
    await register('taken@example.com');
    await expireCodeWindow('taken@example.com');
    const response = await post('/api/auth/send_register_code', { email: 'taken@example.com', invitationCode: rootCode });
    expect(response.json()).toEqual({ code: 200, message: 'Success', data: { resendAfterS: 60 } });
    const notice = await catcher.waitFor('taken@example.com', 2);
    expect(notice.subject).toBe('You already have a Custos account');
    expect(notice.text).not.toMatch(/\d{6}/);
  });

  it('names missing fields in the caller language', async () => {
    expect((await post('/api/auth/register', {}, { lang: 'EN' })).json()).toEqual({
      code: 400,
      message: 'please enter e-mail',
      data: null,
    });
    expect((await post('/api/auth/register', {}, { lang: 'CN' })).json()).toEqual({
      code: 400,
      message: '请输入邮箱',
      data: null,
    });
    expect((await post('/api/auth/send_register_code', { email: 'not-an-email', invitationCode: rootCode })).json()).toEqual({
      code: 400,
      message: 'e-mail: please enter a valid e-mail address',
      data: null,
    });
  });
});

describe('verification codes', () => {
  it('lock after 5 wrong tries, even for the right code', async () => {
    const email = 'guesser@example.com';
    await post('/api/auth/send_register_code', { email, invitationCode: rootCode });
    const code = codeIn(await catcher.waitFor(email));
    const wrong = code === '123456' ? '654321' : '123456';
    for (let attempt = 1; attempt <= 5; attempt += 1) await post('/api/auth/check_register_info', { email, code: wrong });
    const locked = await post('/api/auth/check_register_info', { email, code });
    expect(locked.json()).toEqual({ code: 400, message: 'Too many wrong codes; please request a new one', data: null });
  });

  it('expire after 10 minutes', async () => {
    const email = 'late@example.com';
    await post('/api/auth/send_register_code', { email, invitationCode: rootCode });
    const code = codeIn(await catcher.waitFor(email));
    await t.testDatabase.database.db.execute(
      sql`update verification_codes set expires_at = now() - interval '1 second' where email = ${email}`,
    );
    expect((await post('/api/auth/check_register_info', { email, code })).json()).toMatchObject({
      code: 400,
      message: 'The verification code is wrong or has expired',
    });
  });

  it('are stored only as hashes', async () => {
    const rows = await queryRows<{ code_hash: string }>(
      t.testDatabase.database.db,
      sql`select code_hash from verification_codes`,
    );
    for (const row of rows) expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('log-in', () => {
  it('with the password; a wrong password and an unknown e-mail get the same answer', async () => {
    await register('login@example.com', rootCode, 'right-password');
    const ok = await post('/api/auth/login', { email: 'login@example.com', password: 'right-password' });
    expect(ok.json()).toMatchObject({ code: 200, data: { token: expect.any(String) as string } });
    const wrong = await post('/api/auth/login', { email: 'login@example.com', password: 'wrong-password' });
    const unknown = await post('/api/auth/login', { email: 'ghost@example.com', password: 'wrong-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 400, message: 'Wrong e-mail or password', data: null });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('pauses the e-mail at one address after 5 wrong passwords from it (429 with the wait); other addresses still log in', async () => {
    await register('locked@example.com', rootCode, 'right-password');
    const ip = '10.201.0.1';
    for (let attempt = 0; attempt < 5; attempt += 1)
      await post('/api/auth/login', { email: 'locked@example.com', password: 'nope' }, { ip });
    const locked = await post('/api/auth/login', { email: 'locked@example.com', password: 'right-password' }, { ip });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toMatch(/^\d+$/);
    const elsewhere = await post('/api/auth/login', { email: 'locked@example.com', password: 'right-password' });
    expect(elsewhere.json()).toMatchObject({ code: 200 });
  });

  it('with an e-mail code; unknown addresses get the same answer and no mail; a code works once', async () => {
    await register('coder@example.com');
    const before = catcher.mails.length;
    const unknown = await post('/api/auth/send_login_code', { email: 'stranger@example.com' });
    expect(unknown.json()).toEqual({ code: 200, message: 'Success', data: { resendAfterS: 60 } });
    expect((await post('/api/auth/send_login_code', { email: 'coder@example.com' })).json()).toEqual(unknown.json());
    const code = codeIn(await catcher.waitFor('coder@example.com', 2));
    expect(catcher.mails.slice(before).every((mail) => !mail.to.includes('stranger@example.com'))).toBe(true);
    const first = await post('/api/auth/login_by_code', { email: 'coder@example.com', code });
    expect(first.json()).toMatchObject({ code: 200 });
    const replay = await post('/api/auth/login_by_code', { email: 'coder@example.com', code });
    expect(replay.json()).toMatchObject({ code: 400, message: 'The verification code is wrong or has expired' });
  });

  it('refuses a frozen member, and a frozen member’s sessions stop working', async () => {
    const token = await register('frozen@example.com', rootCode, 'right-password');
    await t.testDatabase.database.db.execute(sql`update members set status = 'frozen' where email = 'frozen@example.com'`);
    const call = await get('/api/user/info', token);
    expect(call.statusCode).toBe(401);
    expect(call.json()).toMatchObject({ code: 401, message: 'This account is frozen; please contact customer service' });
    expect((await post('/api/auth/login', { email: 'frozen@example.com', password: 'right-password' })).json()).toMatchObject({
      code: 403,
    });
  });
});

describe('forgotten password', () => {
  it('resets by e-mail code and ends every session', async () => {
    const email = 'forgetful@example.com';
    const oldToken = await register(email, rootCode, 'old-password');
    expect((await post('/api/auth/send_forgot_code', { email })).json()).toMatchObject({ code: 200 });
    const mail = await catcher.waitFor(email, 2);
    expect(mail.subject).toMatch(/^Custos password reset code: \d{6}$/);
    const code = codeIn(mail);
    expect((await post('/api/auth/check_forgot_code', { email, code })).json()).toMatchObject({ code: 200 });
    expect(
      (await post('/api/auth/reset_password', { email, code, password: 'new-password', confirmPassword: 'new-password' })).json(),
    ).toMatchObject({ code: 200 });
    expect((await get('/api/user/info', oldToken)).statusCode).toBe(401);
    expect((await post('/api/auth/login', { email, password: 'old-password' })).statusCode).toBe(400);
    expect((await post('/api/auth/login', { email, password: 'new-password' })).json()).toMatchObject({ code: 200 });
  });
});

describe('sessions', () => {
  it('are opaque 256-bit tokens stored hashed, listed per member, and end at log-out or by "sign out others"', async () => {
    const first = await register('multi@example.com', rootCode, 'right-password');
    const second = (await post('/api/auth/login', { email: 'multi@example.com', password: 'right-password' })).json<{
      data: { token: string };
    }>().data.token;
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await queryRows<{ token_hash: string }>(
      t.testDatabase.database.db,
      sql`select token_hash from member_sessions`,
    );
    expect(stored.map((row) => row.token_hash)).not.toContain(first);

    const list = (await get('/api/user/sessions', second)).json<{ data: { current: boolean }[] }>().data;
    expect(list).toHaveLength(2);
    expect(list.filter((session) => session.current)).toHaveLength(1);

    expect((await post('/api/user/sessions/sign_out_others', {}, { token: second })).json()).toMatchObject({
      code: 200,
      data: { ended: 1 },
    });
    expect((await get('/api/user/info', first)).statusCode).toBe(401);
    expect((await post('/api/user/logout', {}, { token: second })).json()).toMatchObject({ code: 200 });
    expect((await get('/api/user/info', second)).json()).toMatchObject({ code: 401 });
  });

  it('member A cannot see or end member B’s sessions', async () => {
    const a = await register('member-a@example.com');
    const b = await register('member-b@example.com');
    const aSessions = (await get('/api/user/sessions', a)).json<{ data: { id: string }[] }>().data;
    const bSessions = (await get('/api/user/sessions', b)).json<{ data: { id: string }[] }>().data;
    expect(aSessions.map((session) => session.id)).not.toEqual(expect.arrayContaining(bSessions.map((session) => session.id)));
    await post('/api/user/sessions/sign_out_others', {}, { token: a });
    expect((await get('/api/user/info', b)).json()).toMatchObject({ code: 200, data: { email: 'member-b@example.com' } });
  });

  it('end when idle past their expiry', async () => {
    const token = await register('idle@example.com');
    await t.testDatabase.database.db.execute(
      sql`update member_sessions set idle_expires_at = now() - interval '1 second' where member_id = (select id from members where email = 'idle@example.com')`,
    );
    expect((await get('/api/user/info', token)).statusCode).toBe(401);
  });
});

describe('code 300', () => {
  it('answers 300 to every call after an operator reset, until a new password is set', async () => {
    const token = await register('reset-by-operator@example.com', rootCode, 'old-password');
    await t.testDatabase.database.db.execute(
      sql`update members set must_reset_password = true where email = 'reset-by-operator@example.com'`,
    );
    const blocked = await get('/api/user/info', token);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ code: 300, message: 'Please set a new login password', data: null });
    const short = await post('/api/user/update_password_forced', { password: '123', confirmPassword: '123' }, { token });
    expect(short.json()).toMatchObject({ code: 400, message: 'password: at least 6 characters' });
    expect(
      (
        await post(
          '/api/user/update_password_forced',
          { password: 'fresh-password', confirmPassword: 'fresh-password' },
          { token },
        )
      ).json(),
    ).toMatchObject({ code: 200 });
    expect((await get('/api/user/info', token)).json()).toMatchObject({ code: 200 });
    expect(
      (await post('/api/auth/login', { email: 'reset-by-operator@example.com', password: 'fresh-password' })).json(),
    ).toMatchObject({ code: 200 });
  });
});
