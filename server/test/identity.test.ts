import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { maskIdNumber } from '../src/modules/identity/identity.service.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The smallest real PNG (1×1, transparent). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestApp;
let member: string;
let stranger: string;
let reviewer: string;
let support: string;

beforeAll(async () => {
  t = await createTestApp();
  member = await registerMember(t, 'kyc@example.com');
  stranger = await registerMember(t, 'stranger@example.com');
  reviewer = await operatorToken(t, 'reviewer1', 'reviewer');
  support = await operatorToken(t, 'support1', 'support');
});
afterAll(async () => {
  await t.close();
});

function memberCall(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) });
}
function operatorCall(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
}
async function upload(token: string, bytes: Buffer = TINY_PNG) {
  return memberCall('POST', '/api/upload/image', token, { purpose: 'identity', contentBase64: bytes.toString('base64') });
}
async function uploadId(token: string): Promise<string> {
  return (await upload(token)).json<{ data: { id: string } }>().data.id;
}
async function images(token: string) {
  return { frontImageId: await uploadId(token), backImageId: await uploadId(token), selfieImageId: await uploadId(token) };
}

describe('uploads', () => {
  it('accept real images only, by their bytes, up to 2 MB', async () => {
    expect((await upload(member, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).json()).toMatchObject({
      code: 400,
      message: 'Only JPEG, PNG or WebP images are accepted',
    });
    const large = Buffer.concat([TINY_PNG, Buffer.alloc(2 * 1024 * 1024)]);
    expect((await upload(member, large)).json()).toMatchObject({ code: 400, message: 'The image is larger than 2 MB' });
    const id = await uploadId(member);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('are served only to their owner', async () => {
    const id = await uploadId(member);
    const own = await memberCall('GET', `/api/upload/image/${id}`, member);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.rawPayload.equals(TINY_PNG)).toBe(true);
    expect((await memberCall('GET', `/api/upload/image/${id}`, stranger)).statusCode).toBe(404);
    expect((await operatorCall('GET', `/api/admin/identity/image/${id}`, reviewer)).statusCode).toBe(404);
  });
});

describe('real-name verification', () => {
  it('goes unverified → pending → failed (with the reason) → pending → approved, audited', async () => {
    expect((await memberCall('GET', '/api/user/identity', member)).json()).toMatchObject({ data: { status: 'unverified' } });
    const own = await images(member);
    const bad = await memberCall('POST', '/api/user/identity', member, {
      documentType: 'id_card',
      idNumber: '110105194912310021',
      realName: '张三',
      ...own,
    });
    expect(bad.json()).toEqual({ code: 400, message: 'document number: invalid value', data: null });
    const foreign = await memberCall('POST', '/api/user/identity', member, {
      documentType: 'passport',
      idNumber: 'E12345678',
      realName: 'Zhang San',
      ...(await images(stranger)),
    });
    expect(foreign.json()).toMatchObject({ code: 400, message: 'Please upload the document images again' });

    const submitted = await memberCall('POST', '/api/user/identity', member, {
      documentType: 'id_card',
      idNumber: '11010519491231002x',
      realName: '张三',
      ...own,
    });
    expect(submitted.json()).toMatchObject({ code: 200 });
    expect((await memberCall('GET', '/api/user/identity', member)).json()).toMatchObject({
      data: { status: 'pending', documentType: 'id_card', idNumberMasked: '110105********002X', realName: '张三' },
    });
    expect(
      (
        await memberCall('POST', '/api/user/identity', member, {
          documentType: 'id_card',
          idNumber: '11010519491231002X',
          realName: '张三',
          ...own,
        })
      ).json(),
    ).toMatchObject({
      code: 409,
      message: 'Your documents are being reviewed',
    });

    const queue = (await operatorCall('GET', '/api/admin/identity', reviewer)).json<{
      data: { items: { id: string; email: string; frontImageId: string }[] };
    }>().data;
    const item = queue.items.find((entry) => entry.email === 'kyc@example.com')!;
    expect(item).toBeDefined();
    const image = await operatorCall('GET', `/api/admin/identity/image/${item.frontImageId}`, reviewer);
    expect(image.statusCode).toBe(200);
    expect((await operatorCall('GET', '/api/admin/identity', support)).statusCode).toBe(403);

    expect((await operatorCall('POST', `/api/admin/identity/${item.id}/fail`, reviewer, {})).json()).toMatchObject({
      code: 400,
      message: 'please enter reason',
    });
    expect(
      (await operatorCall('POST', `/api/admin/identity/${item.id}/fail`, reviewer, { reason: 'The photo is blurred' })).json(),
    ).toMatchObject({ code: 200 });
    expect((await operatorCall('POST', `/api/admin/identity/${item.id}/approve`, reviewer)).json()).toMatchObject({ code: 409 });
    expect((await memberCall('GET', '/api/user/identity', member)).json()).toMatchObject({
      data: { status: 'failed', failReason: 'The photo is blurred' },
    });

    expect(
      (
        await memberCall('POST', '/api/user/identity', member, {
          documentType: 'id_card',
          idNumber: '11010519491231002X',
          realName: '张三',
          ...(await images(member)),
        })
      ).json(),
    ).toMatchObject({ code: 200 });
    const second = (await operatorCall('GET', '/api/admin/identity', reviewer))
      .json<{ data: { items: { id: string; email: string }[] } }>()
      .data.items.find((entry) => entry.email === 'kyc@example.com')!;
    expect((await operatorCall('POST', `/api/admin/identity/${second.id}/approve`, reviewer)).json()).toMatchObject({
      code: 200,
    });
    expect((await memberCall('GET', '/api/user/identity', member)).json()).toMatchObject({ data: { status: 'approved' } });
    expect(
      (
        await memberCall('POST', '/api/user/identity', member, {
          documentType: 'id_card',
          idNumber: '11010519491231002X',
          realName: '张三',
          ...(await images(member)),
        })
      ).json(),
    ).toMatchObject({
      code: 409,
      message: 'Your identity is already verified',
    });

    const audit = await queryRows<{ action: string }>(
      t.testDatabase.database.db,
      sql`select action from audit_log where action like 'identity.%' order by created_at`,
    );
    expect(audit.map((row) => row.action)).toEqual(['identity.fail', 'identity.approve']);
  });

  it('allows only one open submission even when two arrive at once', async () => {
    // PGlite runs one transaction at a time: only this test's PostgreSQL run proves the race.
    const token = await registerMember(t, 'twice@example.com');
    const body = { documentType: 'passport', idNumber: 'E12345678', realName: 'Twice', ...(await images(token)) };
    const results = await Promise.all([
      memberCall('POST', '/api/user/identity', token, body),
      memberCall('POST', '/api/user/identity', token, body),
    ]);
    expect(results.map((response) => response.json<{ code: number }>().code).sort()).toEqual([200, 409]);
  });
});

describe('masked document numbers', () => {
  it('hide the middle of long and short numbers alike', () => {
    expect(maskIdNumber('11010519491231002X')).toBe('110105********002X');
    expect(maskIdNumber('E12345678')).toBe('E1*****78');
    expect(maskIdNumber('AB123')).toBe('AB**23');
  });
});
