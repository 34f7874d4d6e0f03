import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { Plugin } from 'vite';
import { REQUEST_TIMEOUT_MS } from '../../packages/contract/src/constants';
import { DEFAULT_LOCALE, LANG_HEADER_BY_LOCALE, LOCALES } from '../../packages/contract/src/locales';
import { LAUNCH_CALLS } from '../src/app/launch-calls';
import { HOME_PATH, LOGIN_PATH, OPEN_TO_VISITORS } from '../src/app/startup';
import type { LaunchCall } from '../src/lib/api/early-calls';
import { CREDENTIAL_KEY } from '../src/lib/auth/credential';
import { LOCALE_STORAGE_KEY, PATHS_WITHOUT_SERVER_MESSAGES } from '../src/lib/i18n/locale-keys';

/*
 * The page's inline launch script (decision 047). It runs while the page is parsed, before any file
 * has arrived, and asks for the files the first screen needs besides the start: the member's
 * language, the server's messages when the page shows them, and the code of the page the app opens
 * (with the tab layout's on a tab). It only fetches them (`modulepreload`): the early file and the
 * start run them as before, and find them here. For a member it also sends the page's first reads
 * (`app/launch-calls.ts`), which the API client takes (`lib/api/early-calls.ts`). The server allows
 * this one script by its hash.
 */

/** What the launch script knows: file names, and which of them each launch needs. */
export interface LaunchMap {
  credentialKey: string;
  localeKey: string;
  locales: readonly string[];
  defaultLocale: string;
  openToVisitors: readonly string[];
  loginPath: string;
  homePath: string;
  noServerMessages: readonly string[];
  /** Every file named below, once (relative to the page). */
  files: string[];
  /** Per route path, its page's files (code, what it imports beyond the page's own, styles). */
  routes: Record<string, number[]>;
  /** Per language, its first texts' files and its server messages'. */
  languages: Record<string, { first: number[]; messages: number[] }>;
  /** Per page, the GET paths it reads first; the `lang` header per language; the client's time-out. */
  calls: Readonly<Record<string, readonly string[]>>;
  langHeaders: Readonly<Record<string, string>>;
  timeoutMs: number;
}

/**
 * Runs in the page (serialised with `toString`, so it uses nothing outside itself): the start-up
 * rule of `app/startup.ts` (a test holds them equal), then a `modulepreload` per file.
 */
export function preloadLaunch(map: LaunchMap): void {
  try {
    const hashPath = location.hash.replace(/^#/, '').split('?')[0] || '/';
    const signedIn = localStorage.getItem(map.credentialKey) !== null;
    const entry = hashPath === '/' || hashPath === map.loginPath;
    let opens = hashPath;
    if (!map.openToVisitors.includes(hashPath)) {
      if (!signedIn && !entry) opens = map.loginPath;
      if (signedIn && entry) opens = map.homePath;
    }
    const saved = localStorage.getItem(map.localeKey);
    const locale = saved !== null && map.locales.includes(saved) ? saved : map.defaultLocale;
    const language = map.languages[locale];
    // The page's first reads, for a member, with the headers the API client sends (decision 047).
    const authorization = localStorage.getItem(map.credentialKey);
    const lang = map.langHeaders[locale];
    if (authorization !== null && lang !== undefined) {
      const calls: Record<string, LaunchCall> = {};
      for (const callPath of map.calls[opens] ?? []) {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), map.timeoutMs);
        const response = fetch(`api${callPath.replace(/^\/api/, '')}`, {
          method: 'GET',
          headers: { lang, accept: 'application/json', Authorization: authorization },
          signal: controller.signal,
        });
        // Taken or not, a failure is the taker's to report (the client shows it), never an unhandled one.
        response.catch(() => undefined);
        calls[callPath] = { authorization, lang, startedAtMs: Date.now(), response, signal: controller.signal };
      }
      globalThis.__custosLaunchCalls = calls;
    }
    const wanted = [
      ...(language ? language.first : []),
      ...(language && !map.noServerMessages.includes(opens) ? language.messages : []),
      ...(map.routes[opens] ?? []),
    ];
    for (const index of new Set(wanted)) {
      const href = map.files[index];
      if (href === undefined) continue;
      const link = document.createElement('link');
      if (href.endsWith('.css')) {
        link.rel = 'preload';
        link.as = 'style';
      } else {
        link.rel = 'modulepreload';
      }
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    }
  } catch {
    // Storage refused: the early file and the start fetch what they need, a little later.
  }
}

