/*
 * How the build groups modules into files (rolldown's `codeSplitting`, decision 039). Left to
 * itself the bundler made ~50 small shared files for the first screen, each a request and a set of
 * response headers; grouped, the first screen needs a handful:
 *
 * - `start`: what every screen runs on from the first (React, the router, zod, the query
 *   cache) and the app's own start (API client, session, languages, the contract's core): one file,
 *   always needed, always together.
 * - `home`: what Home and the tab layout add to the shell (decision 044, `first-tab-graph.ts`).
 * - `live`: a logged-in member's live channel, fetched after log-in (its event schemas come with
 *   the first event, decision 044).
 * - `motion`: react-spring and @use-gesture, which antd-mobile's popups, tab bar and
 *   pull-to-refresh share.
 * - `locale-<language>`: one language's texts for the first screens, ours and antd-mobile's,
 *   fetched when the app starts in it or switches to it; `messages-<language>`: the contract's
 *   server messages in it, fetched with them for every page but Home (decision 044).
 * - `texts-<language>`: the rest of that language's texts (every other page's), fetched when the
 *   member first opens such a page (decision 041).
 */

import { isHomeModule } from './first-tab-graph';

// zh-CN is left out: antd-mobile's ConfigProvider imports it as its default, so it is part of the
// start anyway (in `start`, not a file of its own), and grouping it would tie all the zh-Hans texts
// to the entry.
const ANTD_MOBILE_LOCALES: Record<string, string> = {
  'en-US': 'en',
  'ja-JP': 'ja',
  'ko-KR': 'ko',
  'th-TH': 'th',
  'vi-VN': 'vi',
  'zh-TW': 'zh-Hant',
};

// The parts of the app's texts (`web/build/locale-texts.ts`): `first` goes with the language's file.
const APP_TEXTS = /^\0virtual:locale-texts\/([A-Za-z-]+)\/first$/;
const APP_TEXTS_REST = /^\0virtual:locale-texts\/([A-Za-z-]+)\/rest$/;
const SERVER_MESSAGES = /[\\/]packages[\\/]contract[\\/]src[\\/]i18n[\\/]messages[\\/]([A-Za-z-]+)\.ts$/;
const UI_KIT_TEXTS = /[\\/]antd-mobile[\\/]es[\\/]locales[\\/]([A-Za-z-]+)\.js$/;

/** The language a module holds texts of, or null for any other module. */
export function localeOfModule(id: string): string | null {
  const own = APP_TEXTS.exec(id)?.[1] ?? SERVER_MESSAGES.exec(id)?.[1];
  if (own) return own;
  const uiKit = UI_KIT_TEXTS.exec(id)?.[1];
  return uiKit ? (ANTD_MOBILE_LOCALES[uiKit] ?? null) : null;
}

/** antd-mobile's default language (zh-CN), which its ConfigProvider imports: in `start`. */
const UI_KIT_DEFAULT_TEXTS = /[\\/]antd-mobile[\\/]es[\\/]locales[\\/]zh-CN\.js$/;

/** The libraries every screen runs on, from the first. */
const START_LIBRARIES =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|zod|@tanstack[\\/]query-core|@tanstack[\\/]react-query)[\\/]/;
/**
 * The app's own start: the API client, session, languages, query cache, update check, and zod's
 * jitless setting, which must run in this file before the contract's schemas are built (the
 * contract's constants are in `early`, which needs the client's time-out).
 */
const START_APP =
  /[\\/]web[\\/]src[\\/]lib[\\/](api|auth|i18n|query|router)[\\/]|[\\/]web[\\/]src[\\/]lib[\\/](toast|navigation|zod-jitless)\.ts$|[\\/]packages[\\/]contract[\\/]src[\\/](codes|envelope|money|validators|api[\\/](common|auth))\.ts$/;
/**
 * A logged-in member's live channel (`app/live-session.ts`, loaded after log-in): one file, never on
 * the log-in page. Only the channel's own modules: what they import (query keys, the money format)
 * stays where the screens that share it are, or every screen importing a query key would load and
 * run this file; the event schemas come with the first frame that needs them (decision 044).
 */
const LIVE =
  /[\\/]web[\\/]src[\\/]lib[\\/]live[\\/](live-channel|live-toasts|sse-parser)\.ts$|[\\/]web[\\/]src[\\/]app[\\/]live-(session|invalidation)\.ts$|[\\/]packages[\\/]contract[\\/]src[\\/]sse-parser\.ts$/;

/**
 * The page's first script file (`app/early-start.ts`, decision 041) and what it needs to fetch the
 * member's language: it must import nothing of `start`, or it would wait for all of it.
 */
const EARLY =
  /[\\/]web[\\/]src[\\/]app[\\/](early-start|startup)\.ts$|[\\/]web[\\/]src[\\/]lib[\\/]auth[\\/]credential\.ts$|[\\/]web[\\/]src[\\/]lib[\\/]i18n[\\/]locale-(files|keys)\.ts$|[\\/]packages[\\/]contract[\\/]src[\\/](locales|constants|i18n[\\/]catalogue-loaders)\.ts$|^\0vite[\\/]preload-helper/;

export const codeSplitting = {
  groups: [
    { name: 'early', test: EARLY, priority: 40 },
    {
      name: 'start',
      test: (id: string) => START_LIBRARIES.test(id) || START_APP.test(id) || UI_KIT_DEFAULT_TEXTS.test(id),
      priority: 20,
    },
    // Home and the tab layout (decision 044): what their first load needs beyond the shell, one
    // file instead of about twenty small ones (each a request and its headers); see
    // `first-tab-graph.ts`. A page sharing one of these modules loads this file too.
    { name: 'home', test: isHomeModule, priority: 18, includeDependenciesRecursively: false },
    // After `home`: what the channel imports that Home does not (the features' query keys) comes
    // with it, what Home imports too (the assets' keys) stays in `home`.
    { name: 'live', test: LIVE, priority: 17 },
    // The animation and gesture libraries under antd-mobile's popups, tab bar and pull-to-refresh:
    // one file for every page that has any of them (never the log-in page).
    { name: 'motion', test: /[\\/]node_modules[\\/](@react-spring|@use-gesture)[\\/]/, priority: 15 },
    {
      name: (id: string) => {
        const locale = localeOfModule(id);
        if (!locale) return null;
        // The server's messages are a file of their own: Home does not need them (decision 044).
        return SERVER_MESSAGES.test(id) ? `messages-${locale}` : `locale-${locale}`;
      },
      // Before start: the contract's index reaches every language's messages.
      priority: 30,
    },
    {
      name: (id: string) => {
        const locale = APP_TEXTS_REST.exec(id)?.[1];
        return locale ? `texts-${locale}` : null;
      },
      priority: 30,
    },
  ],
};
