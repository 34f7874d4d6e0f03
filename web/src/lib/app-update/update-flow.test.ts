import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APP_VERSION_CODE,
  RELEASE_TEST_PUBLIC_KEY,
  REQUEST_TIMEOUT_MS,
  hotBundleSignedMessage,
  type AppVersion,
} from '@custos/contract';
import { hotBundleSignatureValid, trustedReleaseKey } from './bundle-signature';
import { APK_CONTENT_TYPE, megabytes, packageType, runUpdate, type UpdateUi } from './update-flow';
import { BUILTIN_BUNDLE_ID, type BundleInfo, type ProgressStatus, type UpdaterPort } from './updater-port';

/*
 * The update flow through every branch, with the plugins replaced by doubles of their documented
 * interfaces (@capgo/capacitor-updater, @capacitor/file-transfer, @capacitor-community/file-opener).
 */

const MB = 1024 * 1024;
const APK_SHA = 'a'.repeat(64);
const ZIP_SHA = 'b'.repeat(64);

function versionConfig(overrides: Partial<AppVersion> = {}): AppVersion {
  return {
    version: '1.0.19',
    version_code: APP_VERSION_CODE,
    hot_version_code: APP_VERSION_CODE,
    package_url: '',
    hot_package_url: '',
    release_notes: '',
    package_sha256: '',
    package_size: 0,
    hot_package_sha256: '',
    hot_package_size: 0,
    ...overrides,
  };
}
const fullNewer = versionConfig({
  version: '1.0.30',
  version_code: 10030,
  hot_version_code: 10030,
  package_url: '/api/common/app_package/f.apk',
  package_sha256: APK_SHA,
  package_size: 20 * MB,
});
const unsignedHotNewer = versionConfig({
  version: '1.0.20',
  hot_version_code: 10020,
  hot_package_url: '/api/common/app_package/h.zip',
  hot_package_sha256: ZIP_SHA,
  hot_package_size: 4 * MB,
});

const toBase64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
/** A release key of this test run: its public half (base64, raw 32 bytes) and a signer of bundles. */
async function releaseKey() {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  const publicKey = toBase64(await crypto.subtle.exportKey('raw', pair.publicKey));
  const sign = async (versionCode: number, sha256: string) =>
    toBase64(
      await crypto.subtle.sign(
        { name: 'Ed25519' },
        pair.privateKey,
        new TextEncoder().encode(hotBundleSignedMessage(versionCode, sha256)),
      ),
    );
  return { publicKey, sign };
}

/** The app's release key in the flow's tests, and the hot bundle offered signed by it. */
let appKey: Awaited<ReturnType<typeof releaseKey>>;
let keyed: { releasePublicKey: string };
let hotNewer: AppVersion;
beforeAll(async () => {
  appKey = await releaseKey();
  keyed = { releasePublicKey: appKey.publicKey };
  hotNewer = { ...unsignedHotNewer, hot_package_signature: await appKey.sign(10020, ZIP_SHA) };
});

interface Behaviour {
  platform: string;
  runningBundle: BundleInfo | null;
  /** What downloads do: finish, fail, or never answer (a stalled connection). */
  download: 'ok' | 'fail' | 'stall';
  fileSha256: string;
  bundleChecksum: string;
  installFails: boolean;
  nextFails: boolean;
}

