import { expect, type APIRequestContext } from '@playwright/test';
import { waitForCode } from './mail';

/** The platform invitation code the server printed at its first start. */
export function invitationCode(): string {
  const code = process.env.E2E_INVITATION_CODE;
  if (!code) throw new Error('E2E_INVITATION_CODE is not set (global setup did not run)');
  return code;
}

/**
 * Each API-made member calls from an address of its own (the e2e server trusts the loopback proxy),
 * as real members do: the per-address limits on codes and log-ins then count people, not the suite.
 */
export function ownAddress(): Record<string, string> {
  const bytes = crypto.getRandomValues(new Uint8Array(3));
  return { 'x-forwarded-for': `10.${bytes[0]}.${bytes[1]}.${bytes[2]}` };
}

/** A member registered through the API (the screens themselves are tested in auth.spec). */
export async function registerViaApi(
  request: APIRequestContext,
  email: string,
  password: string,
  code: string = invitationCode(),
): Promise<void> {
  const headers = ownAddress();
  const sent = await request.post('/api/auth/send_register_code', { headers, data: { email, invitationCode: code } });
  expect((await sent.json()) as unknown).toMatchObject({ code: 200 });
  const registered = await request.post('/api/auth/register', {
    headers,
    data: { email, code: await waitForCode(email), invitationCode: code, password, confirmPassword: password },
  });
  expect((await registered.json()) as unknown).toMatchObject({ code: 200 });
}

/** Logs in through the API and returns the session token. */
export async function loginViaApi(request: APIRequestContext, email: string, password: string): Promise<string> {
  const response = await request.post('/api/auth/login', { headers: ownAddress(), data: { email, password } });
  const envelope = (await response.json()) as { code: number; data: { token: string } };
  expect(envelope.code).toBe(200);
  return envelope.data.token;
}
