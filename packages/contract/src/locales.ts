/** Interface languages (spec §1). */
export const LOCALES = ['zh-Hans', 'en', 'ja', 'ko', 'th', 'vi', 'zh-Hant'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-Hans';

/**
 * Value of the `lang` request header for each locale, exactly as the spec maps them (th→DE and
 * vi→FH are the original platform's codes and are kept for compatibility).
 */
export const LANG_HEADER_BY_LOCALE = {
  ko: 'KO',
  en: 'EN',
  ja: 'JP',
  'zh-Hans': 'CN',
  th: 'DE',
  vi: 'FH',
  'zh-Hant': 'TW',
} as const satisfies Record<Locale, string>;

export type LangHeader = (typeof LANG_HEADER_BY_LOCALE)[Locale];
export const DEFAULT_LANG_HEADER: LangHeader = 'CN';

/** Each language's own name, for the language picker. */
export const LOCALE_NATIVE_NAMES: Record<Locale, string> = {
  'zh-Hans': '简体中文',
  en: 'English',
  ja: '日本語',
  ko: '한국어',
  th: 'ไทย',
  vi: 'Tiếng Việt',
  'zh-Hant': '繁體中文',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The `lang` header for a locale; anything unknown maps to CN. */
export function langHeaderFor(locale: string | null | undefined): LangHeader {
  return isLocale(locale) ? LANG_HEADER_BY_LOCALE[locale] : DEFAULT_LANG_HEADER;
}

const LOCALE_BY_LANG_HEADER = Object.fromEntries(LOCALES.map((locale) => [LANG_HEADER_BY_LOCALE[locale], locale])) as Record<
  LangHeader,
  Locale
>;

/** The locale a request asked for through its `lang` header; unknown or missing → zh-Hans. */
export function localeFromLangHeader(header: string | string[] | null | undefined): Locale {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toUpperCase();
  if (value && value in LOCALE_BY_LANG_HEADER) return LOCALE_BY_LANG_HEADER[value as LangHeader];
  return DEFAULT_LOCALE;
}
