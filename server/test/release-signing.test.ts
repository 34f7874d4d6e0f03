import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hotBundleSignedMessage, RELEASE_TEST_PUBLIC_KEY, type AdminReleases, type AppVersion } from '@custos/contract';
import { RELEASE_TEST_SIGNING_KEY } from './support/release-test-key.js';
import { isReleaseTestKey, loadConfig } from '../src/config.js';
import type { DemoContext } from '../src/demo/context.js';
import { seedReleases } from '../src/demo/releases.js';
import { storedZip } from '../src/lib/stored-zip.js';
import { dataOf, operatorCall } from './support/console-calls.js';
import { operatorToken } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Decisions 053 and 057: the release step signs hot bundles with the release key given by
 * configuration, and without one makes no hot release at all.
 */

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let signing: TestApp;
let unsigned: TestApp;

beforeAll(async () => {
  signing = await createTestApp({ RELEASE_SIGNING_KEY: privatePem });
  unsigned = await createTestApp();
});
afterAll(async () => {
  await signing.close();
  await unsigned.close();
});

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

async function releaseHot(t: TestApp, token: string, versionCode: number, content: Buffer): Promise<string> {
  const uploaded = await dataOf<{ id: string }>(
    t.app.inject({
      method: 'POST',
      url: `/api/admin/releases/packages?kind=hot&sha256=${sha256(content)}`,
      headers: { authorization: `Bearer ${token}`, lang: 'EN', 'content-type': 'application/octet-stream' },
      payload: content,
    }),
  );
  const { id } = await dataOf<{ id: string }>(
    operatorCall(t, 'POST', '/api/admin/releases', token, {
      packageId: uploaded.id,
      versionCode,
      versionName: `3.0.${versionCode}`,
    }),
  );
  await dataOf(operatorCall(t, 'POST', `/api/admin/releases/${id}/publish`, token, { rolloutPercent: 100 }));
  return id;
}

