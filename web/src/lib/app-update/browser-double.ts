import { BUILTIN_BUNDLE_ID, type BundleInfo, type ProgressStatus, type UpdaterPort } from './updater-port';

/*
 * The documented test double of the native update layer (decision 037), for a browser: it speaks the
 * plugins' documented interfaces (@capgo/capacitor-updater's download/next/current/reload/
 * notifyAppReady and its 'download' event, @capacitor/file-transfer's downloadFile and 'progress'
 * event, @capacitor-community/file-opener's open) over fetch and localStorage. What a browser
 * cannot do it records instead: a bundle "applied" is the bundle the app reports running after the
 * next start, and an APK "installed" is the file handed to the would-be installer. The app selects
 * it only when not native and `custos.updater` in localStorage says `browser-double` (the e2e tests
 * set it); otherwise the web app is updated by its service worker and has no native layer.
 */

export const DOUBLE_STATE_KEY = 'custos.updater.double';

interface DoubleState {
  current: BundleInfo | null;
  /** What `current` replaced: restored when the new bundle does not report healthy in time. */
  previous: BundleInfo | null;
  next: string | null;
  bundles: BundleInfo[];
  /** APK paths handed to the installer. */
  installed: string[];
}

export interface BrowserDoubleOptions {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  fetch: typeof fetch;
  reloadPage: () => void;
  openExternal: (url: string) => void;
  nativeVersionCode: number;
  nativeVersionName: string;
  /** As the plugin's appReadyTimeout: a new bundle that does not call notifyAppReady by then is rolled back. */
  appReadyTimeoutMs: number;
  now?: () => Date;
  randomId?: () => string;
}

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

function hex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

type Listener<T> = (event: T) => void;

export function browserDouble(options: BrowserDoubleOptions): UpdaterPort & { start(): void } {
  const now = options.now ?? (() => new Date());
  const randomId = options.randomId ?? (() => crypto.randomUUID());
  const builtin: BundleInfo = {
    id: BUILTIN_BUNDLE_ID,
    version: options.nativeVersionName,
    downloaded: '',
    checksum: '',
    status: 'success',
  };
  const downloadListeners = new Set<Listener<{ percent: number; bundle: BundleInfo }>>();
  const progressListeners = new Set<Listener<ProgressStatus>>();
  const files = new Map<string, ArrayBuffer>();
  let readyTimer: ReturnType<typeof setTimeout> | undefined;

  const load = (): DoubleState => {
    try {
      const stored = options.storage.getItem(DOUBLE_STATE_KEY);
      if (stored) return JSON.parse(stored) as DoubleState;
    } catch {
      // A damaged record is as none.
    }
    return { current: null, previous: null, next: null, bundles: [], installed: [] };
  };
  const save = (state: DoubleState) => options.storage.setItem(DOUBLE_STATE_KEY, JSON.stringify(state));
  const listen = <T>(set: Set<Listener<T>>, listener: Listener<T>) => {
    set.add(listener);
    return Promise.resolve({ remove: async () => void set.delete(listener) });
  };

  /** Reads a response's body, reporting progress as the bytes arrive. */
  async function read(url: string, onProgress: (bytes: number, total: number) => void): Promise<ArrayBuffer> {
    const response = await options.fetch(url);
    if (!response.ok || !response.body) throw new Error(`download failed: HTTP ${response.status}`);
    const total = Number(response.headers.get('content-length') ?? 0);
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      onProgress(received, total);
    }
    const bytes = new Uint8Array(received);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return bytes.buffer;
  }

  const rollback = () => {
    const state = load();
    if (!state.current || state.current.status !== 'pending') return;
    const failed = { ...state.current, status: 'error' as const };
    save({
      ...state,
      bundles: state.bundles.map((bundle) => (bundle.id === failed.id ? failed : bundle)),
      current: state.previous,
      previous: null,
    });
    options.reloadPage();
  };

  return {
    platform: 'web',
    testDouble: true,
    async nativeVersionCode() {
      return options.nativeVersionCode;
    },

    /** At launch: a bundle set with next() starts now, and must report healthy within appReadyTimeout. */
    start() {
      const state = load();
      if (state.next) {
        const next = state.bundles.find((bundle) => bundle.id === state.next);
        if (next) {
          save({ ...state, previous: state.current, current: { ...next, status: 'pending' }, next: null });
        } else {
          save({ ...state, next: null });
        }
      }
      if (load().current?.status === 'pending') readyTimer = setTimeout(rollback, options.appReadyTimeoutMs);
    },

    liveUpdate: {
      async current() {
        return { bundle: load().current ?? builtin, native: options.nativeVersionName };
      },
      async download({ url, version, checksum }) {
        const pending: BundleInfo = { id: randomId(), version, downloaded: '', checksum: '', status: 'downloading' };
        const content = await read(url, (bytes, total) => {
          const percent = total > 0 ? Math.min(100, Math.floor((bytes / total) * 100)) : 0;
          for (const listener of downloadListeners) listener({ percent, bundle: pending });
        });
        const head = new Uint8Array(content.slice(0, ZIP_SIGNATURE.length));
        if (!ZIP_SIGNATURE.every((byte, index) => head[index] === byte)) throw new Error('the bundle is not a zip');
        const sha256 = hex(await crypto.subtle.digest('SHA-256', content));
        if (checksum && checksum !== sha256) throw new Error('checksum mismatch');
        const bundle: BundleInfo = { ...pending, downloaded: now().toISOString(), checksum: sha256, status: 'pending' };
        const state = load();
        save({ ...state, bundles: [...state.bundles, bundle] });
        return bundle;
      },
      async next({ id }) {
        const state = load();
        const bundle = state.bundles.find((entry) => entry.id === id);
        if (!bundle || bundle.status === 'error') throw new Error(`no usable bundle ${id}`);
        save({ ...state, next: id });
        return bundle;
      },
      async reload() {
        options.reloadPage();
      },
      async notifyAppReady() {
        clearTimeout(readyTimer);
        const state = load();
        if (state.current?.status === 'pending') {
          const healthy = { ...state.current, status: 'success' as const };
          save({
            ...state,
            current: healthy,
            bundles: state.bundles.map((bundle) => (bundle.id === healthy.id ? healthy : bundle)),
          });
          return { bundle: healthy };
        }
        return { bundle: state.current ?? builtin };
      },
      addListener(_eventName, listener) {
        return listen(downloadListeners, listener);
      },
    },

    fileTransfer: {
      async downloadFile({ url, path, progress }) {
        const content = await read(url, (bytes, total) => {
          if (!progress) return;
          const status: ProgressStatus = { type: 'download', url, bytes, contentLength: total, lengthComputable: total > 0 };
          for (const listener of progressListeners) listener(status);
        });
        files.set(path, content);
        return { path };
      },
      addListener(_eventName, listener) {
        return listen(progressListeners, listener);
      },
    },

    files: {
      async pathFor(fileName) {
        return `memory://cache/${fileName}`;
      },
      async sha256(path) {
        const content = files.get(path);
        if (!content) throw new Error(`no file ${path}`);
        return hex(await crypto.subtle.digest('SHA-256', content));
      },
    },

    fileOpener: {
      async open({ filePath }) {
        if (!files.has(filePath)) throw new Error(`no file ${filePath}`);
        const state = load();
        save({ ...state, installed: [...state.installed, filePath] });
      },
    },

    openExternal: options.openExternal,
  };
}
