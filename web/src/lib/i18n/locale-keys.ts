/*
 * What decides which language files a launch needs, without imports: the page's inline launch
 * script is built from it (web/build/launch-script.ts, decision 047), as is the early file.
 */

export const LOCALE_STORAGE_KEY = 'custos.locale';

/**
 * The pages that show no server message (no form, no refusal worded by the app): Home. They do not
 * wait for the server's messages, which are two thirds of a language's first file (decision 044);
 * every other page does (`LazyPage`).
 */
export const PATHS_WITHOUT_SERVER_MESSAGES: ReadonlySet<string> = new Set(['/pages/index/index']);
