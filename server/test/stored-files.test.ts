import { createHash, randomBytes } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedZip } from '../src/lib/stored-zip.js';
import { dataOf, operatorCall } from './support/console-calls.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** Stored files (decision 053): packages streamed from the file store with ranges, and the per-address cap. */

const DOWNLOADS_PER_ADDRESS = 2;
let t: TestApp;
let admin: string;
let member: string;
let baseUrl = '';
/** A 30 MB APK: big enough that reading it whole before sending would show. */
let apk: Buffer;
let apkUrl = '';
/** Every stream the store handed out, newest last. */
const opened: Readable[] = [];

beforeAll(async () => {
  // Behind one trusted proxy (loopback) the tests choose each request's client address.
  t = await createTestApp({ TRUST_PROXY: 'loopback', DOWNLOADS_PER_ADDRESS: String(DOWNLOADS_PER_ADDRESS) });
  admin = await operatorToken(t, 'root-stored-files', 'super_admin');
  member = await registerMember(t, 'stored-files@example.com');
  const files = t.services.storage.files;
  const read = files.read.bind(files);
  files.read = (sha256, range) => {
    const stream = read(sha256, range);
    opened.push(stream);
    return stream;
  };
  apk = storedZip([
    { name: 'AndroidManifest.xml', content: Buffer.from([0x03, 0x00, 0x08, 0x00]) },
    { name: 'classes.dex', content: 'dex\n035\0stored' },
    { name: 'assets/payload.bin', content: randomBytes(30 * 1024 * 1024) },
  ]);
  const sha256 = createHash('sha256').update(apk).digest('hex');
  const uploaded = await dataOf<{ id: string }>(
    t.app.inject({
      method: 'POST',
      url: `/api/admin/releases/packages?kind=full&sha256=${sha256}`,
      headers: { authorization: `Bearer ${admin}`, lang: 'EN', 'content-type': 'application/octet-stream' },
      payload: apk,
    }),
  );
  const { id } = await dataOf<{ id: string }>(
    operatorCall(t, 'POST', '/api/admin/releases', admin, { packageId: uploaded.id, versionCode: 20001, versionName: '2.0.1' }),
  );
  await dataOf(operatorCall(t, 'POST', `/api/admin/releases/${id}/publish`, admin, { rolloutPercent: 100 }));
  apkUrl = `/api/common/app_package/${uploaded.id}.apk`;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await t.close();
});

