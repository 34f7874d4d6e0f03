import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANG_HEADER_BY_LOCALE, LOCALES, translate, UPLOAD_MAX_BYTES } from '@custos/contract';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * Issue 31, finding 9: `POST /api/admin/content/images` documented `contentBase64` up to twice the
 * base64 of a 2 MB file, while the body limit (the app's 1 MiB) cut such a body off: the caller got
 * its connection closed mid-upload (EPIPE) instead of an answer. Each route with a limit of its own
 * must take a body at its schema's maximum, and answer a body over its limit with a 413 envelope
 * in the caller's language, over a real connection too.
 */

/** The schemas' documented maximum for an inline image: twice the base64 of `UPLOAD_MAX_BYTES`. */
const IMAGE_BASE64_MAX_LENGTH = Math.ceil((UPLOAD_MAX_BYTES * 4) / 3) * 2;
/** Past any of these routes' limits. */
const OVER_LIMIT_LENGTH = 7 * 1024 * 1024;

let t: TestApp;
let member: string;
let admin: string;

interface Route {
  url: () => string;
  token: () => string;
  field: string;
}

const ROUTES: Route[] = [
  { url: () => '/api/upload/image', token: () => member, field: 'contentBase64' },
  { url: () => '/api/admin/content/images', token: () => admin, field: 'contentBase64' },
  { url: () => `/api/admin/support/conversations/${randomUUID()}/messages`, token: () => admin, field: 'imageBase64' },
  { url: () => `/api/admin/otc/orders/${randomUUID()}/chat`, token: () => admin, field: 'imageBase64' },
];

beforeAll(async () => {
  t = await createTestApp();
  member = await registerMember(t, 'body-limits@example.com');
  admin = await operatorToken(t, 'body-limits-admin', 'super_admin');
});
afterAll(async () => {
  await t.close();
});

function post(route: Route, length: number, lang = 'EN') {
  return t.app.inject({
    method: 'POST',
    url: route.url(),
    headers: { authorization: route.token(), lang, 'content-type': 'application/json' },
    payload: JSON.stringify({ [route.field]: 'A'.repeat(length) }),
  });
}

describe('body limits', () => {
  it.each(ROUTES.map((route) => [route.url().replace(/[0-9a-f-]{36}/, ':id'), route] as const))(
    '%s takes a body at its schema maximum and answers one over its limit with a 413',
    async (_name, route) => {
      const atMaximum = await post(route, IMAGE_BASE64_MAX_LENGTH);
      // Past the body limit: whatever the route then says (not an image, no such order), it said it.
      expect(atMaximum.statusCode).not.toBe(413);
      expect(atMaximum.json<{ message: string }>().message).not.toBe(translate('en', 'body_too_large'));
      const over = await post(route, OVER_LIMIT_LENGTH);
      expect(over.statusCode).toBe(413);
      expect(over.json()).toEqual({ code: 413, message: translate('en', 'body_too_large'), data: null });
    },
    60_000,
  );

  it('says so in the caller’s language', async () => {
    for (const locale of LOCALES) {
      const over = await post(ROUTES[1]!, OVER_LIMIT_LENGTH, LANG_HEADER_BY_LOCALE[locale]);
      expect(over.json()).toEqual({ code: 413, message: translate(locale, 'body_too_large'), data: null });
    }
  }, 60_000);

  it('answers a body over the limit over a real connection, rather than cutting it', async () => {
    const baseUrl = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const body = Buffer.from(JSON.stringify({ contentBase64: 'A'.repeat(OVER_LIMIT_LENGTH) }));
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: baseUrl.hostname,
          port: baseUrl.port,
          method: 'POST',
          path: '/api/admin/content/images',
          headers: { authorization: admin, lang: 'EN', 'content-type': 'application/json', 'content-length': body.length },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ code: 413, message: translate('en', 'body_too_large'), data: null });
  }, 60_000);
});
