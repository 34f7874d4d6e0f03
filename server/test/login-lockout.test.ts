import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { MEMBER_LOGIN_PER_ACCOUNT, MEMBER_LOGIN_PER_EMAIL_AND_IP } from '../src/modules/auth/auth.service.js';
import { OPERATOR_LOGIN_PER_ACCOUNT } from '../src/modules/operators/operator.service.js';
import { createOperator, latestCodeFor, operatorCode } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

// Decision 015: only failures count, the pause is per account AND address, and the account-wide
// ceiling only spaces out unfamiliar addresses (an operator with a code is always checked).
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let t: TestApp;
let addressCounter = 0;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(async () => {
  await t.close();
});

function nextIp(): string {
  addressCounter += 1;
  return `10.66.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
}

function post(url: string, payload: object, ip: string, lang = 'EN') {
  return t.app.inject({ method: 'POST', url, payload, remoteAddress: ip, headers: { lang } });
}

function memberLogin(email: string, password: string, ip = nextIp()) {
  return post('/api/auth/login', { email, password }, ip);
}

function operatorLogin(username: string, password: string, ip = nextIp(), googleCode?: string) {
  return post('/api/admin/auth/login', { username, password, ...(googleCode === undefined ? {} : { googleCode }) }, ip);
}

/** Registers in `lang` from `ip` (which thereby becomes a familiar address of the member). */
async function register(email: string, password: string, ip: string, lang = 'EN'): Promise<void> {
  const invitationCode = (await t.services.settings.get('registration')).rootInviteCode;
  expect((await post('/api/auth/send_register_code', { email, invitationCode }, ip, lang)).json()).toMatchObject({ code: 200 });
  const code = await latestCodeFor(t, email);
  const registered = await post(
    '/api/auth/register',
    { email, code, invitationCode, password, confirmPassword: password },
    ip,
    lang,
  );
  expect(registered.json()).toMatchObject({ code: 200 });
}

/** Moves the account's last failure into the past, as if that many seconds had gone by. */
async function waitPassed(key: string, seconds: number): Promise<void> {
  await t.testDatabase.database.db.execute(
    sql`update account_login_guards set last_failure_at = last_failure_at - make_interval(secs => ${seconds}) where key = ${key}`,
  );
}

async function noticesTo(email: string): Promise<{ locale: string; body: string }[]> {
  await t.services.mail.flush();
  return queryRows<{ locale: string; body: string }>(
    t.testDatabase.database.db,
    sql`select locale, body from mail_outbox where recipient = ${email} and template = 'login_attempts_notice'`,
  );
}

function retryAfter(response: { headers: Record<string, unknown> }): number {
  return Number(response.headers['retry-after']);
}

describe('member log-in', () => {
  it('counts failures only: the right password again and again from one address is never refused', async () => {
    const email = 'steady@example.com';
    await register(email, 'right-password', nextIp());
    const ip = nextIp();
    for (let login = 0; login < 8; login += 1) {
      expect((await memberLogin(email, 'right-password', ip)).json()).toMatchObject({ code: 200 });
    }
  });

  it('a stranger’s failures from another address do not stop the owner', async () => {
    const email = 'owner@example.com';
    await register(email, 'right-password', nextIp());
    const stranger = nextIp();
    for (let attempt = 0; attempt < MEMBER_LOGIN_PER_EMAIL_AND_IP.maxAttempts; attempt += 1) {
      expect((await memberLogin(email, 'guess', stranger)).statusCode).toBe(400);
    }
    expect((await memberLogin(email, 'right-password', stranger)).statusCode).toBe(429);
    expect((await memberLogin(email, 'right-password')).json()).toMatchObject({ code: 200 });
  });

  it('parallel wrong passwords from one address: at most 5 are checked', async () => {
    const email = 'burst-login@example.com';
    await register(email, 'right-password', nextIp());
    const ip = nextIp();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => memberLogin(email, `guess-${index}`, ip)));
    const checked = answers.filter((answer) => answer.statusCode === 400);
    expect(checked.length).toBe(MEMBER_LOGIN_PER_EMAIL_AND_IP.maxAttempts);
    expect(answers.filter((answer) => answer.statusCode === 429).length).toBe(20 - MEMBER_LOGIN_PER_EMAIL_AND_IP.maxAttempts);
  });

  it('the ceiling over all addresses slows guessing with growing waits and mails the owner once, in their language; familiar addresses and, after the wait, the right password still get in', async () => {
    const email = 'guessed@example.com';
    const home = nextIp();
    await register(email, 'right-password', home, 'JP');
    const key = `${MEMBER_LOGIN_PER_ACCOUNT.name}:${email}`;
    for (let attempt = 0; attempt < MEMBER_LOGIN_PER_ACCOUNT.ceiling; attempt += 1) {
      expect((await memberLogin(email, `guess-${attempt}`)).statusCode).toBe(400);
    }
    // Past the ceiling an unfamiliar address waits, even with the right password…
    const slowed = await memberLogin(email, 'right-password');
    expect(slowed.statusCode).toBe(429);
    expect(retryAfter(slowed)).toBe(MEMBER_LOGIN_PER_ACCOUNT.firstDelayS);
    // …while the owner's own address is not slowed.
    expect((await memberLogin(email, 'right-password', home)).json()).toMatchObject({ code: 200 });

    // Each further failure doubles the wait.
    const waits: number[] = [];
    for (let step = 0; step < 3; step += 1) {
      await waitPassed(key, 10_000);
      expect((await memberLogin(email, 'another-guess')).statusCode).toBe(400);
      waits.push(retryAfter(await memberLogin(email, 'another-guess')));
    }
    expect(waits).toEqual([2, 4, 8].map((factor) => factor * MEMBER_LOGIN_PER_ACCOUNT.firstDelayS));

    // The wait never grows past 15 minutes, and once it has passed the right password works anywhere.
    await t.testDatabase.database.db.execute(sql`update account_login_guards set failures = 500 where key = ${key}`);
    expect(retryAfter(await memberLogin(email, 'right-password'))).toBeLessThanOrEqual(MEMBER_LOGIN_PER_ACCOUNT.maxDelayS);
    await waitPassed(key, MEMBER_LOGIN_PER_ACCOUNT.maxDelayS);
    expect((await memberLogin(email, 'right-password')).json()).toMatchObject({ code: 200 });

    const notices = await noticesTo(email);
    expect(notices.map((notice) => notice.locale)).toEqual(['ja']);
    expect(notices[0]!.body).toContain(String(MEMBER_LOGIN_PER_ACCOUNT.ceiling));
  });

  it('a password reset lifts the ceiling for the new password', async () => {
    const email = 'resetter@example.com';
    await register(email, 'right-password', nextIp());
    for (let attempt = 0; attempt < MEMBER_LOGIN_PER_ACCOUNT.ceiling; attempt += 1) await memberLogin(email, `guess-${attempt}`);
    expect((await memberLogin(email, 'right-password')).statusCode).toBe(429);
    const ip = nextIp();
    expect((await post('/api/auth/send_forgot_code', { email }, ip)).json()).toMatchObject({ code: 200 });
    const code = await latestCodeFor(t, email);
    const reset = await post(
      '/api/auth/reset_password',
      { email, code, password: 'new-password-1', confirmPassword: 'new-password-1' },
      ip,
    );
    expect(reset.json()).toMatchObject({ code: 200 });
    expect((await memberLogin(email, 'new-password-1')).json()).toMatchObject({ code: 200 });
  });
});

describe('operator log-in', () => {
  function nextStep() {
    nowMs += 30_000;
  }

  it('counts failures only: the right password and a fresh code again and again from one address', async () => {
    const { password, secret } = await createOperator(t, 'steady-op', 'finance');
    const ip = nextIp();
    for (let login = 0; login < 8; login += 1) {
      expect((await operatorLogin('steady-op', password, ip, operatorCode(t, secret))).json()).toMatchObject({ code: 200 });
      nextStep();
    }
  });

  it('a stranger’s failures from another address do not stop the operator', async () => {
    const { password, secret } = await createOperator(t, 'target-op', 'super_admin');
    const stranger = nextIp();
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await operatorLogin('target-op', 'guess', stranger)).statusCode).toBe(401);
    expect((await operatorLogin('target-op', 'guess', stranger)).statusCode).toBe(429);
    expect((await operatorLogin('target-op', password, nextIp(), operatorCode(t, secret))).json()).toMatchObject({ code: 200 });
    nextStep();
  });

  it('past the ceiling, guesses without a code wait, but the right password with a fresh code always gets in', async () => {
    const { password, secret } = await createOperator(t, 'besieged-op', 'super_admin');
    for (let attempt = 0; attempt < OPERATOR_LOGIN_PER_ACCOUNT.ceiling; attempt += 1) {
      expect((await operatorLogin('besieged-op', `guess-${attempt}`)).statusCode).toBe(401);
    }
    const gated = await operatorLogin('besieged-op', 'guess-more');
    expect(gated.statusCode).toBe(429);
    // Without a code, even the right password waits: its 4010 answer would tell a guesser it was right.
    expect((await operatorLogin('besieged-op', password)).statusCode).toBe(429);
    // A wrong password with a code is checked and answered like any other failure.
    const wrongWithCode = await operatorLogin('besieged-op', 'guess-more', nextIp(), operatorCode(t, secret));
    expect(wrongWithCode.json()).toMatchObject({ code: 401, message: 'Wrong username, password or authenticator code' });
    for (let login = 0; login < 3; login += 1) {
      expect((await operatorLogin('besieged-op', password, nextIp(), operatorCode(t, secret))).json()).toMatchObject({
        code: 200,
      });
      nextStep();
    }
  });
});
