import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LANG_HEADER_BY_LOCALE, LOCALES } from '@custos/contract';
import { type LaunchMap, launchScript, preloadLaunch, routeModules } from '../../../build/launch-script';
import { ROUTES } from '../routes';
import { HOME_PATH, LOGIN_PATH, OPEN_TO_VISITORS, startupRedirect } from '../startup';

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const routesSource = readFileSync(path.join(APP_DIR, 'routes.ts'), 'utf8');

/** A launch map whose every route and language names a file of its own, to see which were asked for. */
function markedMap(): LaunchMap {
  const files: string[] = [];
  const mark = (name: string) => files.push(name) - 1;
  return {
    credentialKey: 'Authorization',
    localeKey: 'custos.locale',
    locales: [...LOCALES],
    defaultLocale: 'zh-Hans',
    openToVisitors: [...OPEN_TO_VISITORS],
    loginPath: LOGIN_PATH,
    homePath: HOME_PATH,
    noServerMessages: [HOME_PATH],
    files,
    routes: Object.fromEntries(ROUTES.map((route) => [route.path, [mark(`page:${route.path}`), mark(`./shared.css`)]])),
    languages: Object.fromEntries(
      LOCALES.map((locale) => [locale, { first: [mark(`first:${locale}`)], messages: [mark(`messages:${locale}`)] }]),
    ),
    calls: { [HOME_PATH]: ['/api/user/assets'] },
    langHeaders: LANG_HEADER_BY_LOCALE,
    timeoutMs: 60_000,
  };
}

/** Runs the launch script's function in a stand-in page; answers the links it added. */
function launch(map: LaunchMap, hash: string, storage: Record<string, string>): { rel: string; href: string; as?: string }[] {
  const links: { rel: string; href: string; as?: string }[] = [];
  vi.stubGlobal('location', { hash });
  vi.stubGlobal('localStorage', { getItem: (key: string) => storage[key] ?? null });
  vi.stubGlobal('document', {
    createElement: () => ({}) as { rel: string; href: string; as?: string },
    head: { appendChild: (link: { rel: string; href: string; as?: string }) => links.push(link) },
  });
  vi.stubGlobal('fetch', fetchMock);
  preloadLaunch(map);
  return links.map(({ rel, href, as }) => (as ? { rel, href, as } : { rel, href }));
}

const fetchMock = vi.fn(async () => Response.json({ code: 200, message: 'ok', data: null }));

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockClear();
  globalThis.__custosLaunchCalls = undefined;
});

describe('the inline launch script (decision 047)', () => {
  it('finds every route of routes.ts with the page module its load imports', () => {
    const modules = routeModules(routesSource);
    expect([...modules.keys()].sort()).toEqual(ROUTES.map((route) => route.path).sort());
    for (const route of ROUTES) {
      const found = modules.get(route.path);
      expect(found?.tab, route.path).toBe(route.tab !== undefined);
      const base = path.resolve(APP_DIR, found?.module ?? '');
      expect(existsSync(`${base}.tsx`) || existsSync(`${base}.ts`), `${route.path}: ${found?.module}`).toBe(true);
    }
  });

  it('opens the page the start-up rule opens, for every route, signed in or not', () => {
    const map = markedMap();
    for (const route of ROUTES) {
      for (const signedIn of [false, true]) {
        const storage: Record<string, string> = signedIn ? { Authorization: 'token' } : {};
        const opens = startupRedirect(route.path, signedIn) ?? route.path;
        const pages = launch(map, `#${route.path}?id=1`, storage).filter((link) => link.href.startsWith('page:'));
        expect(pages, `${route.path}, signed in: ${signedIn}`).toEqual([{ rel: 'modulepreload', href: `page:${opens}` }]);
      }
    }
    // No hash at all is the entry route.
    expect(launch(map, '', {}).map((link) => link.href)).toContain('page:/');
  });

  it("asks for the member's language, with its server messages unless the page shows none", () => {
    const map = markedMap();
    expect(launch(map, '#/pages/login/login', { 'custos.locale': 'ja' })).toEqual([
      { rel: 'modulepreload', href: 'first:ja' },
      { rel: 'modulepreload', href: 'messages:ja' },
      { rel: 'modulepreload', href: `page:${LOGIN_PATH}` },
      { rel: 'preload', href: './shared.css', as: 'style' },
    ]);
    const home = launch(map, `#${HOME_PATH}`, { 'custos.locale': 'en', Authorization: 'token' }).map((link) => link.href);
    expect(home).toEqual(['first:en', `page:${HOME_PATH}`, './shared.css']);
    // A language the app does not have is the default one.
    expect(launch(map, '#/', { 'custos.locale': 'xx' }).map((link) => link.href)).toContain('first:zh-Hans');
  });

  it("sends a member's first reads of the page with the client's headers, and a visitor's none", () => {
    launch(markedMap(), `#${HOME_PATH}`, { 'custos.locale': 'ko', Authorization: 'token-a' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = (fetchMock.mock.calls[0] ?? []) as unknown as [string, RequestInit];
    expect(url).toBe('api/user/assets');
    expect(init.method).toBe('GET');
    expect(init.headers).toEqual({ lang: 'KO', accept: 'application/json', Authorization: 'token-a' });
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(globalThis.__custosLaunchCalls?.['/api/user/assets']).toMatchObject({ authorization: 'token-a', lang: 'KO' });

    fetchMock.mockClear();
    globalThis.__custosLaunchCalls = undefined;
    // A visitor opening Home is sent to log-in, which reads nothing first.
    launch(markedMap(), `#${HOME_PATH}`, {});
    launch(markedMap(), '#/pages/login/login', {});
    expect(fetchMock).not.toHaveBeenCalled();
    expect(globalThis.__custosLaunchCalls).toBeUndefined();
  });

  it('does nothing, and breaks nothing, where storage is refused', () => {
    vi.stubGlobal('location', { hash: '#/' });
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('SecurityError');
      },
    });
    expect(() => preloadLaunch(markedMap())).not.toThrow();
  });

  it('is one self-contained expression: the function and its map', () => {
    const map = markedMap();
    const script = launchScript(map);
    expect(script.startsWith('(function preloadLaunch(')).toBe(true);
    expect(script.endsWith(`)(${JSON.stringify(map)})`)).toBe(true);
  });
});