function fakePort(overrides: Partial<Behaviour> = {}) {
  const behaviour: Behaviour = {
    platform: 'android',
    runningBundle: null,
    download: 'ok',
    fileSha256: APK_SHA,
    bundleChecksum: ZIP_SHA,
    installFails: false,
    nextFails: false,
    ...overrides,
  };
  const calls: string[] = [];
  let hotListener: ((state: { percent: number; bundle: BundleInfo }) => void) | null = null;
  let fileListener: ((status: ProgressStatus) => void) | null = null;
  const settle = <T>(value: () => T): Promise<T> =>
    behaviour.download === 'stall'
      ? new Promise<T>(() => undefined)
      : behaviour.download === 'fail'
        ? Promise.reject(new Error('connection reset'))
        : Promise.resolve(value());
  const builtin: BundleInfo = { id: BUILTIN_BUNDLE_ID, version: '1.0.19', downloaded: '', checksum: '', status: 'success' };
  const port: UpdaterPort = {
    platform: behaviour.platform,
    nativeVersionCode: () => Promise.resolve(APP_VERSION_CODE),
    liveUpdate: {
      current: () => Promise.resolve({ bundle: behaviour.runningBundle ?? builtin, native: '1.0.19' }),
      download: (options) => {
        calls.push(`updater.download ${options.url} ${options.version} ${options.checksum}`);
        const bundle: BundleInfo = { id: 'b1', version: options.version, downloaded: '', checksum: '', status: 'downloading' };
        hotListener?.({ percent: 50, bundle });
        return settle(() => ({ ...bundle, checksum: behaviour.bundleChecksum, status: 'pending' as const }));
      },
      next: ({ id }) => {
        calls.push(`updater.next ${id}`);
        return behaviour.nextFails
          ? Promise.reject(new Error('bundle cannot be set'))
          : Promise.resolve({ id, version: '10020', downloaded: '', checksum: ZIP_SHA, status: 'pending' as const });
      },
      reload: () => {
        calls.push('updater.reload');
        return Promise.resolve();
      },
      notifyAppReady: () => Promise.resolve({ bundle: builtin }),
      addListener: (_event, listener) => {
        hotListener = listener;
        return Promise.resolve({ remove: async () => void (hotListener = null) });
      },
    },
    fileTransfer: {
      downloadFile: (options) => {
        calls.push(`transfer.download ${options.url} → ${options.path} timeout ${options.readTimeout}`);
        fileListener?.({ type: 'download', url: options.url, bytes: 5 * MB, contentLength: 20 * MB, lengthComputable: true });
        return settle(() => ({ path: options.path }));
      },
      addListener: (_event, listener) => {
        fileListener = listener;
        return Promise.resolve({ remove: async () => void (fileListener = null) });
      },
    },
    files: {
      pathFor: (name) => Promise.resolve(`file:///cache/${name}`),
      sha256: () => Promise.resolve(behaviour.fileSha256),
    },
    fileOpener: {
      open: (options) => {
        calls.push(`opener.open ${options.filePath} ${options.contentType}`);
        return behaviour.installFails ? Promise.reject(new Error('installer refused')) : Promise.resolve();
      },
    },
    openExternal: (url) => calls.push(`external ${url}`),
  };
  return { port, calls };
}

function recordingUi(answers: { confirm?: boolean; restart?: boolean } = {}) {
  const shown: string[] = [];
  const ui: UpdateUi = {
    confirm: () => {
      shown.push('confirm');
      return Promise.resolve(answers.confirm ?? true);
    },
    progress: (received, total) => shown.push(`progress ${received}/${total} MB`),
    finished: () => shown.push('finished'),
    failed: (reason) => shown.push(`failed ${reason}`),
    restartPrompt: (kind) => {
      shown.push(`restart ${kind}`);
      return Promise.resolve(kind === 'alert' && (answers.restart ?? true));
    },
  };
  return { ui, shown };
}

