import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION, APP_VERSION_CODE, RELEASE_PACKAGE_MAX_BYTES, type AppVersion, type AdminReleases } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { storedZip } from '../src/lib/stored-zip.js';
import { simplePdf } from '../src/lib/simple-pdf.js';
import { rolloutBucket } from '../src/modules/releases/releases.service.js';
import { operatorToken, registerMember } from './support/members.js';
import { RELEASE_TEST_SIGNING_KEY } from './support/release-test-key.js';
import { dataOf, operatorCall } from './support/console-calls.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** App releases (decision 037): uploads, version rules, staged rollout, rollback, serving, on PGlite and PostgreSQL. */

let t: TestApp;
let admin: string;
let finance: string;
let member: string;

beforeAll(async () => {
  // Hot releases need the release key (decision 057); release-signing.test.ts covers the signatures.
  t = await createTestApp({ RELEASE_SIGNING_KEY: RELEASE_TEST_SIGNING_KEY });
  admin = await operatorToken(t, 'root-releases', 'super_admin');
  finance = await operatorToken(t, 'finance-releases', 'finance');
  member = await registerMember(t, 'releases-member@example.com');
});
afterAll(async () => {
  await t.close();
});

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
const hotBundle = (label: string) =>
  storedZip([
    { name: 'index.html', content: `<!doctype html><title>${label}</title>` },
    { name: 'assets/app.js', content: `console.log(${JSON.stringify(label)});` },
  ]);
const apk = (label: string) =>
  storedZip([
    { name: 'AndroidManifest.xml', content: Buffer.from([0x03, 0x00, 0x08, 0x00]) },
    { name: 'classes.dex', content: `dex\n035\0${label}` },
    { name: 'resources.arsc', content: label },
  ]);

