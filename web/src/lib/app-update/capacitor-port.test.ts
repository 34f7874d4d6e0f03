import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';

/*
 * The device port (issue 31): each Capacitor plugin is replaced by a double that answers as the
 * plugin's documented interface does (@capacitor/app's getInfo, @capacitor/core's getPlatform,
 * @capacitor/filesystem's getUri and readFile with base64 data on a device and a Blob on the web),
 * so what the port makes of those answers is checked, not only that it passes the plugins on.
 */

const bundleBytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0x80, 0x7f, 0x10]);
const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const calls = vi.hoisted(() => ({ getUri: [] as unknown[], readFile: [] as unknown[] }));
const answers = vi.hoisted((): { build: string; data: string | Blob } => ({ build: '10020', data: '' }));

vi.mock('@capacitor/core', () => ({ Capacitor: { getPlatform: () => 'android' } }));
vi.mock('@capacitor/app', () => ({
  App: { getInfo: async () => ({ name: 'Custos', id: 'com.custos.app', build: answers.build, version: '1.0.20' }) },
}));
vi.mock('@capacitor/filesystem', () => ({
  Directory: { Cache: 'CACHE', Data: 'DATA' },
  Filesystem: {
    async getUri(options: { path: string; directory: string }) {
      calls.getUri.push(options);
      return { uri: `file:///data/user/0/com.custos.app/cache/${options.path}` };
    },
    async readFile(options: { path: string }) {
      calls.readFile.push(options);
      return { data: answers.data };
    },
  },
}));
vi.mock('@capacitor/file-transfer', () => ({ FileTransfer: { downloadFile: vi.fn(), addListener: vi.fn() } }));
vi.mock('@capacitor-community/file-opener', () => ({ FileOpener: { open: vi.fn() } }));
vi.mock('@capgo/capacitor-updater', () => ({ CapacitorUpdater: { download: vi.fn(), next: vi.fn(), notifyAppReady: vi.fn() } }));

const { capacitorPort } = await import('./capacitor-port');
const { CapacitorUpdater } = await import('@capgo/capacitor-updater');
const { FileTransfer } = await import('@capacitor/file-transfer');
const { FileOpener } = await import('@capacitor-community/file-opener');

afterEach(() => {
  calls.getUri.length = 0;
  calls.readFile.length = 0;
  vi.unstubAllGlobals();
});

describe('the Capacitor update port', () => {
  it('reads the platform and the native version code from the build number', async () => {
    const port = capacitorPort();
    expect(port.platform).toBe('android');
    expect(await port.nativeVersionCode()).toBe(10020);
  });

  it('hands the flow the live-update, file-transfer and file-opener plugins themselves', () => {
    const port = capacitorPort();
    expect(port.liveUpdate).toBe(CapacitorUpdater);
    expect(port.fileTransfer).toBe(FileTransfer);
    expect(port.fileOpener).toBe(FileOpener);
  });

  it('puts the APK in the cache directory', async () => {
    const path = await capacitorPort().files.pathFor('custos-1.0.20.apk');
    expect(path).toBe('file:///data/user/0/com.custos.app/cache/custos-1.0.20.apk');
    expect(calls.getUri).toEqual([{ path: 'custos-1.0.20.apk', directory: 'CACHE' }]);
  });

  it('checks the SHA-256 of the bytes a device answers in base64, every byte value included', async () => {
    answers.data = Buffer.from(bundleBytes).toString('base64');
    const path = 'file:///data/user/0/com.custos.app/cache/custos.apk';
    expect(await capacitorPort().files.sha256(path)).toBe(sha256Of(bundleBytes));
    expect(calls.readFile).toEqual([{ path }]);
  });

  it('checks the SHA-256 of a Blob, as the plugin answers on the web', async () => {
    answers.data = new Blob([bundleBytes]);
    expect(await capacitorPort().files.sha256('custos.apk')).toBe(sha256Of(bundleBytes));
  });

  it('opens an external link in the system browser', () => {
    const open = vi.fn();
    vi.stubGlobal('window', { open });
    capacitorPort().openExternal('https://example.com/custos.apk');
    expect(open).toHaveBeenCalledExactlyOnceWith('https://example.com/custos.apk', '_system');
  });
});