beforeEach(() => {
  vi.stubGlobal('location', { href: 'https://custos.example/#/pages/setting/setting5' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the update flow', () => {
  it('neither newer: nothing is asked or downloaded', async () => {
    const { port, calls } = fakePort();
    const { ui, shown } = recordingUi();
    expect(await runUpdate(versionConfig(), port, ui, keyed)).toBe('up_to_date');
    // A hot bundle already running at the offered version counts as installed.
    const running = fakePort({
      runningBundle: { id: 'x', version: '10020', downloaded: '', checksum: ZIP_SHA, status: 'success' },
    });
    expect(await runUpdate(hotNewer, running.port, ui, keyed)).toBe('up_to_date');
    expect([...shown, ...calls, ...running.calls]).toEqual([]);
  });

  it('hot newer: asks, downloads with progress in MB, checks the checksum, sets it for the next start, offers a restart', async () => {
    const { port, calls } = fakePort();
    const { ui, shown } = recordingUi();
    expect(await runUpdate(hotNewer, port, ui, keyed)).toBe('hot_ready');
    expect(shown).toEqual(['confirm', 'progress 0.0/4.0 MB', 'progress 2.0/4.0 MB', 'finished', 'restart alert']);
    expect(calls).toEqual([
      `updater.download https://custos.example/api/common/app_package/h.zip 10020 ${ZIP_SHA}`,
      'updater.next b1',
      'updater.reload',
    ]);
  });

  it('declined: nothing is downloaded', async () => {
    const { port, calls } = fakePort();
    const { ui, shown } = recordingUi({ confirm: false });
    expect(await runUpdate(hotNewer, port, ui, keyed)).toBe('declined');
    expect(shown).toEqual(['confirm']);
    expect(calls).toEqual([]);
  });

  it('full newer on Android: downloads the APK (MB progress, 60 s time-outs), checks it, opens the installer, then the restart alert', async () => {
    const { port, calls } = fakePort();
    const { ui, shown } = recordingUi({ restart: false });
    expect(await runUpdate(fullNewer, port, ui, keyed)).toBe('full_installed');
    expect(shown).toEqual(['confirm', 'progress 0.0/20.0 MB', 'progress 5.0/20.0 MB', 'finished', 'restart alert']);
    expect(calls).toEqual([
      `transfer.download https://custos.example/api/common/app_package/f.apk → file:///cache/custos-10030.apk timeout ${REQUEST_TIMEOUT_MS}`,
      `opener.open file:///cache/custos-10030.apk ${APK_CONTENT_TYPE}`,
    ]);
  });

  it('full newer elsewhere than Android, or a package of another type: the link opens externally', async () => {
    const ios = fakePort({ platform: 'ios' });
    const { ui, shown } = recordingUi();
    expect(await runUpdate(fullNewer, ios.port, ui, keyed)).toBe('opened_externally');
    expect(ios.calls).toEqual(['external https://custos.example/api/common/app_package/f.apk']);

    const android = fakePort();
    const store = { ...fullNewer, package_url: 'https://play.example/store/apps/custos' };
    expect(await runUpdate(store, android.port, ui, keyed)).toBe('opened_externally');
    const hotElsewhere = { ...hotNewer, hot_package_url: '/downloads/custos.wgt' };
    expect(await runUpdate(hotElsewhere, android.port, ui, keyed)).toBe('opened_externally');
    expect(android.calls).toEqual([
      'external https://play.example/store/apps/custos',
      'external https://custos.example/downloads/custos.wgt',
    ]);
    expect(shown).toEqual(['confirm', 'confirm', 'confirm']);
  });

  it('checksum mismatch: "download failed", nothing installed or set', async () => {
    const apk = fakePort({ fileSha256: 'c'.repeat(64) });
    const { ui, shown } = recordingUi();
    expect(await runUpdate(fullNewer, apk.port, ui, keyed)).toBe('download_failed');
    expect(apk.calls.some((call) => call.startsWith('opener.open'))).toBe(false);

    const bundle = fakePort({ bundleChecksum: 'c'.repeat(64) });
    expect(await runUpdate(hotNewer, bundle.port, ui, keyed)).toBe('download_failed');
    expect(bundle.calls.some((call) => call.startsWith('updater.next'))).toBe(false);
    expect(shown.filter((entry) => entry.startsWith('failed'))).toEqual(['failed download', 'failed download']);
  });

  it('download failure: "download failed" for the APK and the hot bundle', async () => {
    const { ui, shown } = recordingUi();
    expect(await runUpdate(fullNewer, fakePort({ download: 'fail' }).port, ui, keyed)).toBe('download_failed');
    expect(await runUpdate(hotNewer, fakePort({ download: 'fail' }).port, ui, keyed)).toBe('download_failed');
    expect(shown.filter((entry) => entry.startsWith('failed') || entry === 'finished')).toEqual([
      'failed download',
      'finished',
      'failed download',
      'finished',
    ]);
  });

  it('install failure: "installation failed" when the installer refuses the APK or the bundle cannot be set', async () => {
    const { ui, shown } = recordingUi();
    expect(await runUpdate(fullNewer, fakePort({ installFails: true }).port, ui, keyed)).toBe('install_failed');
    expect(await runUpdate(hotNewer, fakePort({ nextFails: true }).port, ui, keyed)).toBe('install_failed');
    expect(shown.filter((entry) => entry.startsWith('failed') || entry.startsWith('restart'))).toEqual([
      'failed install',
      'failed install',
    ]);
  });

  it('time-out: a download without progress for 60 s fails as "download failed"', async () => {
    // Only the timers are faked: the signature is checked by WebCrypto, which answers on a real turn
    // of the event loop, and the download (with its deadline) starts after that.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { port } = fakePort({ download: 'stall' });
    const { ui, shown } = recordingUi();
    const outcome = runUpdate(hotNewer, port, ui, keyed);
    while (!shown.includes('progress 0.0/4.0 MB')) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(shown).not.toContain('failed download');
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe('download_failed');
    expect(shown.slice(-2)).toEqual(['failed download', 'finished']);

    const apk = runUpdate(fullNewer, fakePort({ download: 'stall' }).port, ui, keyed);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(await apk).toBe('download_failed');
  });

  it('on platforms without the restart alert the restart is a message', async () => {
    const { port, calls } = fakePort({ platform: 'web' });
    const { ui, shown } = recordingUi();
    expect(await runUpdate(hotNewer, port, ui, keyed)).toBe('hot_ready');
    expect(shown.at(-1)).toBe('restart message');
    expect(calls).not.toContain('updater.reload');
  });

  it('reads package types and megabytes', () => {
    expect(packageType('/api/common/app_package/x.apk')).toBe('apk');
    expect(packageType('https://cdn.example/b.ZIP?sig=1')).toBe('zip');
    expect(packageType('https://store.example/app')).toBe('other');
    expect(megabytes(1.5 * MB)).toBe('1.5');
  });
});

describe('signed hot bundles (decisions 053, 057)', () => {
  it('applies a hot bundle signed by the release key', async () => {
    const key = await releaseKey();
    const { port, calls } = fakePort();
    const { ui } = recordingUi();
    const signed = { ...unsignedHotNewer, hot_package_signature: await key.sign(10020, ZIP_SHA) };
    expect(await runUpdate(signed, port, ui, { releasePublicKey: key.publicKey })).toBe('hot_ready');
    expect(calls).toContain('updater.next b1');
  });

  it('refuses an unsigned bundle, one signed for another version or checksum, and one signed by another key: nothing downloaded or applied', async () => {
    const key = await releaseKey();
    const other = await releaseKey();
    const cases: [string, string | undefined][] = [
      ['unsigned (no field)', undefined],
      ['unsigned (empty)', ''],
      ['another version', await key.sign(10021, ZIP_SHA)],
      ['another checksum', await key.sign(10020, 'c'.repeat(64))],
      ['another key', await other.sign(10020, ZIP_SHA)],
      ['not base64', '%%%'],
    ];
    for (const [label, signature] of cases) {
      const { port, calls } = fakePort();
      const { ui, shown } = recordingUi();
      const config = { ...unsignedHotNewer, ...(signature === undefined ? {} : { hot_package_signature: signature }) };
      expect(await runUpdate(config, port, ui, { releasePublicKey: key.publicKey }), label).toBe('signature_refused');
      expect(calls, label).toEqual([]);
      expect(shown, label).toEqual(['confirm', 'failed download']);
    }
  });

  it('checks the signature of exactly the version and SHA-256 offered', async () => {
    const key = await releaseKey();
    const signature = await key.sign(10020, ZIP_SHA);
    expect(await hotBundleSignatureValid(key.publicKey, 10020, ZIP_SHA, signature)).toBe(true);
    expect(await hotBundleSignatureValid(key.publicKey, 10020, ZIP_SHA.toUpperCase(), signature)).toBe(true);
    expect(await hotBundleSignatureValid(key.publicKey, 10019, ZIP_SHA, signature)).toBe(false);
    expect(await hotBundleSignatureValid('', 10020, ZIP_SHA, signature)).toBe(false);
  });

  it('an app built without a release key refuses every hot bundle, signed or not, unasked, and says updates come through the store', async () => {
    const signedByAnyone = await releaseKey();
    const offers: [string, AppVersion][] = [
      ['unsigned', unsignedHotNewer],
      ['signed', { ...unsignedHotNewer, hot_package_signature: await signedByAnyone.sign(10020, ZIP_SHA) }],
      ['elsewhere', { ...unsignedHotNewer, hot_package_url: '/downloads/custos.wgt' }],
    ];
    for (const [label, config] of offers) {
      for (const options of [{}, { releasePublicKey: '' }]) {
        const { port, calls } = fakePort();
        const { ui, shown } = recordingUi();
        expect(await runUpdate(config, port, ui, options), label).toBe('store_only');
        expect(calls, label).toEqual([]);
        expect(shown, label).toEqual(['failed store']);
      }
    }
    // A newer full package still updates it (Android checks the package's own signature).
    const { port, calls } = fakePort();
    expect(await runUpdate(fullNewer, port, recordingUi().ui)).toBe('full_installed');
    expect(calls.some((call) => call.startsWith('opener.open'))).toBe(true);
  });

  it('trusts the key built in on every layer; without one, the test key on the browser test double only', () => {
    const builtIn = 'A'.repeat(43) + '=';
    expect(trustedReleaseKey(builtIn, { testDouble: false })).toBe(builtIn);
    expect(trustedReleaseKey(builtIn, { testDouble: true })).toBe(builtIn);
    expect(trustedReleaseKey('', { testDouble: false })).toBe('');
    expect(trustedReleaseKey('', {})).toBe('');
    expect(trustedReleaseKey('', { testDouble: true })).toBe(RELEASE_TEST_PUBLIC_KEY);
  });
});