function upload(kind: string, content: Buffer, checksum = sha256(content), token = admin) {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/releases/packages?kind=${kind}&sha256=${checksum}`,
    headers: { authorization: `Bearer ${token}`, lang: 'EN', 'content-type': 'application/octet-stream' },
    payload: content,
  });
}
async function release(kind: 'full' | 'hot', versionCode: number, content: Buffer, percent: number | null = 100) {
  const uploaded = await dataOf<{ id: string }>(upload(kind, content));
  const { id } = await dataOf<{ id: string }>(
    operatorCall(t, 'POST', '/api/admin/releases', admin, {
      packageId: uploaded.id,
      versionCode,
      versionName: `1.0.${versionCode - 10000}`,
      notes: `notes ${versionCode}`,
    }),
  );
  if (percent !== null)
    await dataOf(operatorCall(t, 'POST', `/api/admin/releases/${id}/publish`, admin, { rolloutPercent: percent }));
  return { id, packageId: uploaded.id };
}
function appVersion(token: string | null = null) {
  return dataOf<AppVersion>(
    t.app.inject({ method: 'GET', url: '/api/common/app_version', headers: token ? { authorization: token } : {} }),
  );
}
async function count(table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  );
  return row!.n;
}
async function actionsOn(targetId: string): Promise<string[]> {
  const rows = await queryRows<{ action: string }>(
    t.testDatabase.database.db,
    sql`select action from audit_log where target_id = ${targetId} order by created_at, id`,
  );
  return rows.map((row) => row.action);
}
function refusal(response: { json: <J>() => J; statusCode: number }) {
  return response.json<{ code: number; message: string }>();
}

describe('app releases', () => {
  it('answers the built-in version until a release is published, then the hot bundle with its checksum and size', async () => {
    expect(await appVersion()).toEqual({
      version: APP_VERSION,
      version_code: APP_VERSION_CODE,
      hot_version_code: APP_VERSION_CODE,
      package_url: '',
      hot_package_url: '',
      release_notes: '',
      package_sha256: '',
      package_size: 0,
      hot_package_sha256: '',
      hot_package_size: 0,
      hot_package_signature: '',
    });

    const bundle = hotBundle('10020');
    const draft = await release('hot', 10020, bundle, null);
    // A draft is offered to nobody.
    expect((await appVersion(member)).hot_version_code).toBe(APP_VERSION_CODE);

    await dataOf(operatorCall(t, 'POST', `/api/admin/releases/${draft.id}/publish`, admin, { rolloutPercent: 100 }));
    const answered = await appVersion();
    expect(answered).toMatchObject({
      version: '1.0.20',
      version_code: APP_VERSION_CODE,
      hot_version_code: 10020,
      package_url: '',
      hot_package_url: `/api/common/app_package/${draft.packageId}.zip`,
      release_notes: 'notes 10020',
      hot_package_sha256: sha256(bundle),
      hot_package_size: bundle.length,
      // Signed by the release key (release-signing.test.ts checks what the signature covers).
      hot_package_signature: expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/) as unknown,
    });
    expect(await appVersion(member)).toEqual(answered);
    expect(await actionsOn(draft.packageId)).toEqual(['releases.package_uploaded']);
    expect(await actionsOn(draft.id)).toEqual(['releases.created', 'releases.published']);

    const list = await dataOf<AdminReleases>(operatorCall(t, 'GET', '/api/admin/releases', admin));
    expect(list.highestVersionCode).toBe(10020);
    expect(list.items[0]).toMatchObject({
      id: draft.id,
      kind: 'hot',
      status: 'published',
      rolloutPercent: 100,
      sizeBytes: bundle.length,
    });
  });

  it('serves a published package with ranges, an ETag and immutable caching; not a draft’s or an unknown one', async () => {
    const bundle = hotBundle('served');
    const { packageId } = await release('hot', 10021, bundle);
    const url = `/api/common/app_package/${packageId}.zip`;

    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bundle)).toBe(true);
    expect(whole.headers).toMatchObject({
      'content-type': 'application/zip',
      'accept-ranges': 'bytes',
      etag: `"${sha256(bundle)}"`,
      'cache-control': 'public, max-age=31536000, immutable',
      'content-length': String(bundle.length),
      'x-content-type-options': 'nosniff',
    });
    expect(whole.headers['content-disposition']).toBe('attachment; filename="custos-1.0.21.zip"');

    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=10-29' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-29/${bundle.length}`);
    expect(part.rawPayload.equals(bundle.subarray(10, 30))).toBe(true);

    const open = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-' } });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(bundle.subarray(100))).toBe(true);
    const suffix = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-22' } });
    expect(suffix.headers['content-range']).toBe(`bytes ${bundle.length - 22}-${bundle.length - 1}/${bundle.length}`);
    expect(suffix.rawPayload.equals(bundle.subarray(bundle.length - 22))).toBe(true);

    const beyond = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${bundle.length}-` } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${bundle.length}`);

    const cached = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': `"${sha256(bundle)}"` } });
    expect(cached.statusCode).toBe(304);
    // A stale If-Range: the whole (current) file, not a part of it.
    const stale = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-9', 'if-range': '"other"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(bundle.length);

    const wrongEnding = await t.app.inject({ method: 'GET', url: `/api/common/app_package/${packageId}.apk` });
    expect(wrongEnding.statusCode).toBe(404);
    const draft = await release('hot', 10022, hotBundle('draft'), null);
    expect((await t.app.inject({ method: 'GET', url: `/api/common/app_package/${draft.packageId}.zip` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/common/app_package/${randomUUID()}.zip` })).statusCode).toBe(404);
    // The draft's version code is taken: publish it so later tests count from it.
    await dataOf(operatorCall(t, 'POST', `/api/admin/releases/${draft.id}/publish`, admin, { rolloutPercent: 100 }));
  });

  it('refuses a version not higher, a wrong checksum, a wrong type, an oversized package: nothing changes', async () => {
    const packagesBefore = await count('app_release_packages');
    const releasesBefore = await count('app_releases');

    const bundle = hotBundle('refused');
    const wrongSum = refusal(await upload('hot', bundle, sha256(Buffer.from('something else'))));
    expect(wrongSum).toMatchObject({
      code: 400,
      message: 'The file’s SHA-256 checksum does not match the one given; upload it again',
    });

    const pdf = simplePdf([['not a bundle']]);
    expect(refusal(await upload('hot', pdf))).toMatchObject({
      code: 400,
      message: 'The file is not a hot-update bundle (a zip with index.html)',
    });
    // A zip, but a hot bundle is not an APK (and a zip without index.html is not a hot bundle).
    expect(refusal(await upload('full', bundle))).toMatchObject({
      code: 400,
      message: 'The file is not an Android package (APK)',
    });
    expect(refusal(await upload('hot', storedZip([{ name: 'readme.txt', content: 'x' }])))).toMatchObject({ code: 400 });

    const oversized = Buffer.alloc(RELEASE_PACKAGE_MAX_BYTES.hot + 1);
    bundle.copy(oversized);
    expect(refusal(await upload('hot', oversized))).toMatchObject({ code: 400, message: 'The package is larger than 30 MB' });

    const badQuery = await t.app.inject({
      method: 'POST',
      url: '/api/admin/releases/packages?kind=ios&sha256=xyz',
      headers: { authorization: `Bearer ${admin}`, lang: 'EN', 'content-type': 'application/octet-stream' },
      payload: bundle,
    });
    expect(refusal(badQuery).code).toBe(400);
    expect(await count('app_release_packages')).toBe(packagesBefore);

    const uploaded = await dataOf<{ id: string }>(upload('hot', bundle));
    const create = (versionCode: number) =>
      operatorCall(t, 'POST', '/api/admin/releases', admin, { packageId: uploaded.id, versionCode, versionName: '1.0.9' });
    expect(refusal(await create(APP_VERSION_CODE))).toMatchObject({
      code: 400,
      message: 'The version code must be higher than 10022',
    });
    expect(refusal(await create(10022))).toMatchObject({ code: 400, message: 'The version code must be higher than 10022' });
    expect(refusal(await create(10005))).toMatchObject({ code: 400 });
    const badName = await operatorCall(t, 'POST', '/api/admin/releases', admin, {
      packageId: uploaded.id,
      versionCode: 10030,
      versionName: 'latest',
    });
    expect(refusal(badName).code).toBe(400);
    expect(await count('app_releases')).toBe(releasesBefore);

    const { id } = await dataOf<{ id: string }>(create(10023));
    expect(refusal(await create(10024))).toMatchObject({ code: 409, message: 'This package already belongs to a release' });
    const badPercent = await operatorCall(t, 'POST', `/api/admin/releases/${id}/publish`, admin, { rolloutPercent: 101 });
    expect(refusal(badPercent).code).toBe(400);
    expect(await count('app_releases')).toBe(releasesBefore + 1);
  });

  it('places a member in a rollout by the documented bucket: the first 4 bytes of SHA-256("<release>:<member>"), big-endian, mod 100', () => {
    // Fixed vectors, computed outside this code base (Python's hashlib) from that definition.
    expect(rolloutBucket('00000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111')).toBe(38);
    expect(rolloutBucket('6f1c2b9e-3d4a-4c5b-9e8f-7a6b5c4d3e2f', '0a1b2c3d-4e5f-4061-8273-8495a6b7c8d9')).toBe(40);
    expect(rolloutBucket('release', 'member')).toBe(40);
  });

  it('stages a release to a share of members by a stable bucket, keeping everyone who had it as the share grows, and offers a full package over older hot bundles', async () => {
    const staged = await release('hot', 10040, hotBundle('staged'), 1);
    const members = Array.from({ length: 80 }, (): string => randomUUID());
    // The documented definition written out here, not the production function.
    const bucketOf = (memberId: string) =>
      Number.parseInt(createHash('sha256').update(`${staged.id}:${memberId}`).digest('hex').slice(0, 8), 16) % 100;
    let previous = new Set<string>();
    for (const percent of [1, 5, 10, 30, 50, 99, 100]) {
      if (percent !== 1) {
        await dataOf(operatorCall(t, 'POST', `/api/admin/releases/${staged.id}/publish`, admin, { rolloutPercent: percent }));
      }
      const answers = await Promise.all(members.map((id) => t.services.releases.appVersion(id)));
      const inside = new Set(members.filter((id) => bucketOf(id) < percent));
      // Outside the share: the newest fully rolled-out bundle (10022; 10023 is still a draft).
      members.forEach((id, index) => {
        expect(answers[index]!.hot_version_code, `member ${id} at ${percent}%`).toBe(inside.has(id) ? 10040 : 10022);
        if (inside.has(id)) expect(answers[index]!.hot_package_url).toBe(`/api/common/app_package/${staged.packageId}.zip`);
      });
      // Growing the share keeps everyone who had it.
      for (const id of previous) expect(inside.has(id), `member ${id} kept at ${percent}%`).toBe(true);
      if (percent === 30) {
        // The sample straddles the share (else this step would check nothing).
        expect(inside.size).toBeGreaterThan(0);
        expect(inside.size).toBeLessThan(members.length);
        // Same member, same answer; visitors get only full rollouts.
        expect(await t.services.releases.appVersion(members[0]!)).toEqual(answers[0]);
        expect((await appVersion()).hot_version_code).toBe(10022);
      }
      previous = inside;
    }
    expect(previous.size).toBe(members.length);
    expect(await actionsOn(staged.id)).toEqual([
      'releases.created',
      'releases.published',
      ...Array.from({ length: 6 }, () => 'releases.rollout_changed'),
    ]);
    expect((await appVersion()).hot_version_code).toBe(10040);

    const full = await release('full', 10050, apk('10050'));
    const answered = await appVersion(member);
    expect(answered).toMatchObject({
      version: '1.0.50',
      version_code: 10050,
      hot_version_code: 10050,
      package_url: `/api/common/app_package/${full.packageId}.apk`,
      // The hot bundles are older than the full package: built for an older shell, never offered.
      hot_package_url: '',
      hot_package_sha256: '',
    });
    const served = await t.app.inject({ method: 'GET', url: answered.package_url });
    expect(served.headers['content-type']).toBe('application/vnd.android.package-archive');
    expect(served.headers['content-disposition']).toBe('attachment; filename="custos-1.0.50.apk"');
  });

  it('rolls a release back: the previous one is answered again, its package is no longer served, it cannot be republished', async () => {
    const bad = await release('hot', 10060, hotBundle('bad'));
    expect((await appVersion()).hot_version_code).toBe(10060);
    await dataOf(operatorCall(t, 'POST', `/api/admin/releases/${bad.id}/rollback`, admin));
    const after = await appVersion();
    expect(after).toMatchObject({ version_code: 10050, hot_version_code: 10050, hot_package_url: '' });
    expect((await t.app.inject({ method: 'GET', url: `/api/common/app_package/${bad.packageId}.zip` })).statusCode).toBe(404);
    expect(refusal(await operatorCall(t, 'POST', `/api/admin/releases/${bad.id}/rollback`, admin))).toMatchObject({
      code: 409,
      message: 'Only a published release can be rolled back',
    });
    expect(
      refusal(await operatorCall(t, 'POST', `/api/admin/releases/${bad.id}/publish`, admin, { rolloutPercent: 100 })),
    ).toMatchObject({ code: 409 });
    expect(await actionsOn(bad.id)).toEqual(['releases.created', 'releases.published', 'releases.rolled_back']);
    // Its version code stays taken.
    const list = await dataOf<AdminReleases>(operatorCall(t, 'GET', '/api/admin/releases', admin));
    expect(list.highestVersionCode).toBe(10060);
    expect(list.items.find((item) => item.id === bad.id)).toMatchObject({ status: 'rolled_back' });
  });

  it('lets only operators with releases.manage in, and answers other languages', async () => {
    const bundle = hotBundle('forbidden');
    expect(refusal(await upload('hot', bundle, sha256(bundle), finance)).code).toBe(403);
    expect(refusal(await operatorCall(t, 'GET', '/api/admin/releases', finance)).code).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/releases' });
    expect(refusal(anonymous).code).toBe(401);
    // A stale member token on the public call: answered as a visitor, not refused.
    const stale = await t.app.inject({
      method: 'GET',
      url: '/api/common/app_version',
      headers: { authorization: 'not-a-token' },
    });
    expect(stale.json()).toMatchObject({ code: 200 });

    const japanese = await t.app.inject({
      method: 'POST',
      url: `/api/admin/releases/packages?kind=full&sha256=${sha256(bundle)}`,
      headers: { authorization: `Bearer ${admin}`, lang: 'JP', 'content-type': 'application/octet-stream' },
      payload: bundle,
    });
    expect(refusal(japanese).message).toBe('このファイルは Android パッケージ（APK）ではありません');
  });
});
