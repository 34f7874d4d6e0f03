import { USER_ASSETS_PATH } from '../api/paths';
import { HOME_PATH } from './startup';

/**
 * Per page, the GET calls (no query) it makes first, which the page's inline launch script sends
 * when the app opens on it, alongside the page's code (web/build/launch-script.ts, decision 047):
 * the largest thing Home paints is the assets total, which waited for its call until the page's
 * code had arrived and run.
 */
export const LAUNCH_CALLS: Readonly<Record<string, readonly string[]>> = {
  [HOME_PATH]: [USER_ASSETS_PATH],
};
