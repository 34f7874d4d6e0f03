import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import {
  UNUSED_UPLOADS_MAX_BYTES,
  UNUSED_UPLOADS_MAX_COUNT,
  UPLOADS_PER_MEMBER,
} from '../src/modules/identity/identity.service.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The smallest real PNG (1×1, transparent). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
/** A PNG header padded to 1.9 MB (the type is told by its first bytes). */
const LARGE_PNG = Buffer.concat([TINY_PNG, Buffer.alloc(Math.floor(1.9 * 1024 * 1024) - TINY_PNG.length)]);

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call(url: string, token: string, payload: object, lang = 'EN') {
  return t.app.inject({ method: 'POST', url, headers: { authorization: token, lang }, payload });
}

async function upload(token: string, bytes = TINY_PNG, purpose: 'identity' | 'avatar' = 'identity', lang = 'EN') {
  const response = await call('/api/upload/image', token, { purpose, contentBase64: bytes.toString('base64') }, lang);
  return { status: response.statusCode, body: response.json<Envelope<{ id: string } | null>>() };
}

async function uploadCount(email: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as n from uploads u join members m on m.id = u.owner_member_id where m.email = ${email}`,
  );
  return Number(rows[0]!.n);
}

describe('upload quota per member', () => {
  it(`keeps at most ${UNUSED_UPLOADS_MAX_COUNT} unused images (409, localised); images in a submission no longer count`, async () => {
    const token = await registerMember(t, 'quota-count@example.com');
    const ids: string[] = [];
    for (let index = 0; index < UNUSED_UPLOADS_MAX_COUNT; index += 1) {
      const answer = await upload(token);
      expect(answer.body.code).toBe(200);
      ids.push(answer.body.data!.id);
    }
    const refused = await upload(token);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 409,
      message: 'You have too many images that are not used yet (at most 10, 10 MB in all); unused images are removed after a day',
      data: null,
    });
    expect((await upload(token, TINY_PNG, 'avatar', 'JP')).body.message).toBe(
      'まだ使われていない画像が多すぎます（最大 10 枚、合計 10 MB）。使われていない画像は1日後に削除されます',
    );
    expect(await uploadCount('quota-count@example.com')).toBe(UNUSED_UPLOADS_MAX_COUNT);

    const submitted = await call('/api/user/identity', token, {
      documentType: 'passport',
      idNumber: 'E12345678',
      realName: 'Quota Tester',
      frontImageId: ids[0],
      backImageId: ids[1],
      selfieImageId: ids[2],
    });
    expect(submitted.json()).toMatchObject({ code: 200 });
    for (let index = 0; index < 3; index += 1) expect((await upload(token)).body.code).toBe(200);
    expect((await upload(token)).status).toBe(409);
  });

  it(`keeps at most ${UNUSED_UPLOADS_MAX_BYTES / (1024 * 1024)} MB of unused images`, { timeout: 120_000 }, async () => {
    const email = 'quota-bytes@example.com';
    const token = await registerMember(t, email);
    // As if four 2 MB images were stored already (only their recorded size counts toward the quota).
    await t.testDatabase.database.db.execute(
      sql`insert into uploads (owner_member_id, purpose, content_type, size_bytes, sha256, content)
          select m.id, 'identity', 'image/png', 2097152, 'prefill', ${TINY_PNG}
          from members m, generate_series(1, 4) where m.email = ${email}`,
    );
    expect((await upload(token, LARGE_PNG)).body.code).toBe(200);
    expect((await upload(token, LARGE_PNG)).status).toBe(409);
    // A small one still fits under the byte limit.
    expect((await upload(token)).body.code).toBe(200);
    expect(UNUSED_UPLOADS_MAX_BYTES).toBeLessThan(4 * 2097152 + 2 * LARGE_PNG.length);
  });

  it('removes unused images older than a day when the member uploads again, and keeps those in use', async () => {
    const email = 'quota-clean@example.com';
    const token = await registerMember(t, email);
    const avatar = (await upload(token, TINY_PNG, 'avatar')).body.data!.id;
    expect((await call('/api/user/update_profile', token, { avatar: `upload:${avatar}` })).json()).toMatchObject({ code: 200 });
    for (let index = 1; index < UNUSED_UPLOADS_MAX_COUNT + 1; index += 1) expect((await upload(token)).body.code).toBe(200);
    expect((await upload(token)).status).toBe(409);
    await t.testDatabase.database.db.execute(
      sql`update uploads set created_at = created_at - interval '25 hours'
          where owner_member_id = (select id from members where email = ${email})`,
    );
    expect((await upload(token)).body.code).toBe(200);
    // The avatar in use and the new upload remain.
    expect(await uploadCount(email)).toBe(2);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/upload/image/${avatar}`, headers: { authorization: token } })).statusCode,
    ).toBe(200);
  });

  it(`refuses more than ${UPLOADS_PER_MEMBER.maxAttempts} uploads an hour (429 with the wait, localised)`, async () => {
    const token = await registerMember(t, 'quota-rate@example.com');
    const rows = await queryRows<{ id: string }>(
      t.testDatabase.database.db,
      sql`select id from members where email = 'quota-rate@example.com'`,
    );
    // As if the member had already uploaded (and used) the hour's allowance.
    await t.testDatabase.database.db.execute(
      sql`insert into rate_limit_buckets (key, window_started_at, attempts)
          values (${`${UPLOADS_PER_MEMBER.name}:${rows[0]!.id}`}, now(), ${UPLOADS_PER_MEMBER.maxAttempts})`,
    );
    const refused = await upload(token);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many uploads, please try again in \d+ s$/);
    expect((await upload(token, TINY_PNG, 'identity', 'CN')).body.message).toMatch(/^上传过于频繁，请 \d+ 秒后再试$/);
    expect(await uploadCount('quota-rate@example.com')).toBe(0);
  });

  it('parallel uploads cannot pass the count together (on PostgreSQL they really run at once)', async () => {
    const email = 'quota-burst@example.com';
    const token = await registerMember(t, email);
    const answers = await Promise.all(Array.from({ length: 15 }, () => upload(token)));
    expect(answers.filter((answer) => answer.body.code === 200)).toHaveLength(UNUSED_UPLOADS_MAX_COUNT);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(15 - UNUSED_UPLOADS_MAX_COUNT);
    expect(await uploadCount(email)).toBe(UNUSED_UPLOADS_MAX_COUNT);
  });
});
