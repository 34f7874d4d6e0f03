import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { AppError } from '../src/http/app-error.js';
import { base32Decode, hotp, newTotpSecret, totpStep } from '../src/lib/totp.js';
import { CODE_MAX_WRONG_ATTEMPTS } from '../src/modules/codes/verification-code.service.js';
import { TOTP_PER_MEMBER, TRADE_PASSWORD_PER_MEMBER } from '../src/modules/security/security.service.js';
import { setTradePassword } from './support/ledger.js';
import { latestCodeFor, registerMember } from './support/members.js';
import { createServices } from '../src/container.js';
import { createLogger } from '../src/lib/logger.js';
import { createTestApp, type TestApp } from './support/test-app.js';

// Every guess in a burst is sent at once. On PostgreSQL the requests really run side by side, which
// is what shows the race (before the fix, 50 wrong codes were all compared and the right one got in);
// PGlite runs one transaction at a time, so there the same tests only check the counting.
let t: TestApp;
let addressCounter = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function nextIp(): string {
  addressCounter += 1;
  return `10.77.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
}

type Envelope = { code: number; message: string; data: unknown };

function post(url: string, payload: object, options: { token?: string; ip?: string } = {}) {
  return t.app
    .inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: options.ip ?? nextIp(),
      headers: { lang: 'EN', ...(options.token ? { authorization: options.token } : {}) },
    })
    .then((response) => response.json<Envelope>());
}

/** The newest code as the member's inbox shows it (the outbox keeps codes masked). */
function newestCode(email: string): Promise<string> {
  return latestCodeFor(t, email);
}

async function codeAttempts(email: string, purpose: string): Promise<number> {
  const rows = await queryRows<{ attempts: number }>(
    t.testDatabase.database.db,
    sql`select attempts from verification_codes where email = ${email} and purpose = ${purpose} order by created_at desc limit 1`,
  );
  return Number(rows[0]!.attempts);
}

/** Lets the next code be sent at once (the resend countdown is 60 s). */
async function passResendCountdown(email: string): Promise<void> {
  await t.testDatabase.database.db.execute(
    sql`update verification_codes set created_at = created_at - interval '61 seconds' where email = ${email}`,
  );
}

/** A six-digit code that is not `right`. */
function wrongCode(right: string, index: number): string {
  const candidate = String((Number(right) + 1 + index) % 1_000_000).padStart(6, '0');
  return candidate === right ? '999999' : candidate;
}

async function memberId(email: string): Promise<string> {
  const rows = await queryRows<{ id: string }>(t.testDatabase.database.db, sql`select id from members where email = ${email}`);
  return rows[0]!.id;
}

async function bucketAttempts(key: string): Promise<number> {
  const rows = await queryRows<{ attempts: number }>(
    t.testDatabase.database.db,
    sql`select attempts from rate_limit_buckets where key = ${key}`,
  );
  return Number(rows[0]?.attempts ?? 0);
}

function outcomeOf(result: PromiseSettledResult<unknown>): string {
  if (result.status === 'fulfilled') return 'ok';
  const error: unknown = result.reason;
  return error instanceof AppError ? error.messageKey : `unexpected: ${String(error)}`;
}

describe('e-mail codes under a burst of parallel guesses (HTTP, many addresses)', () => {
  it('50 wrong log-in codes and the right one at once: at most 5 compared, and the right one is then refused', async () => {
    for (let round = 0; round < 3; round += 1) {
      const email = `burst-${round}@example.com`;
      await registerMember(t, email);
      expect((await post('/api/auth/send_login_code', { email })).code).toBe(200);
      const right = await newestCode(email);
      const burst = [
        ...Array.from({ length: 50 }, (_, index) => post('/api/auth/login_by_code', { email, code: wrongCode(right, index) })),
        post('/api/auth/login_by_code', { email, code: right }),
      ];
      const answers = await Promise.all(burst);
      const rightAnswer = answers[50]!;
      // Every try that reached the comparison is counted on the code first: never more than the limit.
      expect(await codeAttempts(email, 'login')).toBeLessThanOrEqual(CODE_MAX_WRONG_ATTEMPTS);
      const wrongAccepted = answers.slice(0, 50).filter((answer) => answer.code === 200);
      expect(wrongAccepted).toEqual([]);
      if (rightAnswer.code === 200) {
        // It got one of the 5 tries before the wrong ones used them up: a legitimate log-in.
        continue;
      }
      expect([400, 429]).toContain(rightAnswer.code);
      // Once the tries are used up, the right code no longer works.
      const after = await post('/api/auth/login_by_code', { email, code: right });
      expect(after).toMatchObject({ code: 400, message: 'Too many wrong codes; please request a new one' });
    }
  });

  it('registration and reset codes: 20 parallel wrong checks count at most 5 on the code', async () => {
    const email = 'reset-burst@example.com';
    await registerMember(t, email);
    expect((await post('/api/auth/send_forgot_code', { email })).code).toBe(200);
    const right = await newestCode(email);
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => post('/api/auth/check_forgot_code', { email, code: wrongCode(right, index) })),
    );
    expect(await codeAttempts(email, 'reset_password')).toBe(CODE_MAX_WRONG_ATTEMPTS);
    expect(
      await post('/api/auth/reset_password', { email, code: right, password: 'new-pass-123', confirmPassword: 'new-pass-123' }),
    ).toMatchObject({
      code: 400,
      message: 'Too many wrong codes; please request a new one',
    });

    const newcomer = 'register-burst@example.com';
    const invitationCode = (await t.services.settings.get('registration')).rootInviteCode;
    expect((await post('/api/auth/send_register_code', { email: newcomer, invitationCode })).code).toBe(200);
    const registerCode = await newestCode(newcomer);
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        post('/api/auth/check_register_info', { email: newcomer, code: wrongCode(registerCode, index) }),
      ),
    );
    expect(await codeAttempts(newcomer, 'register')).toBe(CODE_MAX_WRONG_ATTEMPTS);
  });

  it('a right code checked without being used keeps its tries (check, then register)', async () => {
    const email = 'check-then-register@example.com';
    const invitationCode = (await t.services.settings.get('registration')).rootInviteCode;
    expect((await post('/api/auth/send_register_code', { email, invitationCode })).code).toBe(200);
    const code = await newestCode(email);
    for (let check = 0; check < CODE_MAX_WRONG_ATTEMPTS + 1; check += 1) {
      expect((await post('/api/auth/check_register_info', { email, code })).code).toBe(200);
    }
    expect(await codeAttempts(email, 'register')).toBe(0);
    const registered = await post('/api/auth/register', {
      email,
      code,
      invitationCode,
      password: 'secret-123',
      confirmPassword: 'secret-123',
    });
    expect(registered.code).toBe(200);
  });

  it('per e-mail address: after 10 wrong codes in the hour (over any codes and addresses) even a new right code waits (429)', async () => {
    const email = 'per-address@example.com';
    await registerMember(t, email);
    for (let code = 0; code < 2; code += 1) {
      await passResendCountdown(email);
      expect((await post('/api/auth/send_login_code', { email })).code).toBe(200);
      const right = await newestCode(email);
      for (let guess = 0; guess < CODE_MAX_WRONG_ATTEMPTS; guess += 1) {
        expect((await post('/api/auth/login_by_code', { email, code: wrongCode(right, guess) })).code).toBe(400);
      }
    }
    await passResendCountdown(email);
    expect((await post('/api/auth/send_login_code', { email })).code).toBe(200);
    const fresh = await newestCode(email);
    const refused = await post('/api/auth/login_by_code', { email, code: fresh });
    expect(refused.code).toBe(429);
    expect(refused.message).toMatch(/^Too many attempts, please try again in \d+ s$/);
    // Another address's limit is its own.
    expect((await post('/api/auth/login_by_code', { email: 'someone-else@example.com', code: fresh })).code).toBe(400);
  });
});

describe('e-mail codes: strangers cannot lock the owner out (decision 054)', () => {
  /** Registers a member and logs in with the password from `home`, which thereby becomes an address the member used. */
  async function memberAtHome(email: string): Promise<string> {
    await registerMember(t, email, 'member-password');
    const home = nextIp();
    expect((await post('/api/auth/login', { email, password: 'member-password' }, { ip: home })).code).toBe(200);
    return home;
  }

  /** Strangers at fresh addresses use up the e-mail's hour: two codes, five wrong tries each. */
  async function strangersBurnTheHour(email: string, purpose: 'login' | 'reset_password'): Promise<void> {
    const send = purpose === 'login' ? '/api/auth/send_login_code' : '/api/auth/send_forgot_code';
    const check = purpose === 'login' ? '/api/auth/login_by_code' : '/api/auth/check_forgot_code';
    for (let code = 0; code < 2; code += 1) {
      await passResendCountdown(email);
      expect((await post(send, { email })).code).toBe(200);
      const right = await newestCode(email);
      for (let guess = 0; guess < CODE_MAX_WRONG_ATTEMPTS; guess += 1) {
        expect((await post(check, { email, code: wrongCode(right, guess) })).code).toBe(400);
      }
    }
  }

  it('after strangers used up the hour, the owner at an address they used before logs in with a fresh code; strangers still wait', async () => {
    const email = 'owner-code-login@example.com';
    const home = await memberAtHome(email);
    await strangersBurnTheHour(email, 'login');
    await passResendCountdown(email);
    expect((await post('/api/auth/send_login_code', { email }, { ip: home })).code).toBe(200);
    const fresh = await newestCode(email);
    // A stranger's guess is still refused unread …
    expect((await post('/api/auth/login_by_code', { email, code: wrongCode(fresh, 0) })).code).toBe(429);
    // … while the owner's own code works from home.
    expect((await post('/api/auth/login_by_code', { email, code: fresh }, { ip: home })).code).toBe(200);
  });

  it('after strangers used up the hour and the code’s five tries, the owner at home still resets the password with that code', async () => {
    const email = 'owner-code-reset@example.com';
    const home = await memberAtHome(email);
    await strangersBurnTheHour(email, 'reset_password');
    await passResendCountdown(email);
    expect((await post('/api/auth/send_forgot_code', { email }, { ip: home })).code).toBe(200);
    const fresh = await newestCode(email);
    expect((await post('/api/auth/check_forgot_code', { email, code: fresh }, { ip: home })).code).toBe(200);
    expect(
      await post(
        '/api/auth/reset_password',
        { email, code: fresh, password: 'new-pass-123', confirmPassword: 'new-pass-123' },
        { ip: home },
      ),
    ).toMatchObject({ code: 200 });
    expect((await post('/api/auth/login', { email, password: 'new-pass-123' })).code).toBe(200);
  });

  it('strangers who burn a fresh code’s five tries do not spoil it for the owner at home', async () => {
    const email = 'owner-code-burnt@example.com';
    const home = await memberAtHome(email);
    expect((await post('/api/auth/send_login_code', { email }, { ip: home })).code).toBe(200);
    const right = await newestCode(email);
    for (let guess = 0; guess < CODE_MAX_WRONG_ATTEMPTS; guess += 1) {
      expect((await post('/api/auth/login_by_code', { email, code: wrongCode(right, guess) })).code).toBe(400);
    }
    expect(await post('/api/auth/login_by_code', { email, code: right })).toMatchObject({
      code: 400,
      message: 'Too many wrong codes; please request a new one',
    });
    expect((await post('/api/auth/login_by_code', { email, code: right }, { ip: home })).code).toBe(200);
  });

  it('20 parallel wrong codes from an address the member used: at most 5 compared, then the code is used up there', async () => {
    const email = 'owner-code-burst@example.com';
    const home = await memberAtHome(email);
    expect((await post('/api/auth/send_login_code', { email }, { ip: home })).code).toBe(200);
    const right = await newestCode(email);
    const [row] = await queryRows<{ id: string }>(
      t.testDatabase.database.db,
      sql`select id from verification_codes where email = ${email} and purpose = 'login' order by created_at desc limit 1`,
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        post('/api/auth/login_by_code', { email, code: wrongCode(right, index) }, { ip: home }),
      ),
    );
    expect(answers.filter((answer) => answer.code === 200)).toEqual([]);
    expect(await bucketAttempts(`code-tries:familiar:${row!.id}|${home}`)).toBe(CODE_MAX_WRONG_ATTEMPTS);
    expect(await post('/api/auth/login_by_code', { email, code: right }, { ip: home })).toMatchObject({
      code: 400,
      message: 'Too many wrong codes; please request a new one',
    });
  });

  it('an address the member used has limits of its own: five wrong tries per code, ten an hour', async () => {
    const email = 'owner-code-own-limits@example.com';
    const home = await memberAtHome(email);
    for (let code = 0; code < 2; code += 1) {
      await passResendCountdown(email);
      expect((await post('/api/auth/send_login_code', { email }, { ip: home })).code).toBe(200);
      const right = await newestCode(email);
      for (let guess = 0; guess < CODE_MAX_WRONG_ATTEMPTS; guess += 1) {
        expect((await post('/api/auth/login_by_code', { email, code: wrongCode(right, guess) }, { ip: home })).code).toBe(400);
      }
      // The first code's five are used up; after the second, so is home's hour (below).
      if (code === 0) {
        expect(await post('/api/auth/login_by_code', { email, code: right }, { ip: home })).toMatchObject({
          code: 400,
          message: 'Too many wrong codes; please request a new one',
        });
      }
    }
    await passResendCountdown(email);
    expect((await post('/api/auth/send_login_code', { email }, { ip: home })).code).toBe(200);
    const fresh = await newestCode(email);
    expect((await post('/api/auth/login_by_code', { email, code: fresh }, { ip: home })).code).toBe(429);
    // Home's hour is its own: a stranger elsewhere is not refused for it (the code was not tried there).
    expect((await post('/api/auth/login_by_code', { email, code: fresh })).code).toBe(200);
  });
});

describe('passwords and authenticator codes under a burst (service calls)', () => {
  it('40 wrong trading passwords and the right one at once: at most 5 compared; afterwards the right one waits', async () => {
    const email = 'trade-burst@example.com';
    const token = await registerMember(t, email);
    await setTradePassword(t, token, 'trade-pass-1');
    const member = (await t.services.auth.authenticate(token)).member;
    // Eight server instances on one database: each takes its own checks one at a time, so only the
    // database's count keeps them from comparing more than 5 together.
    const instances = [
      t.services.security,
      ...Array.from({ length: 7 }, () => createServices(t.testDatabase.database, t.config, createLogger('silent')).security),
    ];
    const results = await Promise.allSettled([
      ...Array.from({ length: 40 }, (_, index) => instances[index % 8]!.verifyTradePassword(member, `wrong-${index}`)),
      instances[7]!.verifyTradePassword(member, 'trade-pass-1'),
    ]);
    const outcomes = results.map(outcomeOf);
    const compared = outcomes.filter((outcome) => outcome !== 'too_many_requests');
    expect(outcomes.filter((outcome) => outcome.startsWith('unexpected'))).toEqual([]);
    expect(compared.length).toBeLessThanOrEqual(TRADE_PASSWORD_PER_MEMBER.maxAttempts);
    expect(await bucketAttempts(`${TRADE_PASSWORD_PER_MEMBER.name}:${member.id}`)).toBe(TRADE_PASSWORD_PER_MEMBER.maxAttempts);
    expect(outcomeOf((await Promise.allSettled([t.services.security.verifyTradePassword(member, 'trade-pass-1')]))[0])).toBe(
      'too_many_requests',
    );
  });

  it('30 wrong authenticator codes and the right one at once: at most 5 compared', async () => {
    const email = 'totp-burst@example.com';
    await registerMember(t, email);
    const id = await memberId(email);
    const secret = newTotpSecret();
    await t.testDatabase.database.db.execute(sql`update members set totp_secret = ${secret} where id = ${id}`);
    const right = hotp(base32Decode(secret), totpStep(Date.now()));
    const wrong = (index: number) => wrongCode(right, index * 7919);
    const member = { id, totpSecret: secret };
    const results = await Promise.allSettled([
      ...Array.from({ length: 30 }, (_, index) => t.services.security.requireAuthenticatorCode(member, wrong(index))),
      t.services.security.requireAuthenticatorCode(member, right),
    ]);
    const outcomes = results.map(outcomeOf);
    expect(outcomes.filter((outcome) => outcome.startsWith('unexpected'))).toEqual([]);
    expect(outcomes.filter((outcome) => outcome !== 'too_many_requests').length).toBeLessThanOrEqual(TOTP_PER_MEMBER.maxAttempts);
  });
});
