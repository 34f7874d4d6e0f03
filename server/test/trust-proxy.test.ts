import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * request.ip is what every per-address limit, session and audit row counts. Behind TRUST_PROXY it
 * must be the address the last trusted proxy saw: a client that writes its own X-Forwarded-For
 * cannot choose it. Observed through the real calls: a log-in records request.ip on the session.
 */

const PASSWORD = 'member-password';

/** Logs `email` in through the proxy at `proxyAddress` with this X-Forwarded-For; the session's recorded address. */
async function addressSeenAtLogin(
  t: TestApp,
  email: string,
  proxyAddress: string,
  forwardedFor?: string,
): Promise<string | null> {
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: proxyAddress,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    payload: { email, password: PASSWORD },
  });
  const token = login.json<{ code: number; data: { token: string } }>().data.token;
  const sessions = await t.app.inject({ method: 'GET', url: '/api/user/sessions', headers: { authorization: token } });
  const list = sessions.json<{ data: { current: boolean; ip: string | null }[] }>().data;
  return list.find((session) => session.current)?.ip ?? null;
}

describe('TRUST_PROXY=1 (a hop count), one proxy on loopback', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Before hop counts were read, "1" was the address 0.0.0.1: the proxy was not trusted at all.
    t = await createTestApp({ TRUST_PROXY: '1' });
    await registerMember(t, 'proxied@example.com', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes the address the proxy appended, not the one the client wrote before it', async () => {
    // The client sent "X-Forwarded-For: 6.6.6.6"; the proxy appended the address it saw.
    expect(await addressSeenAtLogin(t, 'proxied@example.com', '127.0.0.1', '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
    expect(await addressSeenAtLogin(t, 'proxied@example.com', '127.0.0.1', '203.0.113.8')).toBe('203.0.113.8');
  });

  it('without the header, is the socket peer itself', async () => {
    expect(await addressSeenAtLogin(t, 'proxied@example.com', '127.0.0.1')).toBe('127.0.0.1');
  });
});

describe('TRUST_PROXY by address (loopback and 10.0.0.0/8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback,10.0.0.0/8' });
    await registerMember(t, 'direct@example.com', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes the address the proxy appended, not the one the client wrote before it', async () => {
    expect(await addressSeenAtLogin(t, 'direct@example.com', '127.0.0.1', '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
  });

  it('ignores the X-Forwarded-For of a peer that is not a trusted proxy', async () => {
    expect(await addressSeenAtLogin(t, 'direct@example.com', '198.51.100.4', '10.1.2.3')).toBe('198.51.100.4');
  });

  it('walks back through several trusted proxies to the first address outside them', async () => {
    expect(await addressSeenAtLogin(t, 'direct@example.com', '10.0.0.2', '6.6.6.6, 203.0.113.9, 10.0.0.7')).toBe('203.0.113.9');
  });
});

describe('without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await registerMember(t, 'plain@example.com', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('never reads X-Forwarded-For', async () => {
    expect(await addressSeenAtLogin(t, 'plain@example.com', '198.51.100.5', '203.0.113.10')).toBe('198.51.100.5');
  });
});
