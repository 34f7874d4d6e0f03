import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hotBundleSignedMessage, type AdminReleases, type AppVersion } from '@custos/contract';
import { loadConfig } from '../src/config.js';
import { storedZip } from '../src/lib/stored-zip.js';
import { dataOf, operatorCall } from './support/console-calls.js';
import { operatorToken } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** Decision 053: the release step signs hot bundles with the release key given by configuration. */

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

  it('makes a release unsigned without a release key, and the console shows it unsigned', async () => {
    const admin = await operatorToken(unsigned, 'root-unsigned', 'super_admin');
    const bundle = storedZip([{ name: 'index.html', content: '<!doctype html><title>unsigned</title>' }]);
    const id = await releaseHot(unsigned, admin, 30011, bundle);
    const answer = await dataOf<AppVersion>(unsigned.app.inject({ method: 'GET', url: '/api/common/app_version' }));
    expect(answer).toMatchObject({ hot_version_code: 30011, hot_package_signature: '' });
    const list = await dataOf<AdminReleases>(operatorCall(unsigned, 'GET', '/api/admin/releases', admin));
    expect(list.items.find((item) => item.id === id)).toMatchObject({ signed: false });
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