/** A GET over a real socket as `address`; resolves on the answer's head (the body not read yet). */
function open(url: string, address: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    get(`${baseUrl}${url}`, { headers: { 'x-forwarded-for': address, ...headers } }, resolve).on('error', reject);
  });
}
function readAll(response: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', reject);
  });
}
function firstChunk(response: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    response.once('data', (chunk: Buffer) => {
      response.pause();
      resolve(chunk);
    });
  });
}
/** Polls (no fixed sleep) until `done` holds, failing after `limitMs`. */
async function until(done: () => boolean, limitMs = 5000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('stored files', () => {
  it('answers a range with exactly the bytes asked (206, Content-Range), and the whole file when If-Range names another version', async () => {
    const etag = `"${createHash('sha256').update(apk).digest('hex')}"`;
    const ranges: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=1048576-2097151', 1048576, 2097151],
      [`bytes=${apk.length - 10}-`, apk.length - 10, apk.length - 1],
      ['bytes=-7', apk.length - 7, apk.length - 1],
    ];
    for (const [header, start, end] of ranges) {
      const response = await open(apkUrl, '192.0.2.10', { range: header, 'if-range': etag });
      const body = await readAll(response);
      expect(response.statusCode, header).toBe(206);
      expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/${apk.length}`);
      expect(response.headers['accept-ranges']).toBe('bytes');
      expect(Number(response.headers['content-length'])).toBe(end - start + 1);
      expect(body.equals(apk.subarray(start, end + 1)), header).toBe(true);
    }
    const stale = await open(apkUrl, '192.0.2.10', { range: 'bytes=0-99', 'if-range': '"another-version"' });
    expect(stale.statusCode).toBe(200);
    expect((await readAll(stale)).equals(apk)).toBe(true);
    const beyond = await open(apkUrl, '192.0.2.10', { range: `bytes=${apk.length}-` });
    await readAll(beyond);
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${apk.length}`);
    const cached = await open(apkUrl, '192.0.2.10', { 'if-none-match': etag });
    await readAll(cached);
    expect(cached.statusCode).toBe(304);
  });

  it('streams a download: its first bytes arrive while the server has read only a part of the file', async () => {
    const before = opened.length;
    const response = await open(apkUrl, '192.0.2.11');
    const first = await firstChunk(response);
    const stream = opened[before] as Readable & { bytesRead: number };
    expect(stream).toBeDefined();
    // The whole file is 30 MB; what was read so far is a few buffers, not the file.
    expect(stream.bytesRead).toBeLessThan(apk.length / 2);
    response.resume();
    const rest = await readAll(response);
    expect(Buffer.concat([first, rest]).equals(apk)).toBe(true);
  });

  it(`answers 429 (localised) past ${DOWNLOADS_PER_ADDRESS} downloads from one address, while another address still downloads`, async () => {
    const busy = '198.51.100.7';
    const held = await Promise.all(Array.from({ length: DOWNLOADS_PER_ADDRESS }, () => open(apkUrl, busy)));
    await Promise.all(held.map((response) => firstChunk(response)));
    expect(held.map((response) => response.statusCode)).toEqual([200, 200]);

    const refused = await open(apkUrl, busy, { lang: 'ZH-HANS' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(JSON.parse((await readAll(refused)).toString('utf8'))).toMatchObject({
      code: 429,
      message: `此地址已有 ${DOWNLOADS_PER_ADDRESS} 个下载正在进行，请等待其中一个完成`,
    });
    const english = await open(apkUrl, busy, { lang: 'EN' });
    expect(JSON.parse((await readAll(english)).toString('utf8'))).toMatchObject({
      code: 429,
      message: `You already have ${DOWNLOADS_PER_ADDRESS} downloads running from this address: wait for one to finish`,
    });

    // Another address is not held back by the first one's downloads.
    const other = await open(apkUrl, '203.0.113.9');
    expect(other.statusCode).toBe(200);
    expect((await readAll(other)).equals(apk)).toBe(true);

    // A download that ends (here: the caller hangs up) gives its slot back.
    held[0]!.destroy();
    await until(() => t.services.storage.downloads.runningFor(busy) < DOWNLOADS_PER_ADDRESS);
    const again = await open(apkUrl, busy);
    expect(again.statusCode).toBe(200);
    expect((await readAll(again)).equals(apk)).toBe(true);
    held[1]!.destroy();
    await until(() => t.services.storage.downloads.runningFor(busy) === 0);
  });

  it('answers a logged-in call promptly while 12 downloads of the 30 MB package run', async () => {
    const downloads = Array.from({ length: 12 }, (_, index) =>
      open(apkUrl, `10.20.0.${index + 1}`).then(async (response) => ({
        status: response.statusCode,
        body: await readAll(response),
      })),
    );
    // Every download has started (holds its slot) before the call is timed.
    await until(
      () =>
        Array.from({ length: 12 }, (_, index) => t.services.storage.downloads.runningFor(`10.20.0.${index + 1}`)).every(
          (n) => n === 1,
        ),
      20_000,
    );
    const startedAt = performance.now();
    const info = await fetch(`${baseUrl}/api/user/info`, { headers: { authorization: `Bearer ${member}`, lang: 'EN' } });
    const elapsedMs = performance.now() - startedAt;
    expect(info.status).toBe(200);
    expect(((await info.json()) as { code: number }).code).toBe(200);
    // Reading the packages from the database made this 33 s; streamed files leave it near idle. A
    // generous bound: the machine is shared, and this only has to tell seconds from milliseconds.
    expect(elapsedMs).toBeLessThan(3000);
    for (const download of await Promise.all(downloads)) {
      expect(download.status).toBe(200);
      expect(download.body.length).toBe(apk.length);
    }
  }, 60_000);
});
