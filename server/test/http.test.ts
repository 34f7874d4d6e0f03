import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BusinessCode,
  LANG_HEADER_BY_LOCALE,
  LOCALES,
  appVersionResponse,
  commonConfigResponse,
  envelopeOf,
  errorEnvelopeSchema,
  translate,
} from '@custos/contract';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('common calls', () => {
  it('answers /api/common/config in the envelope, validated by the contract', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/common/config', headers: { lang: 'EN' } });
    expect(response.statusCode).toBe(200);
    const body = envelopeOf(commonConfigResponse).parse(response.json());
    expect(body.message).toBe('Success');
    expect(body.data.timeZone).toBe('Asia/Shanghai');
    expect(body.data.locales).toEqual([...LOCALES]);
    expect(Math.abs(Date.parse(body.data.serverTime) - Date.now())).toBeLessThan(60_000);
  });

  it('answers /api/common/app_version with the spec field names', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/common/app_version' });
    const body = envelopeOf(appVersionResponse).parse(response.json());
    expect(body.data).toMatchObject({ version: '1.0.19', version_code: 10019, hot_version_code: 10019 });
  });

  it('reports which language it answered in for every lang header', async () => {
    for (const locale of LOCALES) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/common/lang',
        headers: { lang: LANG_HEADER_BY_LOCALE[locale] },
      });
      const body = response.json<{ message: string; data: { current: string; locales: unknown[] } }>();
      expect(body.data.current).toBe(locale);
      expect(body.message).toBe(translate(locale, 'ok'));
      expect(body.data.locales).toHaveLength(7);
    }
  });

  it('falls back to zh-Hans for a missing or unknown lang header', async () => {
    for (const headers of [{}, { lang: 'XX' }]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/common/lang', headers });
      expect(response.json<{ data: { current: string } }>().data.current).toBe('zh-Hans');
    }
  });

  it('serves OpenAPI generated from the schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const spec = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/api/common/config', '/api/common/lang', '/api/common/app_version', '/api/admin/auth/login']),
    );
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('reports health with the database kind', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: t.testDatabase.database.kind });
  });

  it('echoes a sane request id and makes one up otherwise', async () => {
    const given = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('bad input', () => {
  it('answers unknown routes with a 404 envelope in the caller language', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing/here?x=1', headers: { lang: 'EN' } });
    expect(response.statusCode).toBe(404);
    const body = errorEnvelopeSchema.parse(response.json());
    expect(body.code).toBe(BusinessCode.NOT_FOUND);
    expect(body.message).toBe('No such call: GET /api/nothing/here');
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      headers: { 'content-type': 'application/json', lang: 'JP' },
      payload: '{"username": ',
    });
    expect(response.statusCode).toBe(400);
    const body = errorEnvelopeSchema.parse(response.json());
    expect(body.code).toBe(400);
    expect(body.message).toBe(translate('ja', 'invalid_json'));
  });

  it('names the failing field in each language', async () => {
    const expected: Record<string, string> = {
      EN: 'please enter password',
      CN: '请输入密码',
    };
    for (const [lang, message] of Object.entries(expected)) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/admin/auth/login',
        headers: { lang },
        payload: { username: 'someone' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 400, message, data: null });
    }
    for (const locale of LOCALES) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/admin/auth/login',
        headers: { lang: LANG_HEADER_BY_LOCALE[locale] },
        payload: { password: 'x' },
      });
      const label = translate(locale, 'field.username');
      expect(response.json<{ message: string }>().message).toContain(label);
    }
  });

  it('reports a wrong type with the field name', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      headers: { lang: 'EN' },
      payload: { username: 12, password: 'x' },
    });
    expect(response.json()).toEqual({ code: 400, message: 'username: wrong type', data: null });
  });

  it('accepts form-urlencoded bodies as the spec clients send them', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'EN' },
      payload: 'username=nobody&password=wrong-password',
    });
    expect(response.json()).toMatchObject({ code: 401, message: 'Wrong username or password' });
  });

  it('refuses an unsupported content type with a 400 envelope', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      headers: { 'content-type': 'text/csv', lang: 'EN' },
      payload: 'a,b',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 400, message: 'Unsupported content type', data: null });
  });
});
