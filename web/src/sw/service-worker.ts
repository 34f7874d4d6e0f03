/*
 * The member app's service worker (decision 036), built to /sw.js by web/build/service-worker-plugin.ts,
 * which writes in the list of the build's files and the build's id. It keeps one version of the
 * app shell (the page, every script and style sheet, the manifest, icons) so the app opens without
 * a connection; the API is never answered from here (data always comes from the server, and the
 * app shows the spec's time-out screen when it cannot). A new version installs beside the running
 * one and waits: the page asks the member ("New version detected…") and tells it to take over.
 */

interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface InstallEvent extends ExtendableEvent {
  /** Chromium's static routing: requests matched here never start the worker. */
  addRoutes?: (rules: { condition: { urlPattern: string }; source: 'network' }[]) => Promise<void>;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly location: Location;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install', listener: (event: InstallEvent) => void): void;
  addEventListener(type: 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

/** Written in by the build: its id (a hash of what it contains) and its files, relative to the scope. */
interface BuildManifest {
  id: string;
  files: string[];
}

const worker = self as unknown as WorkerScope;
const build = JSON.parse('__CUSTOS_SW_MANIFEST__') as BuildManifest;

const CACHE_PREFIX = 'custos-shell-';
const CACHE_NAME = `${CACHE_PREFIX}${build.id}`;
const scope = new URL(worker.registration.scope);
const PAGE_URL = new URL('index.html', scope).href;
const precached = new Set(build.files.map((file) => new URL(file, scope).href));

/** The path below the scope, or null for another origin or the API, the console and the health check. */
function appPath(url: URL): string | null {
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  const inside = url.pathname.slice(scope.pathname.length);
  return /^(?:api|admin|healthz)(?:\/|$)/.test(inside) ? null : inside;
}

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      // The API, the console and the live channel never pass through this worker.
      // Where static routing is not supported, the fetch handler below leaves them alone instead.
      await event
        .addRoutes?.(
          ['api/*', 'admin', 'admin/*', 'healthz'].map((path) => ({
            condition: { urlPattern: new URL(path, scope).pathname },
            source: 'network' as const,
          })),
        )
        .catch(() => undefined);
      const cache = await caches.open(CACHE_NAME);
      // `reload`: straight from the server, not from the browser's HTTP cache.
      await cache.addAll(build.files.map((file) => new Request(new URL(file, scope), { cache: 'reload' })));
    })(),
  );
  // No skipWaiting here: a new version waits until the member agrees to reload.
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME) await caches.delete(name);
      }
    })(),
  );
});

worker.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void worker.skipWaiting();
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  const path = appPath(url);
  if (path === null) return;
  if (request.mode === 'navigate' && (path === '' || path === 'index.html')) {
    // The app is one page (hash routes): opening it opens this version's page, whatever the server has.
    event.respondWith((async () => (await caches.match(PAGE_URL, { cacheName: CACHE_NAME })) ?? fetch(request))());
    return;
  }
  url.search = '';
  url.hash = '';
  if (!precached.has(url.href)) return;
  event.respondWith((async () => (await caches.match(url.href, { cacheName: CACHE_NAME })) ?? fetch(request))());
});

export {};
