import type enUS from 'antd-mobile/es/locales/en-US';
import { DEFAULT_LOCALE, SERVER_MESSAGE_LOADERS, isLocale, type Locale } from '@custos/contract';
import type { TextPart, TextTree } from '../../app/i18n/text-parts';
import { LOCALE_STORAGE_KEY, PATHS_WITHOUT_SERVER_MESSAGES } from './locale-keys';

/*
 * Where each language's files come from, and which language the app starts in. This module is part
 * of the small `early` file (web/build/chunks.ts), which the page runs before the start file has
 * arrived, so the member's language is fetched alongside it (decision 041); i18n.ts imports the
 * same modules later and finds them already here.
 */

export { LOCALE_STORAGE_KEY, PATHS_WITHOUT_SERVER_MESSAGES };

/** antd-mobile's own texts (its pickers' buttons, empty states) in one language. */
export type UiKitLocale = typeof enUS;

type TextsModule = Promise<{ default: TextTree }>;

/** The parts of the app's own texts (`app/i18n/text-parts.ts`), one file each per language. */
export const APP_TEXTS: Record<Locale, Record<TextPart, () => TextsModule>> = {
  'zh-Hans': {
    first: () => import('virtual:locale-texts/zh-Hans/first'),
    rest: () => import('virtual:locale-texts/zh-Hans/rest'),
  },
  en: { first: () => import('virtual:locale-texts/en/first'), rest: () => import('virtual:locale-texts/en/rest') },
  ja: { first: () => import('virtual:locale-texts/ja/first'), rest: () => import('virtual:locale-texts/ja/rest') },
  ko: { first: () => import('virtual:locale-texts/ko/first'), rest: () => import('virtual:locale-texts/ko/rest') },
  th: { first: () => import('virtual:locale-texts/th/first'), rest: () => import('virtual:locale-texts/th/rest') },
  vi: { first: () => import('virtual:locale-texts/vi/first'), rest: () => import('virtual:locale-texts/vi/rest') },
  'zh-Hant': {
    first: () => import('virtual:locale-texts/zh-Hant/first'),
    rest: () => import('virtual:locale-texts/zh-Hant/rest'),
  },
};

export const UI_KIT_TEXTS: Record<Locale, () => Promise<{ default: UiKitLocale }>> = {
  'zh-Hans': () => import('antd-mobile/es/locales/zh-CN'),
  en: () => import('antd-mobile/es/locales/en-US'),
  ja: () => import('antd-mobile/es/locales/ja-JP'),
  ko: () => import('antd-mobile/es/locales/ko-KR'),
  th: () => import('antd-mobile/es/locales/th-TH'),
  vi: () => import('antd-mobile/es/locales/vi-VN'),
  'zh-Hant': () => import('antd-mobile/es/locales/zh-TW'),
};

/** The saved language, or zh-Hans. */
export function storedLocale(): Locale {
  try {
    const saved = localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocale(saved) ? saved : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

/**
 * Starts fetching what the app shows first in a language: its first texts, antd-mobile's, and the
 * server's messages when the page it opens needs them.
 */
export function prefetchLocale(locale: Locale, withServerMessages: boolean): void {
  const files: Promise<unknown>[] = [APP_TEXTS[locale].first(), UI_KIT_TEXTS[locale]()];
  if (withServerMessages) files.push(SERVER_MESSAGE_LOADERS[locale]());
  void Promise.all(files).catch(() => undefined);
}
