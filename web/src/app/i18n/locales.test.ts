import { describe, expect, it } from 'vitest';
import { LOCALES } from '@custos/contract';
import { ROUTES, TABS } from '../routes';
import en from './locales/en.json';
import ja from './locales/ja.json';
import ko from './locales/ko.json';
import th from './locales/th.json';
import vi from './locales/vi.json';
import zhHans from './locales/zh-Hans.json';
import zhHant from './locales/zh-Hant.json';

const catalogues: Record<(typeof LOCALES)[number], unknown> = { 'zh-Hans': zhHans, en, ja, ko, th, vi, 'zh-Hant': zhHant };

function leaves(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.entries(value as Record<string, unknown>).reduce<Record<string, string>>(
    (all, [key, child]) => ({ ...all, ...leaves(child, prefix ? `${prefix}.${key}` : key) }),
    {},
  );
}

describe('member app translations', () => {
  const english = leaves(en);

  it('are complete in all seven languages, with the same placeholders', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();
    for (const locale of LOCALES) {
      const strings = leaves(catalogues[locale]);
      expect(Object.keys(strings).sort(), locale).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) {
        expect(strings[key]?.trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(strings[key] ?? ''), `${locale} ${key}`).toEqual(placeholders(text));
      }
    }
  });

  it('have a title for every route and a label for every tab', () => {
    for (const route of ROUTES) expect(english[`routes.${route.id}`], route.path).toBeDefined();
    for (const tab of TABS) expect(english[tab.labelKey], tab.path).toBeDefined();
  });
});
