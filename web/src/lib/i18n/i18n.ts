import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, isLocale, type Locale } from '@custos/contract';
import en from '../../app/i18n/locales/en.json';
import ja from '../../app/i18n/locales/ja.json';
import ko from '../../app/i18n/locales/ko.json';
import th from '../../app/i18n/locales/th.json';
import vi from '../../app/i18n/locales/vi.json';
import zhHans from '../../app/i18n/locales/zh-Hans.json';
import zhHant from '../../app/i18n/locales/zh-Hant.json';

export const LOCALE_STORAGE_KEY = 'custos.locale';

export const resources = {
  'zh-Hans': { translation: zhHans },
  en: { translation: en },
  ja: { translation: ja },
  ko: { translation: ko },
  th: { translation: th },
  vi: { translation: vi },
  'zh-Hant': { translation: zhHant },
} as const satisfies Record<Locale, { translation: typeof en }>;

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
    resources,
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = locale;
}

/** Switches the language and remembers it on this device. */
export async function changeLocale(locale: Locale): Promise<void> {
  localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
}

export const t = i18next.t.bind(i18next);
