/*
 * The installable web app's side of the service worker (decision 036): registers /sw.js, and when
 * a new deployment's worker has installed beside the one running this page, asks the member (spec
 * §8 "New version detected…"); on consent the new worker takes over and the page reloads into the
 * new version. A member who declines keeps the running version until the next launch.
 */

/** How often an open app asks the server whether there is a new deployment. */
export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/** The parts of the browser this uses, so the logic can be driven by a test. */
export interface ServiceWorkerHost {
  register(url: string): Promise<ServiceWorkerRegistration>;
  /** The worker controlling this page (null on a first visit, before any version was installed). */
  controller(): ServiceWorker | null;
  onControllerChange(listener: () => void): void;
  reload(): void;
}

export interface UpdateOptions {
  host: ServiceWorkerHost;
  /** Asks the member; resolves true when they agree to reload now. */
  confirmUpdate: () => Promise<boolean>;
}

/** Watches a registration and offers each new version once it has installed and waits. */
export function watchForUpdates(registration: ServiceWorkerRegistration, { host, confirmUpdate }: UpdateOptions): void {
  let offered: ServiceWorker | null = null;
  let reloading = false;

  host.onControllerChange(() => {
    // Only a take-over the member agreed to reloads (the first install takes over nothing).
    if (offered && !reloading) {
      reloading = true;
      host.reload();
    }
  });

  const offer = (waiting: ServiceWorker) => {
    // A first install is not an update, and a version already offered is not asked about again.
    if (!host.controller() || offered === waiting) return;
    offered = waiting;
    void confirmUpdate().then((agreed) => {
      if (agreed) waiting.postMessage({ type: 'SKIP_WAITING' });
    });
  };

  if (registration.waiting) offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    if (!installing) return;
    installing.addEventListener('statechange', () => {
      if (installing.state === 'installed' && registration.waiting === installing) offer(installing);
    });
  });
}

/** Registers the worker and checks for a new deployment when the app comes back to the foreground and hourly. */
export async function startServiceWorker(options: UpdateOptions): Promise<ServiceWorkerRegistration> {
  const registration = await options.host.register('./sw.js');
  watchForUpdates(registration, options);
  const check = () => void registration.update().catch(() => undefined);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
  setInterval(check, UPDATE_CHECK_INTERVAL_MS);
  return registration;
}

/** The browser's service worker container, as the host above. */
export function browserHost(container: ServiceWorkerContainer): ServiceWorkerHost {
  return {
    // updateViaCache 'none': the worker script is always asked of the server, never the HTTP cache.
    register: (url) => container.register(url, { updateViaCache: 'none' }),
    controller: () => container.controller,
    onControllerChange: (listener) => container.addEventListener('controllerchange', listener),
    reload: () => window.location.reload(),
  };
}

/**
 * Starts the worker once the page has loaded (its precaching never competes with the first
 * screen), in browsers only: the Android package updates itself another way.
 */
export function startInstallableWebApp(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const start = () =>
    void startServiceWorker({
      host: browserHost(navigator.serviceWorker),
      confirmUpdate: () => import('./update-prompt').then(({ askToUpdate }) => askToUpdate()),
    }).catch(() => undefined);
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
