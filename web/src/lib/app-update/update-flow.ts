import { REQUEST_TIMEOUT_MS, type AppVersion } from '@custos/contract';
import { hotBundleSignatureValid } from './bundle-signature';

export { trustedReleaseKey } from './bundle-signature';
import { BUILTIN_BUNDLE_ID, type UpdaterPort } from './updater-port';

/*
 * The in-app update (spec §4, §8, §9; decision 037). If the hot version is newer than the installed
 * one the member is asked; then a newer full package is downloaded (progress in MB), checked
 * against its SHA-256 and handed to the package installer, else the hot bundle is downloaded,
 * checked and set to start with the next launch; a restart is offered (Android: an alert with a
 * restart button; elsewhere a message). A package of another type opens in the browser. A download
 * that makes no progress for 60 s fails; failures say "download failed" or "installation failed".
 */

export type UpdateOutcome =
  | 'up_to_date'
  | 'declined'
  | 'full_installed'
  | 'hot_ready'
  | 'opened_externally'
  | 'download_failed'
  | 'install_failed'
  /** The hot bundle is unsigned or not signed by the release key: never downloaded, never applied. */
  | 'signature_refused'
  /** The app has no release key to check hot bundles with: none is applied, updates come through the store. */
  | 'store_only';

/** What the flow shows; the screens implement it with the UI kit (AppUpdate.tsx), tests record it. */
export interface UpdateUi {
  /** "New version detected…": true to update now. */
  confirm(config: AppVersion): Promise<boolean>;
  /** Download progress, in MB with one decimal. */
  progress(receivedMb: string, totalMb: string): void;
  /** The download ended (either way): progress is hidden. */
  finished(): void;
  /** 'store': this app takes no hot updates (built without a release key); updates come through the store. */
  failed(reason: 'download' | 'install' | 'store'): void;
  /** 'alert' (Android): resolves true when the member chose to restart; 'message': shown, resolves false. */
  restartPrompt(kind: 'alert' | 'message'): Promise<boolean>;
}

export const APK_CONTENT_TYPE = 'application/vnd.android.package-archive';
const BYTES_PER_MB = 1024 * 1024;

export function megabytes(bytes: number): string {
  return (Math.max(0, bytes) / BYTES_PER_MB).toFixed(1);
}

