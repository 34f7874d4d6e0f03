import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { hashPassword } from '../../src/lib/password.js';
import { base32Decode, hotp, newTotpSecret, totpStep } from '../../src/lib/totp.js';
import { OperatorRepository } from '../../src/modules/operators/operator.repository.js';
import type { TestApp } from './test-app.js';

let addressCounter = 0;

function nextIp(): string {
  addressCounter += 1;
  return `10.9.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
}

/** The newest code mailed to `email`, as the member's inbox would show it (see TestApp.mailbox). */
export async function latestCodeFor(t: TestApp, email: string): Promise<string> {
  await t.services.mail.flush();
  const mails = t.mailbox.filter((mail) => mail.to === email);
  const code = /\b(\d{6})\b/.exec(mails.at(-1)?.subject ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** Registers a member through the real calls and returns its session token. */
export async function registerMember(
  t: TestApp,
  email: string,
  password = 'member-password',
  invitationCode?: string,
): Promise<string> {
  const code = invitationCode ?? (await t.services.settings.get('registration')).rootInviteCode;
  const remoteAddress = nextIp();
  const sent = await t.app.inject({
    method: 'POST',
    url: '/api/auth/send_register_code',
    remoteAddress,
    payload: { email, invitationCode: code },
  });
  expect(sent.json()).toMatchObject({ code: 200 });
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress,
    payload: { email, code: await latestCodeFor(t, email), invitationCode: code, password, confirmPassword: password },
  });
  expect(registered.json()).toMatchObject({ code: 200 });
  return registered.json<{ data: { token: string } }>().data.token;
}

export async function loginMember(t: TestApp, email: string, password: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: nextIp(),
    headers: { lang: 'EN' },
    payload: { email, password },
  });
}

export type TestOperatorRole = 'super_admin' | 'finance' | 'support' | 'reviewer';

/** What an authenticator app holding `secret` shows now, by the test app's clock. */
export function operatorCode(t: TestApp, secret: string, stepOffset = 0): string {
  return hotp(base32Decode(secret), totpStep(t.clock.now().getTime()) + stepOffset);
}

/**
 * An operator with a role, its one-time password already replaced and an authenticator bound
 * (written straight to the database). Returns the password and the authenticator secret.
 */
export async function createOperator(
  t: TestApp,
  username: string,
  role: TestOperatorRole,
): Promise<{ id: string; password: string; secret: string }> {
  const password = `${username}-password-long`;
  const secret = newTotpSecret();
  const created = await new OperatorRepository(t.testDatabase.database.db).insertIfAbsent({
    username,
    passwordHash: await hashPassword(password),
    role,
    mustChangePassword: false,
  });
  if (!created) throw new Error(`operator ${username} exists already`);
  await t.testDatabase.database.db.execute(sql`update operators set totp_secret = ${secret} where id = ${created.id}`);
  return { id: created.id, password, secret };
}

/** Logs an operator in with password and the authenticator's current code. */
export async function loginOperator(t: TestApp, username: string, password: string, googleCode?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/auth/login',
    remoteAddress: nextIp(),
    headers: { lang: 'EN' },
    payload: { username, password, ...(googleCode === undefined ? {} : { googleCode }) },
  });
}

/** An operator with a role, ready to use (password replaced, authenticator bound). Returns its token. */
export async function operatorToken(t: TestApp, username: string, role: TestOperatorRole): Promise<string> {
  const { password, secret } = await createOperator(t, username, role);
  const response = await loginOperator(t, username, password, operatorCode(t, secret));
  expect(response.json()).toMatchObject({ code: 200 });
  return response.json<{ data: { token: string } }>().data.token;
}
