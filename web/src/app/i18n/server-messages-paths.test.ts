import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PATHS_WITHOUT_SERVER_MESSAGES } from '../../lib/i18n/locale-files';
import { ROUTES } from '../routes';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER_MESSAGES = path.join(SRC, 'lib/i18n/server-messages.ts');
/** The one module that may import them on these pages: it loads catalogues, it translates nothing. */
const LOADER = path.join(SRC, 'lib/i18n/i18n.ts');

/**
 * The app's own modules a module imports statically, followed to the end (relative imports only),
 * and which of them import the server messages.
 */
function importersOfServerMessages(entry: string): string[] {
  const seen = new Set<string>();
  const importers: string[] = [];
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const [, specifier] of code.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+'(\.[^']+)'/gm)) {
      const base = path.resolve(path.dirname(file), specifier ?? '');
      const resolved = ['.ts', '.tsx', '/index.ts'].map((suffix) => base + suffix).find((candidate) => existsSync(candidate));
      if (resolved === SERVER_MESSAGES) importers.push(file);
      else if (resolved) stack.push(resolved);
    }
  }
  return importers;
}

describe('pages without server messages (decision 044)', () => {
  it('are routes, and neither they nor the tab layout read the server messages', () => {
    const entries = [path.join(SRC, 'app/layout/TabBarLayout.tsx')];
    const routesSource = readFileSync(path.join(SRC, 'app/routes.ts'), 'utf8');
    for (const pagePath of PATHS_WITHOUT_SERVER_MESSAGES) {
      expect(
        ROUTES.some((route) => route.path === pagePath),
        pagePath,
      ).toBe(true);
      // The route's page module, as routes.ts names it (the first import after its path).
      const at = routesSource.indexOf(`path: '${pagePath}'`);
      const page = at < 0 ? undefined : /import\('([^']+)'\)/.exec(routesSource.slice(at))?.[1];
      expect(page, `the page module of ${pagePath}`).toBeDefined();
      entries.push(path.resolve(SRC, 'app', `${page}.tsx`));
    }
    for (const entry of entries) {
      expect(existsSync(entry), entry).toBe(true);
      expect(importersOfServerMessages(entry), entry).toEqual([LOADER]);
    }
  });
});
