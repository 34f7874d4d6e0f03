import { expect, type APIRequestContext } from '@playwright/test';
import { waitForCode } from './mail';

/** The platform invitation code the server printed at its first start. */
export function invitationCode(): string {
  const code = process.env.E2E_INVITATION_CODE;
  if (!code) throw new Error('E2E_INVITATION_CODE is not set (global setup did not run)');
  return code;
}

/** A member registered through the API (the screens themselves are tested in auth.spec). */
export async function registerViaApi(request: APIRequestContext, email: string, password: string): Promise<void> {
  const sent = await request.post('/api/auth/send_register_code', { data: { email, invitationCode: invitationCode() } });
  expect((await sent.json()) as unknown).toMatchObject({ code: 200 });
  const code = await waitForCode(email);
  const registered = await request.post('/api/auth/register', {
    data: { email, code, invitationCode: invitationCode(), password, confirmPassword: password },
  });
  expect((await registered.json()) as unknown).toMatchObject({ code: 200 });
}

/** Logs in through the API and returns the session token. */
export async function loginViaApi(request: APIRequestContext, email: string, password: string): Promise<string> {
  const response = await request.post('/api/auth/login', { data: { email, password } });
  const envelope = (await response.json()) as { code: number; data: { token: string } };
  expect(envelope.code).toBe(200);
  return envelope.data.token;
}
