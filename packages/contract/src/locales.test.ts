import { describe, expect, it } from 'vitest';
import { ALL_BUSINESS_CODES, BusinessCode, httpStatusFor } from './codes.js';
import { SERVER_MESSAGE_LOADERS } from './i18n/catalogue-loaders.js';
import { SERVER_MESSAGES, translate } from './i18n/translate.js';
import { LOCALES, langHeaderFor, localeFromLangHeader } from './locales.js';

describe('lang header map', () => {
  it('maps each locale exactly as the spec says, anything else to CN', () => {
    expect(LOCALES.map((locale) => langHeaderFor(locale))).toEqual(['CN', 'EN', 'JP', 'KO', 'DE', 'FH', 'TW']);
    expect(langHeaderFor('fr')).toBe('CN');
    expect(langHeaderFor(undefined)).toBe('CN');
  });

  it('reads the header back to a locale, case-insensitively', () => {
    for (const locale of LOCALES) expect(localeFromLangHeader(langHeaderFor(locale))).toBe(locale);
    expect(localeFromLangHeader('jp')).toBe('ja');
    expect(localeFromLangHeader(['TW', 'EN'])).toBe('zh-Hant');
    expect(localeFromLangHeader('XX')).toBe('zh-Hans');
    expect(localeFromLangHeader(undefined)).toBe('zh-Hans');
  });
});

describe('server messages', () => {
  it('exist in all seven languages with the same keys and placeholders', () => {
    const english = SERVER_MESSAGES.en;
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const locale of LOCALES) {
      const catalogue = SERVER_MESSAGES[locale];
      expect(Object.keys(catalogue).sort(), locale).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) {
        const translated = catalogue[key as keyof typeof english];
        expect(translated.trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(translated), `${locale} ${key}`).toEqual(placeholders(text));
      }
    }
  });

  it('loads each language on its own, the very texts of the full catalogue', async () => {
    for (const locale of LOCALES) expect(await SERVER_MESSAGE_LOADERS[locale](), locale).toBe(SERVER_MESSAGES[locale]);
  });

  it('fills placeholders', () => {
    expect(translate('en', 'too_many_requests', { seconds: 42 })).toBe('Too many attempts, please try again in 42 s');
  });
});

describe('business codes', () => {
  it('each has an HTTP class', () => {
    for (const code of ALL_BUSINESS_CODES) expect(httpStatusFor(code)).toBeGreaterThanOrEqual(200);
    expect(httpStatusFor(BusinessCode.TRADE_PASSWORD_NOT_SET)).toBe(403);
    expect(httpStatusFor(BusinessCode.NO_WITHDRAW_METHOD)).toBe(409);
  });
});