/** The package's kind by its path's ending (the server names them `<id>.apk` and `<id>.zip`). */
export function packageType(url: string): 'apk' | 'zip' | 'other' {
  const path = url.split(/[?#]/)[0]!.toLowerCase();
  if (path.endsWith('.apk')) return 'apk';
  if (path.endsWith('.zip')) return 'zip';
  return 'other';
}

/** The installed native code and the code the running web files are (the hot bundle's, or the native one's). */
export async function installedVersion(port: UpdaterPort): Promise<{ full: number; hot: number }> {
  const full = await port.nativeVersionCode();
  const { bundle } = await port.liveUpdate.current();
  const bundleCode = bundle.id === BUILTIN_BUNDLE_ID ? full : Number.parseInt(bundle.version, 10);
  return { full, hot: Math.max(full, Number.isFinite(bundleCode) ? bundleCode : full) };
}

export class DownloadTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no download progress for ${timeoutMs} ms`);
    this.name = 'DownloadTimeoutError';
  }
}

/** Rejects `work` when `touch()` has not been called for `timeoutMs` (the spec's 60 s download time-out). */
function idleDeadline(timeoutMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let expire: (error: Error) => void = () => undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    expire = reject;
  });
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => expire(new DownloadTimeoutError(timeoutMs)), timeoutMs);
  };
  return {
    touch,
    race<T>(work: Promise<T>): Promise<T> {
      touch();
      return Promise.race([work, expired]).finally(() => clearTimeout(timer));
    },
  };
}

function absolute(url: string): string {
  return new URL(url, globalThis.location?.href ?? 'http://localhost/').toString();
}

async function restartPrompt(port: UpdaterPort, ui: UpdateUi): Promise<void> {
  const restart = await ui.restartPrompt(port.platform === 'android' ? 'alert' : 'message');
  if (restart) await port.liveUpdate.reload();
}

async function fullUpdate(config: AppVersion, port: UpdaterPort, ui: UpdateUi, timeoutMs: number): Promise<UpdateOutcome> {
  const url = absolute(config.package_url);
  if (port.platform !== 'android' || packageType(url) !== 'apk') {
    port.openExternal(url);
    return 'opened_externally';
  }
  const deadline = idleDeadline(timeoutMs);
  const listener = await port.fileTransfer.addListener('progress', (status) => {
    deadline.touch();
    ui.progress(megabytes(status.bytes), megabytes(status.lengthComputable ? status.contentLength : config.package_size));
  });
  let path: string;
  try {
    ui.progress(megabytes(0), megabytes(config.package_size));
    const target = await port.files.pathFor(`custos-${config.version_code}.apk`);
    const result = await deadline.race(
      port.fileTransfer.downloadFile({ url, path: target, progress: true, connectTimeout: timeoutMs, readTimeout: timeoutMs }),
    );
    path = result.path ?? target;
    // A package that is not the one released (cut short, altered on the way) is never installed.
    if ((await port.files.sha256(path)) !== config.package_sha256) throw new Error('checksum mismatch');
  } catch {
    ui.failed('download');
    return 'download_failed';
  } finally {
    await listener.remove();
    ui.finished();
  }
  try {
    await port.fileOpener.open({ filePath: path, contentType: APK_CONTENT_TYPE });
  } catch {
    ui.failed('install');
    return 'install_failed';
  }
  await restartPrompt(port, ui);
  return 'full_installed';
}

async function hotUpdate(
  config: AppVersion,
  port: UpdaterPort,
  ui: UpdateUi,
  timeoutMs: number,
  releasePublicKey: string,
): Promise<UpdateOutcome> {
  const url = absolute(config.hot_package_url);
  if (packageType(url) !== 'zip') {
    port.openExternal(url);
    return 'opened_externally';
  }
  // The signature covers the SHA-256 the plugin checks the bytes against: a valid signature of that
  // checksum means the applied bytes are the release step's (decision 053).
  if (
    !(await hotBundleSignatureValid(
      releasePublicKey,
      config.hot_version_code,
      config.hot_package_sha256,
      config.hot_package_signature,
    ))
  ) {
    ui.failed('download');
    return 'signature_refused';
  }
  const deadline = idleDeadline(timeoutMs);
  const total = config.hot_package_size;
  const listener = await port.liveUpdate.addListener('download', ({ percent }) => {
    deadline.touch();
    ui.progress(megabytes((total * percent) / 100), megabytes(total));
  });
  let bundleId: string;
  try {
    ui.progress(megabytes(0), megabytes(total));
    // The plugin checks the SHA-256 itself and refuses a mismatch; the answer is checked again here.
    const bundle = await deadline.race(
      port.liveUpdate.download({ url, version: String(config.hot_version_code), checksum: config.hot_package_sha256 }),
    );
    if (bundle.checksum !== config.hot_package_sha256) throw new Error('checksum mismatch');
    bundleId = bundle.id;
  } catch {
    ui.failed('download');
    return 'download_failed';
  } finally {
    await listener.remove();
    ui.finished();
  }
  try {
    await port.liveUpdate.next({ id: bundleId });
  } catch {
    ui.failed('install');
    return 'install_failed';
  }
  await restartPrompt(port, ui);
  return 'hot_ready';
}

/** One run of the update flow against the version config. */
export async function runUpdate(
  config: AppVersion,
  port: UpdaterPort,
  ui: UpdateUi,
  options: {
    timeoutMs?: number;
    /**
     * The release key's public half (base64 of its 32 bytes) the app trusts: a hot bundle is applied
     * only with its valid signature, and without a key none is (decision 057).
     */
    releasePublicKey?: string;
  } = {},
): Promise<UpdateOutcome> {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const installed = await installedVersion(port);
  const fullNewer = config.version_code > installed.full && config.package_url !== '';
  const hotNewer = config.hot_version_code > installed.hot && config.hot_package_url !== '';
  if (!fullNewer && !hotNewer) return 'up_to_date';
  const releasePublicKey = options.releasePublicKey ?? '';
  if (!fullNewer && releasePublicKey === '') {
    // Nothing to check a bundle with: not even asking, since the answer could only be a refusal.
    ui.failed('store');
    return 'store_only';
  }
  if (!(await ui.confirm(config))) return 'declined';
  return fullNewer ? fullUpdate(config, port, ui, timeoutMs) : hotUpdate(config, port, ui, timeoutMs, releasePublicKey);
}
