import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldLabel, translate } from '@custos/contract';
import { operatorToken } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The HTTP boundary (decision 018): text PostgreSQL cannot store is refused on every call naming the
 * field, days outside the platform's calendar are refused, the router's own refusals leave as
 * envelopes, session checks run before any input is read, and audit records never fail on text.
 */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = `Bearer ${await operatorToken(t, 'boundary-admin', 'super_admin')}`;
});
afterAll(async () => {
  await t.close();
});

type Envelope = { code: number; message: string; data: unknown };

const unstorable = (locale: 'en' | 'ja', field: string) =>
  translate(locale, 'field_error', { field: fieldLabel(locale, field), reason: translate(locale, 'reason.text_unstorable') });

describe('text PostgreSQL cannot store', () => {
  it('is refused in a body before a session exists, naming the field (the log-in used to fail in its rate-limit table)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      headers: { lang: 'EN' },
      payload: { username: 'ad\u0000min', password: 'whatever-password' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 400, message: unstorable('en', 'username'), data: null });
  });

  it('is refused in a console list filter, in the caller language', async () => {
    for (const url of ['/api/admin/members?query=%00', '/api/admin/audit?action=a%00', '/api/admin/withdrawals?query=x%00y']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { authorization: admin, lang: 'JP' } });
      expect(response.statusCode, url).toBe(400);
      expect(response.json<Envelope>().message, url).toBe(unstorable('ja', url.includes('action') ? 'action' : 'query'));
    }
  });

  it('is refused as a lone surrogate in a console write, and nothing is written', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/withdraw/holidays',
      headers: { authorization: admin, lang: 'EN' },
      payload: { date: '2026-12-25', note: 'Christmas \uD800' },
    });
    expect(response.json()).toEqual({ code: 400, message: unstorable('en', 'note'), data: null });
    const holidays = await t.app.inject({
      method: 'GET',
      url: '/api/admin/withdraw/holidays',
      headers: { authorization: admin },
    });
    expect(holidays.json<{ data: unknown[] }>().data).toEqual([]);
  });
});

describe('calendar days', () => {
  it('refuses year 0000 and days outside 2000–2099 wherever a day is taken', async () => {
    const message = translate('en', 'field_error', {
      field: fieldLabel('en', 'date'),
      reason: translate('en', 'reason.date_range'),
    });
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/admin/withdraw/holidays',
      headers: { authorization: admin, lang: 'EN' },
      payload: { date: '0000-01-01', note: '' },
    });
    expect(added.json()).toEqual({ code: 400, message, data: null });
    for (const [method, url] of [
      ['DELETE', '/api/admin/withdraw/holidays/0000-01-01'],
      ['PUT', '/api/admin/dividend/pools/0000-01-01'],
      ['DELETE', '/api/admin/dividend/pools/2100-01-01'],
      ['POST', '/api/admin/settlement/runs/1999-12-31/rerun'],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: { authorization: admin, lang: 'EN' },
        ...(method === 'PUT' ? { payload: { amount: '1.0000' } } : {}),
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json<Envelope>().message, url).toContain(translate('en', 'reason.date_range'));
    }
  });
});

describe("the router's refusals", () => {
  it('answers a broken %-escape and an over-long path parameter in the envelope, in the caller language', async () => {
    for (const url of ['/api/admin/members/%E0%A4%A', `/api/admin/members/${'x'.repeat(150)}`, '/api/upload/image/%']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { lang: 'KO', authorization: admin } });
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.headers['x-request-id']).toBeTruthy();
      expect(response.json(), url).toEqual({ code: 400, message: translate('ko', 'bad_url'), data: null });
    }
  });

  it('answers an unsupported content type and a body too large in the envelope', async () => {
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { lang: 'EN', 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.json()).toEqual({ code: 400, message: translate('en', 'unsupported_media_type'), data: null });
    const large = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { lang: 'EN', 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'x'.repeat(1_100_000) }),
    });
    expect(large.json()).toEqual({ code: 413, message: translate('en', 'body_too_large'), data: null });
  });
});

describe('session checks', () => {
  it('run before the body is read: no session is 401 whatever the body holds', async () => {
    for (const payload of ['{"broken":', '{"nickname":"a\\u0000"}', '[]']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/account/create_sub',
        headers: { lang: 'EN', 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBe(401);
      expect(response.json<Envelope>().code).toBe(401);
    }
  });
});

describe('audit records', () => {
  it('store text PostgreSQL would refuse, with each bad character replaced', async () => {
    await t.services.audit.record({
      operatorId: null,
      action: 'boundary.test',
      targetId: 'id\u0000',
      after: { note: 'x\uD800y', ['key\u0000']: ['\uDC00'] },
    });
    const { items } = await t.services.audit.list({ action: 'boundary.test' }, 10, 0);
    expect(items).toHaveLength(1);
    expect(items[0]!.entry.targetId).toBe('id\uFFFD');
    expect(items[0]!.entry.after).toEqual({ note: 'x\uFFFDy', ['key\uFFFD']: ['\uFFFD'] });
  });
});
