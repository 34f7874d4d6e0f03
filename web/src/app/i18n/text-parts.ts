/*
 * The app's texts in two parts per language (decision 041), both cut at build time from the one
 * locale file of that language (`locales/<language>.json`, the only source):
 *
 * - `first`: what the first screens show (log-in, Home, the tab shell, the shared components, the
 *   app's start and its live messages), fetched with the language at start.
 * - `rest`: every other page's texts, fetched when the member first opens such a page (the page
 *   waits for them, so no key is ever shown raw) and with a language switch once in use.
 *
 * `text-parts.test.ts` reads the first screens' code and fails if one of its keys is not in
 * `first`.
 */

/** Key paths (a section, or a sub-tree of one) in the `first` part. */
export const FIRST_SCREEN_TEXTS: readonly string[] = [
  'app',
  'tabs',
  'routes',
  'common',
  'auth',
  'webUpdate',
  'appUpdate',
  'live',
  'otc.live',
  'contracts.live',
  'assets',
  'quotes',
  'content',
  'pdf',
  'records',
  'money',
  'tradePassword',
  'authenticator',
];

/** Routes (`routes.ts` ids) whose page shows only `first` texts: they never wait for `rest`. */
export const FIRST_SCREEN_ROUTES: ReadonlySet<string> = new Set(['login', 'index']);

export type TextPart = 'first' | 'rest';
export const TEXT_PARTS: readonly TextPart[] = ['first', 'rest'];

export type TextTree = { [key: string]: string | TextTree };

function isTree(value: string | TextTree | undefined): value is TextTree {
  return typeof value === 'object' && value !== null;
}

/** Whether `path` is one of `paths` or lies under one of them. */
function covered(path: string, paths: readonly string[]): boolean {
  return paths.some((first) => path === first || path.startsWith(`${first}.`));
}

/** Whether some of `paths` lies strictly under `path`. */
function partlyCovered(path: string, paths: readonly string[]): boolean {
  return paths.some((first) => first.startsWith(`${path}.`));
}

/** The part of a language's texts: the keys under `FIRST_SCREEN_TEXTS`, or all the others. */
export function textsPart(texts: TextTree, part: TextPart, firstPaths: readonly string[] = FIRST_SCREEN_TEXTS): TextTree {
  const walk = (tree: TextTree, prefix: string): TextTree => {
    const out: TextTree = {};
    for (const [key, value] of Object.entries(tree)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (covered(path, firstPaths)) {
        if (part === 'first') out[key] = value;
      } else if (isTree(value) && partlyCovered(path, firstPaths)) {
        const inner = walk(value, path);
        if (Object.keys(inner).length > 0) out[key] = inner;
      } else if (part === 'rest') {
        out[key] = value;
      }
    }
    return out;
  };
  return walk(texts, '');
}
