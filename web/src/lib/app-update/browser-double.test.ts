import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserDouble, DOUBLE_STATE_KEY } from './browser-double';

/** The browser test double keeps the live-update plugin's documented behaviour: verify, next, start, ready or roll back. */

const zipBytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new TextEncoder().encode('index.html <!doctype html>')]);
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

function make(storage = memoryStorage(), body: Uint8Array = zipBytes) {
  const reloads: number[] = [];
  const double = browserDouble({
    storage,
    fetch: async () => new Response(body.slice().buffer, { headers: { 'content-length': String(body.length) } }),
    reloadPage: () => reloads.push(Date.now()),
    openExternal: () => undefined,
    nativeVersionCode: 10019,
    nativeVersionName: '1.0.19',
    appReadyTimeoutMs: 10_000,
    now: () => new Date('2026-11-27T00:00:00Z'),
    randomId: () => 'bundle-1',
  });
  return { double, storage, reloads };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the browser test double of the live-update layer', () => {
  it('downloads with progress and a checked SHA-256; the next start runs the bundle; notifyAppReady keeps it', async () => {
    const { double, storage } = make();
    double.start();
    expect((await double.liveUpdate.current()).bundle).toMatchObject({ id: 'builtin', version: '1.0.19' });
    const percents: number[] = [];
    await double.liveUpdate.addListener('download', ({ percent }) => percents.push(percent));
    const bundle = await double.liveUpdate.download({ url: '/b.zip', version: '10020', checksum: sha(zipBytes) });
    expect(bundle).toEqual({
      id: 'bundle-1',
      version: '10020',
      downloaded: '2026-11-27T00:00:00.000Z',
      checksum: sha(zipBytes),
      status: 'pending',
    });
    expect(percents.at(-1)).toBe(100);
    await double.liveUpdate.next({ id: bundle.id });
    // Still the old bundle until the app starts again.
    expect((await double.liveUpdate.current()).bundle.id).toBe('builtin');

    const restarted = make(storage);
    restarted.double.start();
    expect((await restarted.double.liveUpdate.current()).bundle).toMatchObject({ id: 'bundle-1', status: 'pending' });
    await restarted.double.liveUpdate.notifyAppReady();
    expect((await restarted.double.liveUpdate.current()).bundle).toMatchObject({ id: 'bundle-1', status: 'success' });
  });

  it('refuses a checksum mismatch and a file that is not a zip', async () => {
    const { double } = make();
    await expect(double.liveUpdate.download({ url: '/b.zip', version: '10020', checksum: 'f'.repeat(64) })).rejects.toThrow(
      'checksum mismatch',
    );
    const notZip = make(memoryStorage(), new TextEncoder().encode('<html>'));
    await expect(notZip.double.liveUpdate.download({ url: '/b.zip', version: '10020' })).rejects.toThrow('not a zip');
  });

  it('rolls back a bundle that does not report healthy within appReadyTimeout', async () => {
    vi.useFakeTimers();
    const { double, storage } = make();
    const bundle = await double.liveUpdate.download({ url: '/b.zip', version: '10020', checksum: sha(zipBytes) });
    await double.liveUpdate.next({ id: bundle.id });
    const broken = make(storage);
    broken.double.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(broken.reloads).toHaveLength(1);
    expect((await broken.double.liveUpdate.current()).bundle.id).toBe('builtin');
    const state = JSON.parse(storage.getItem(DOUBLE_STATE_KEY)!) as { bundles: { status: string }[] };
    expect(state.bundles[0]!.status).toBe('error');
    // A bundle that failed is never set again.
    await expect(broken.double.liveUpdate.next({ id: bundle.id })).rejects.toThrow();
  });

  it('keeps a downloaded APK for its checksum and records what the installer was given', async () => {
    const { double, storage } = make();
    const path = await double.files.pathFor('custos-10030.apk');
    const progress: number[] = [];
    await double.fileTransfer.addListener('progress', (status) => progress.push(status.bytes));
    await double.fileTransfer.downloadFile({ url: '/f.apk', path, progress: true });
    expect(progress.at(-1)).toBe(zipBytes.length);
    expect(await double.files.sha256(path)).toBe(sha(zipBytes));
    await double.fileOpener.open({ filePath: path, contentType: 'application/vnd.android.package-archive' });
    expect(JSON.parse(storage.getItem(DOUBLE_STATE_KEY)!)).toMatchObject({ installed: [path] });
  });
});
