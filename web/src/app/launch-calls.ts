import { USER_ASSETS_PATH } from '../api/paths';
import { HOME_PATH } from './startup';

/**
 * Per page, the GET calls (no query) it makes first, which the early file sends when the app opens
 * on it, alongside the page's code (decision 047): the largest thing Home paints is the assets
 * total, which waited for its call until the page's code had arrived and run. Part of the early
 * file, so it imports no route table.
 */
export const LAUNCH_CALLS: Readonly<Record<string, readonly string[]>> = {
  [HOME_PATH]: [USER_ASSETS_PATH],
};
