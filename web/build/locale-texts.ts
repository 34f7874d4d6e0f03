import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { TEXT_PARTS, textsPart, type TextPart, type TextTree } from '../src/app/i18n/text-parts';

/** `virtual:locale-texts/<language>/<part>`: one part of one language's texts (decision 041). */
export const LOCALE_TEXTS_PREFIX = 'virtual:locale-texts/';
const RESOLVED_PREFIX = `\0${LOCALE_TEXTS_PREFIX}`;
const LOCALES_DIR = fileURLToPath(new URL('../src/app/i18n/locales/', import.meta.url));

/**
 * Serves each part of a language's texts as a module of its own, cut from that language's locale
 * file (the only source), so the bundler puts each part in its own file.
 */
export function localeTexts(): Plugin {
  return {
    name: 'custos-locale-texts',
    enforce: 'pre',
    resolveId(source) {
      return source.startsWith(LOCALE_TEXTS_PREFIX) ? `\0${source}` : null;
    },
    load(id) {
      if (!id.startsWith(RESOLVED_PREFIX)) return null;
      const [locale, part] = id.slice(RESOLVED_PREFIX.length).split('/');
      if (!locale || !/^[A-Za-z-]+$/.test(locale) || !TEXT_PARTS.includes(part as TextPart)) {
        this.error(`Unknown locale texts module ${id.slice(1)}`);
      }
      const file = `${LOCALES_DIR}${locale}.json`;
      this.addWatchFile(file);
      const texts = JSON.parse(readFileSync(file, 'utf8')) as TextTree;
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(textsPart(texts, part as TextPart)))});`;
    },
  };
}
