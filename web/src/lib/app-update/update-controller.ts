import { selectUpdaterPort } from './select-port';
import type { UpdateOutcome, UpdateUi } from './update-flow';
import { BUILTIN_BUNDLE_ID, type UpdaterPort } from './updater-port';

/*
 * One update layer and one update run at a time for the whole app: the start-up check and
 * setting5's "check for update" share them. The screens register how the flow is shown (AppUpdate).
 */

let port: Promise<UpdaterPort | null> | null = null;
let ui: UpdateUi | null = null;
let running: Promise<UpdateOutcome> | null = null;

export function updaterPort(): Promise<UpdaterPort | null> {
  port ??= selectUpdaterPort().catch(() => null);
  return port;
}

export function setUpdateUi(next: UpdateUi | null): void {
  ui = next;
}

/**
 * The release key's public half (decisions 053, 057), built in: VITE_RELEASE_PUBLIC_KEY at build time
 * ('' when the build had none: then the app applies no hot bundle, web/vite.config.ts).
 */
const RELEASE_PUBLIC_KEY: string = (import.meta.env.VITE_RELEASE_PUBLIC_KEY as string | undefined) ?? '';

/**
 * Runs the update flow against the server's version config. null: this app has no native update
 * layer (a plain browser), and the caller does what the web does.
 */
export async function checkForUpdate(): Promise<UpdateOutcome | null> {
  const native = await updaterPort();
  if (!native || !ui) return null;
  const shownBy = ui;
  // The flow and the version call load only where there is a native update layer: a plain
  // browser never needs them, so they are not part of its first screen (decision 039).
  running ??= Promise.all([import('./update-flow'), import('../../api/get-app-version')])
    .then(async ([{ runUpdate, trustedReleaseKey }, { getAppVersion }]) =>
      runUpdate(await getAppVersion(), native, shownBy, { releasePublicKey: trustedReleaseKey(RELEASE_PUBLIC_KEY, native) }),
    )
    .finally(() => {
      running = null;
    });
  return running;
}

/** Tells the live-update layer the running bundle started well (else it is rolled back). */
export async function reportHealthy(): Promise<void> {
  const native = await updaterPort();
  await native?.liveUpdate.notifyAppReady();
}

/** The hot bundle's version code the app runs, or null when it runs the web files it was installed with. */
export async function runningHotVersion(): Promise<string | null> {
  const native = await updaterPort();
  if (!native) return null;
  const { bundle } = await native.liveUpdate.current();
  return bundle.id === BUILTIN_BUNDLE_ID ? null : bundle.version;
}