/** Route path → page module (as `import()` names it, relative to `app/`), read from routes.ts. */
export function routeModules(source: string): Map<string, { module: string; tab: boolean }> {
  const file = ts.createSourceFile('routes.ts', source, ts.ScriptTarget.Latest, true);
  const namedLoaders = new Map<string, string>();
  const routes = new Map<string, { module: string; tab: boolean }>();
  const importOf = (node: ts.Node | undefined): string | undefined => {
    if (!node) return undefined;
    if (ts.isIdentifier(node)) return namedLoaders.get(node.text);
    if (ts.isArrowFunction(node) && ts.isCallExpression(node.body) && node.body.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.body.arguments;
      return argument && ts.isStringLiteral(argument) ? argument.text : undefined;
    }
    return undefined;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
      const module = importOf(node.initializer);
      if (module) namedLoaders.set(node.name.text, module);
    }
    if (ts.isObjectLiteralExpression(node)) {
      const property = (name: string) =>
        node.properties.find(
          (candidate): candidate is ts.PropertyAssignment =>
            ts.isPropertyAssignment(candidate) && ts.isIdentifier(candidate.name) && candidate.name.text === name,
        )?.initializer;
      const routePath = property('path');
      const module = importOf(property('load'));
      if (routePath && ts.isStringLiteral(routePath) && module) {
        routes.set(routePath.text, { module, tab: property('tab') !== undefined });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return routes;
}

interface BundleChunk {
  type: 'chunk';
  fileName: string;
  name: string;
  isEntry: boolean;
  imports: string[];
  moduleIds: string[];
  viteMetadata?: { importedCss: Set<string> };
}

function chunksOf(bundle: Record<string, { type: string }>): BundleChunk[] {
  return Object.values(bundle).filter((item): item is BundleChunk => item.type === 'chunk');
}

/** A chunk's file and the files it imports, less those already loading. */
function filesFrom(start: BundleChunk, byFile: Map<string, BundleChunk>, loading: Set<string>): string[] {
  const files: string[] = [];
  const stack = [start.fileName];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const fileName = stack.pop() as string;
    if (seen.has(fileName) || loading.has(fileName)) continue;
    seen.add(fileName);
    const chunk = byFile.get(fileName);
    if (!chunk) continue;
    files.push(fileName, ...(chunk.viteMetadata?.importedCss ?? []));
    stack.push(...chunk.imports);
  }
  return files;
}

/** The launch map of a build (`bundle`), for routes.ts's `source` under `appDir`. */
export function launchMap(bundle: Record<string, { type: string }>, source: string, appDir: string): LaunchMap {
  const chunks = chunksOf(bundle);
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  // What the page itself loads: the entries and everything they import.
  const loading = new Set<string>();
  for (const entry of chunks.filter((chunk) => chunk.isEntry)) {
    const stack = [entry.fileName];
    while (stack.length > 0) {
      const fileName = stack.pop() as string;
      if (loading.has(fileName)) continue;
      loading.add(fileName);
      stack.push(...(byFile.get(fileName)?.imports ?? []));
    }
  }
  const chunkHolding = (moduleBase: string): BundleChunk | undefined => {
    const ids = ['.tsx', '.ts'].map((extension) => path.resolve(appDir, moduleBase) + extension);
    return chunks.find((chunk) => chunk.moduleIds.some((id) => ids.includes(id)));
  };
  const files: string[] = [];
  const indexOf = (fileName: string): number => {
    const at = files.indexOf(`./${fileName}`);
    if (at >= 0) return at;
    files.push(`./${fileName}`);
    return files.length - 1;
  };
  const tabLayout = chunkHolding('layout/TabBarLayout');
  if (!tabLayout) throw new Error('the tab layout was not built');
  const tabLayoutFiles = filesFrom(tabLayout, byFile, loading);
  const routes: Record<string, number[]> = {};
  for (const [routePath, route] of routeModules(source)) {
    const page = chunkHolding(route.module);
    if (!page) throw new Error(`the page of ${routePath} (${route.module}) was not built`);
    const pageFiles = filesFrom(page, byFile, loading);
    routes[routePath] = [...new Set([...pageFiles, ...(route.tab ? tabLayoutFiles : [])])].map(indexOf);
  }
  const languages: LaunchMap['languages'] = {};
  for (const locale of LOCALES) {
    const named = (name: string) => chunks.find((chunk) => chunk.name === name);
    const first = named(`locale-${locale}`);
    const messages = named(`messages-${locale}`);
    languages[locale] = {
      first: first ? filesFrom(first, byFile, loading).map(indexOf) : [],
      messages: messages ? filesFrom(messages, byFile, loading).map(indexOf) : [],
    };
  }
  return {
    credentialKey: CREDENTIAL_KEY,
    localeKey: LOCALE_STORAGE_KEY,
    locales: [...LOCALES],
    defaultLocale: DEFAULT_LOCALE,
    openToVisitors: [...OPEN_TO_VISITORS],
    loginPath: LOGIN_PATH,
    homePath: HOME_PATH,
    noServerMessages: [...PATHS_WITHOUT_SERVER_MESSAGES],
    files,
    routes,
    languages,
    calls: LAUNCH_CALLS,
    langHeaders: LANG_HEADER_BY_LOCALE,
    timeoutMs: REQUEST_TIMEOUT_MS,
  };
}

/** The inline script's text for a launch map. */
export function launchScript(map: LaunchMap): string {
  return `(${preloadLaunch.toString()})(${JSON.stringify(map)})`;
}

export function launchScriptPlugin(): Plugin {
  let root = '';
  return {
    name: 'custos-launch-script',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const routesFile = path.resolve(root, 'src/app/routes.ts');
        if (!context.bundle || !existsSync(routesFile)) return [];
        const map = launchMap(context.bundle, readFileSync(routesFile, 'utf8'), path.dirname(routesFile));
        return [{ tag: 'script', children: launchScript(map), injectTo: 'head-prepend' }];
      },
    },
  };
}
