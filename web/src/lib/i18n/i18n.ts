import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type enUS from 'antd-mobile/es/locales/en-US';
import { DEFAULT_LOCALE, LOCALES, isLocale, type Locale } from '@custos/contract';
import type en from '../../app/i18n/locales/en.json';
import { loadServerMessages } from './server-messages';

export const LOCALE_STORAGE_KEY = 'custos.locale';

/** antd-mobile's own texts (its pickers' buttons, empty states) in one language. */
export type UiKitLocale = typeof enUS;

interface LocaleTexts {
  translation: typeof en;
  uiKit: UiKitLocale;
}

/*
 * Only the member's language is loaded at start (decisions 036, 039): each language's texts, ours,
 * antd-mobile's and the contract's server messages, are chunks of their own, fetched together when
 * the app starts in it or switches to it.
 */
const LOADERS: Record<Locale, () => Promise<LocaleTexts>> = {
  'zh-Hans': async () => ({
    translation: (await import('../../app/i18n/locales/zh-Hans.json')).default,
    uiKit: (await import('antd-mobile/es/locales/zh-CN')).default,
  }),
  en: async () => ({
    translation: (await import('../../app/i18n/locales/en.json')).default,
    uiKit: (await import('antd-mobile/es/locales/en-US')).default,
  }),
  ja: async () => ({
    translation: (await import('../../app/i18n/locales/ja.json')).default,
    uiKit: (await import('antd-mobile/es/locales/ja-JP')).default,
  }),
  ko: async () => ({
    translation: (await import('../../app/i18n/locales/ko.json')).default,
    uiKit: (await import('antd-mobile/es/locales/ko-KR')).default,
  }),
  th: async () => ({
    translation: (await import('../../app/i18n/locales/th.json')).default,
    uiKit: (await import('antd-mobile/es/locales/th-TH')).default,
  }),
  vi: async () => ({
    translation: (await import('../../app/i18n/locales/vi.json')).default,
    uiKit: (await import('antd-mobile/es/locales/vi-VN')).default,
  }),
  'zh-Hant': async () => ({
    translation: (await import('../../app/i18n/locales/zh-Hant.json')).default,
    uiKit: (await import('antd-mobile/es/locales/zh-TW')).default,
  }),
};

const uiKitLocales = new Map<Locale, UiKitLocale>();

/** Fetches a language's texts once and hands them to i18next. */
async function loadLocale(locale: Locale): Promise<void> {
  if (uiKitLocales.has(locale)) return;
  const [texts] = await Promise.all([LOADERS[locale](), loadServerMessages(locale)]);
  i18next.addResourceBundle(locale, 'translation', texts.translation, true, true);
  uiKitLocales.set(locale, texts.uiKit);
}

/** antd-mobile's texts for a language already loaded (the current one always is). */
export function uiKitLocale(locale: Locale): UiKitLocale | undefined {
  return uiKitLocales.get(locale);
}

/** The saved language, or zh-Hans. */
export function storedLocale(): Locale {
  try {
    const saved = localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocale(saved) ? saved : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

export function currentLocale(): Locale {
  return isLocale(i18next.language) ? i18next.language : DEFAULT_LOCALE;
}

export async function initI18n(): Promise<void> {
  const locale = storedLocale();
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: locale,
    // Every language is complete (locales.test.ts): nothing falls back to another one.
    fallbackLng: false,
    supportedLngs: [...LOCALES],
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await loadLocale(locale);
  document.documentElement.lang = locale;
}

/** Switches the language (after fetching its texts) and remembers it on this device. */
export async function changeLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
}

export const t = i18next.t.bind(i18next);
