import { APP_VERSION, APP_VERSION_CODE } from '@custos/contract';
import { isNativePlatform } from '../native-platform';
import type { UpdaterPort } from './updater-port';

/** The localStorage switch that selects the browser test double (the e2e tests set it). */
export const UPDATER_SWITCH_KEY = 'custos.updater';
export const UPDATER_SWITCH_VALUE = 'browser-double';

/** The live-update plugin's appReadyTimeout (capacitor.config.ts says the same): a new bundle must report healthy by then. */
export const APP_READY_TIMEOUT_MS = 10_000;

function switchedOn(): boolean {
  try {
    return localStorage.getItem(UPDATER_SWITCH_KEY) === UPDATER_SWITCH_VALUE;
  } catch {
    return false;
  }
}

/**
 * The native update layer, or null where there is none: the Capacitor plugins in the Android app;
 * in a browser, the documented test double when `custos.updater` says so (decision 037), else
 * nothing (the web app is updated by its service worker). Loaded on demand, never in the first
 * screen's code.
 */
export async function selectUpdaterPort(): Promise<UpdaterPort | null> {
  if (isNativePlatform()) return (await import('./capacitor-port')).capacitorPort();
  if (!switchedOn()) return null;
  const { browserDouble } = await import('./browser-double');
  const double = browserDouble({
    storage: localStorage,
    fetch: (input, init) => fetch(input, init),
    reloadPage: () => window.location.reload(),
    openExternal: (url) => window.open(url, '_blank', 'noopener'),
    nativeVersionCode: APP_VERSION_CODE,
    nativeVersionName: APP_VERSION,
    appReadyTimeoutMs: APP_READY_TIMEOUT_MS,
  });
  double.start();
  return double;
}