describe('signed hot bundles', () => {
  it('signs a hot bundle’s SHA-256 and version with the release key; the signature verifies only for that pair', async () => {
    const admin = await operatorToken(signing, 'root-signing', 'super_admin');
    const bundle = storedZip([{ name: 'index.html', content: '<!doctype html><title>signed</title>' }]);
    const id = await releaseHot(signing, admin, 30001, bundle);
    const answer = await dataOf<AppVersion>(signing.app.inject({ method: 'GET', url: '/api/common/app_version' }));
    expect(answer.hot_version_code).toBe(30001);
    const signature = Buffer.from(answer.hot_package_signature ?? '', 'base64');
    expect(signature.length).toBe(64);
    const signed = (versionCode: number, hash: string) =>
      verify(null, Buffer.from(hotBundleSignedMessage(versionCode, hash)), publicKey, signature);
    expect(signed(30001, sha256(bundle))).toBe(true);
    // Not for other bytes, nor for another version of the same bytes.
    expect(signed(30001, sha256(Buffer.concat([bundle, Buffer.from([0])])))).toBe(false);
    expect(signed(30002, sha256(bundle))).toBe(false);
    // Another key's public half does not verify it.
    expect(
      verify(
        null,
        Buffer.from(hotBundleSignedMessage(30001, sha256(bundle))),
        generateKeyPairSync('ed25519').publicKey,
        signature,
      ),
    ).toBe(false);
    const list = await dataOf<AdminReleases>(operatorCall(signing, 'GET', '/api/admin/releases', admin));
    expect(list.items.find((item) => item.id === id)).toMatchObject({ signed: true });
    // The key is given by configuration only: nothing in the release's row or audit holds it.
    const rows = await signing.testDatabase.database.sql.executeSql(
      `select (select count(*)::int from app_releases where signature like '%PRIVATE%') +
              (select count(*)::int from audit_log where after::text like '%PRIVATE%') as n`,
    );
    expect(rows.rows).toEqual([{ n: 0 }]);
  });

  it('refuses a hot release without a release key, in the operator’s language, and changes nothing; a full release is still made', async () => {
    const admin = await operatorToken(unsigned, 'root-unsigned', 'super_admin');
    const before = await dataOf<AppVersion>(unsigned.app.inject({ method: 'GET', url: '/api/common/app_version' }));
    const bundle = storedZip([{ name: 'index.html', content: '<!doctype html><title>unsigned</title>' }]);
    const uploaded = await dataOf<{ id: string }>(
      unsigned.app.inject({
        method: 'POST',
        url: `/api/admin/releases/packages?kind=hot&sha256=${sha256(bundle)}`,
        headers: { authorization: `Bearer ${admin}`, lang: 'EN', 'content-type': 'application/octet-stream' },
        payload: bundle,
      }),
    );
    const draft = { packageId: uploaded.id, versionCode: 30011, versionName: '3.0.30011' };
    const refused = await operatorCall(unsigned, 'POST', '/api/admin/releases', admin, draft);
    expect(refused.json()).toEqual({
      code: 409,
      message: 'The server has no release signing key (RELEASE_SIGNING_KEY): a hot-update bundle cannot be released unsigned',
      data: null,
    });
    const chinese = await unsigned.app.inject({
      method: 'POST',
      url: '/api/admin/releases',
      headers: { authorization: `Bearer ${admin}`, lang: 'CN' },
      payload: draft,
    });
    expect(chinese.json<{ message: string }>().message).toBe(
      '服务器未配置发布签名密钥（RELEASE_SIGNING_KEY），热更新包不能未签名发布',
    );
    const list = await dataOf<AdminReleases>(operatorCall(unsigned, 'GET', '/api/admin/releases', admin));
    expect(list.items.filter((item) => item.versionCode === 30011)).toEqual([]);
    expect(await dataOf<AppVersion>(unsigned.app.inject({ method: 'GET', url: '/api/common/app_version' }))).toEqual(before);

    // An APK carries Android's own signature: it needs no release key.
    const apk = storedZip([
      { name: 'AndroidManifest.xml', content: 'manifest' },
      { name: 'classes.dex', content: 'dex' },
    ]);
    const apkPackage = await dataOf<{ id: string }>(
      unsigned.app.inject({
        method: 'POST',
        url: `/api/admin/releases/packages?kind=full&sha256=${sha256(apk)}`,
        headers: { authorization: `Bearer ${admin}`, lang: 'EN', 'content-type': 'application/octet-stream' },
        payload: apk,
      }),
    );
    await dataOf(
      operatorCall(unsigned, 'POST', '/api/admin/releases', admin, {
        packageId: apkPackage.id,
        versionCode: 30012,
        versionName: '3.0.30012',
      }),
    );
  });

  it('refuses to publish a hot draft that has no signature (made before releases were always signed)', async () => {
    const admin = await operatorToken(signing, 'root-legacy', 'super_admin');
    const bundle = storedZip([{ name: 'index.html', content: '<!doctype html><title>legacy</title>' }]);
    const uploaded = await dataOf<{ id: string }>(
      signing.app.inject({
        method: 'POST',
        url: `/api/admin/releases/packages?kind=hot&sha256=${sha256(bundle)}`,
        headers: { authorization: `Bearer ${admin}`, lang: 'EN', 'content-type': 'application/octet-stream' },
        payload: bundle,
      }),
    );
    const { id } = await dataOf<{ id: string }>(
      operatorCall(signing, 'POST', '/api/admin/releases', admin, {
        packageId: uploaded.id,
        versionCode: 30021,
        versionName: '3.0.30021',
      }),
    );
    await signing.testDatabase.database.sql.executeSql(`update app_releases set signature = null where id = '${id}'`);
    const before = await dataOf<AppVersion>(signing.app.inject({ method: 'GET', url: '/api/common/app_version' }));
    const refused = await operatorCall(signing, 'POST', `/api/admin/releases/${id}/publish`, admin, { rolloutPercent: 100 });
    expect(refused.json()).toMatchObject({
      code: 409,
      message: 'This hot-update release is unsigned and cannot be published; release the bundle again with the signing key set',
    });
    const list = await dataOf<AdminReleases>(operatorCall(signing, 'GET', '/api/admin/releases', admin));
    expect(list.items.find((item) => item.id === id)).toMatchObject({ status: 'draft', signed: false });
    expect(await dataOf<AppVersion>(signing.app.inject({ method: 'GET', url: '/api/common/app_version' }))).toEqual(before);
  });

  it('never offers a published hot release without a signature (published before releases were always signed)', async () => {
    const admin = await operatorToken(signing, 'root-published-unsigned', 'super_admin');
    const offered = await dataOf<AppVersion>(signing.app.inject({ method: 'GET', url: '/api/common/app_version' }));
    expect(offered).toMatchObject({ hot_version_code: 30001 });
    const bundle = storedZip([{ name: 'index.html', content: '<!doctype html><title>published unsigned</title>' }]);
    const id = await releaseHot(signing, admin, 30031, bundle);
    expect(await dataOf<AppVersion>(signing.app.inject({ method: 'GET', url: '/api/common/app_version' }))).toMatchObject({
      hot_version_code: 30031,
    });
    await signing.testDatabase.database.sql.executeSql(`update app_releases set signature = null where id = '${id}'`);
    // Every app refuses it: the newest signed one is offered instead, as before it was published.
    expect(await dataOf<AppVersion>(signing.app.inject({ method: 'GET', url: '/api/common/app_version' }))).toEqual(offered);
  });

  it('the demo publishes no hot release on a server without the key (demo-seed.test.ts checks the signed one)', async () => {
    const before = await unsigned.services.releases.list();
    const demo = (t: TestApp) =>
      ({ services: t.services, operatorId: '', origin: { ip: '127.0.0.1', requestId: 'demo' } }) as unknown as DemoContext;
    await seedReleases(demo(unsigned));
    expect(await unsigned.services.releases.list()).toEqual(before);
    expect(unsigned.services.releases.signsHotBundles).toBe(false);
    expect(signing.services.releases.signsHotBundles).toBe(true);
  });

  it('refuses the committed test key on a production server, unless it is a test server', () => {
    const production = { NODE_ENV: 'production', RELEASE_SIGNING_KEY: RELEASE_TEST_SIGNING_KEY };
    expect(() => loadConfig(production)).toThrow(/RELEASE_SIGNING_KEY is the committed test key/);
    expect(isReleaseTestKey(loadConfig({ ...production, TEST_CLOCK_CONTROL: 'true' }).releaseSigningKey!)).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', RELEASE_SIGNING_KEY: privatePem }).releaseSigningKey).toBeDefined();
    // Its public half is the one the contract names (the app's test double trusts that one).
    const publicHalf = createPublicKey(RELEASE_TEST_SIGNING_KEY).export({ format: 'jwk' }).x!;
    expect(Buffer.from(publicHalf, 'base64url').toString('base64')).toBe(RELEASE_TEST_PUBLIC_KEY);
  });

  it('refuses a release key that is not an Ed25519 private key at start-up', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(() => loadConfig({ RELEASE_SIGNING_KEY: rsa })).toThrow(/RELEASE_SIGNING_KEY is not an Ed25519 private key/);
    expect(() => loadConfig({ RELEASE_SIGNING_KEY: 'not a key' })).toThrow(/RELEASE_SIGNING_KEY/);
    const der = privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    expect(loadConfig({ RELEASE_SIGNING_KEY: der }).releaseSigningKey?.asymmetricKeyType).toBe('ed25519');
  });
});
