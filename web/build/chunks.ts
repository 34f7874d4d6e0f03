/*
 * How the build groups modules into files (rolldown's `codeSplitting`, decision 039). Left to
 * itself the bundler made ~50 small shared files for the first screen, each a request and a set of
 * response headers; grouped, the first screen needs a handful:
 *
 * - `start`: everything the entry imports statically (React, the router, i18next, zod, the API
 *   client, the query cache): one file, always needed, always together.
 * - `locale-<language>`: one language's texts, ours, antd-mobile's and the contract's server
 *   messages, fetched together when the app starts in it or switches to it.
 */

const ANTD_MOBILE_LOCALES: Record<string, string> = {
  'zh-CN': 'zh-Hans',
  'en-US': 'en',
  'ja-JP': 'ja',
  'ko-KR': 'ko',
  'th-TH': 'th',
  'vi-VN': 'vi',
  'zh-TW': 'zh-Hant',
};

const APP_TEXTS = /[\\/]web[\\/]src[\\/]app[\\/]i18n[\\/]locales[\\/]([A-Za-z-]+)\.json$/;
const SERVER_MESSAGES = /[\\/]packages[\\/]contract[\\/]src[\\/]i18n[\\/]messages[\\/]([A-Za-z-]+)\.ts$/;
const UI_KIT_TEXTS = /[\\/]antd-mobile[\\/]es[\\/]locales[\\/]([A-Za-z-]+)\.js$/;

/** The language a module holds texts of, or null for any other module. */
export function localeOfModule(id: string): string | null {
  const own = APP_TEXTS.exec(id)?.[1] ?? SERVER_MESSAGES.exec(id)?.[1];
  if (own) return own;
  const uiKit = UI_KIT_TEXTS.exec(id)?.[1];
  return uiKit ? (ANTD_MOBILE_LOCALES[uiKit] ?? null) : null;
}

export const codeSplitting = {
  groups: [
    { name: 'start', tags: ['$initial' as const], priority: 20 },
    {
      name: (id: string) => {
        const locale = localeOfModule(id);
        return locale ? `locale-${locale}` : null;
      },
      priority: 10,
    },
  ],
};
