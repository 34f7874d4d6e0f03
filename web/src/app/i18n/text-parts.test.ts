import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@custos/contract';
import { ROUTES } from '../routes';
import { FIRST_SCREEN_ROUTES, FIRST_SCREEN_TEXTS, textsPart, type TextTree } from './text-parts';

const SRC = fileURLToPath(new URL('../../', import.meta.url));

function catalogue(locale: string): TextTree {
  return JSON.parse(readFileSync(`${SRC}app/i18n/locales/${locale}.json`, 'utf8')) as TextTree;
}

function leaves(tree: TextTree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [inner, text] of leaves(value, path)) out.set(inner, text);
  }
  return out;
}

/**
 * The code of the first screens: the app's start and shell, the shared components and libraries,
 * the log-in page (and the other auth screens beside it) and Home.
 */
const FIRST_SCREEN_CODE = ['app', 'lib', 'components', 'features/auth', 'features/home'];
/** Pages in those folders that are no first screen: they wait for the rest of the texts. */
const OTHER_PAGES = new Set(['app/TradeScreen.tsx']);

function sourceFiles(dir: string): string[] {
  return (readdirSync(`${SRC}${dir}`, { recursive: true }) as string[])
    .filter((file) => /\.tsx?$/.test(file) && !/\.(test|d)\.tsx?$/.test(file) && !OTHER_PAGES.has(`${dir}/${file}`))
    .map((file) => `${SRC}${dir}/${file}`);
}

describe('the parts of the app texts', () => {
  it('split every language into two parts that together are its whole locale file, each key once', () => {
    for (const locale of LOCALES) {
      const all = leaves(catalogue(locale));
      const first = leaves(textsPart(catalogue(locale), 'first'));
      const rest = leaves(textsPart(catalogue(locale), 'rest'));
      expect(first.size + rest.size, locale).toBe(all.size);
      expect(new Map([...first, ...rest]), locale).toEqual(all);
    }
  });

  it('cut a sub-tree out of a section and leave no empty section behind', () => {
    const texts = { a: { live: { x: 'X' }, other: 'O' }, b: { live: { y: 'Y' } }, c: 'C' };
    const firstPaths = ['a.live', 'b.live', 'c'];
    expect(textsPart(texts, 'first', firstPaths)).toEqual({ a: { live: { x: 'X' } }, b: { live: { y: 'Y' } }, c: 'C' });
    expect(textsPart(texts, 'rest', firstPaths)).toEqual({ a: { other: 'O' } });
  });

  it('name only key paths that exist', () => {
    const english = leaves(catalogue('en'));
    for (const path of FIRST_SCREEN_TEXTS) {
      expect(
        [...english.keys()].some((key) => key === path || key.startsWith(`${path}.`)),
        path,
      ).toBe(true);
    }
    const ids = new Set(ROUTES.map((route) => route.id));
    for (const id of FIRST_SCREEN_ROUTES) expect(ids.has(id), id).toBe(true);
  });

  it('hold every key the first screens use in the first part', () => {
    const english = leaves(catalogue('en'));
    const first = leaves(textsPart(catalogue('en'), 'first'));
    // A key in a string ('auth.login') or the fixed start of one in a template (`routes.${id}`).
    const literal = /['"`]([A-Za-z]\w*(?:\.\w+)*)(\.\$\{|['"`])/g;
    const missing: string[] = [];
    let checked = 0;
    for (const file of FIRST_SCREEN_CODE.flatMap(sourceFiles)) {
      for (const [, path = '', end] of readFileSync(file, 'utf8').matchAll(literal)) {
        const keys =
          end === '.${' ? [...english.keys()].filter((key) => key.startsWith(`${path}.`)) : english.has(path) ? [path] : [];
        checked += keys.length;
        missing.push(...keys.filter((key) => !first.has(key)).map((key) => `${file.slice(SRC.length)}: ${key}`));
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
