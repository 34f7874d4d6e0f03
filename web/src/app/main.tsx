// First: zod's jitless setting must be in force before any schema is built (CSP: no eval).
import '../lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { PAGE_LOADING_DELAY_MS } from '@custos/contract';
// antd-mobile by its files, not its index, which would tie every component to the first screen
// (decision 039); its global styles (CSS variables) come first, ours after.
import 'antd-mobile/es/global';
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { holdReadsForFirstFrame } from '../lib/api/first-frame';
import { credential } from '../lib/auth/credential';
import { initI18n } from '../lib/i18n/i18n';
import { setNavigator } from '../lib/navigation';
import { createQueryClient } from '../lib/query/query-client';
import { isNativePlatform } from '../lib/native-platform';
import { App } from './App';
import { prefetchLaunchPage } from './prefetch-launch-page';
import { startInstallableWebApp } from './pwa/service-worker-updates';
import { createAppRouter } from './router';
import { pathOfHash, startupRedirect } from './startup';
import './styles.css';

// antd-mobile renders toasts and dialogs with React 18's legacy API; React 19 needs this hook or
// they silently never appear.
unstableSetRender((node, container) => {
  const host = container as Element & { __custosRoot?: Root };
  host.__custosRoot ??= createRoot(container);
  const root = host.__custosRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    delete host.__custosRoot;
  };
});

/** Waits for `promise`, at most `ms` (it may fail: the page then handles it as it would anyway). */
function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    promise.then(
      () => resolve(),
      () => resolve(),
    );
    void promise.finally(() => clearTimeout(timer)).catch(() => undefined);
  });
}

async function start(): Promise<void> {
  const loadLaunchPage = prefetchLaunchPage();
  await initI18n();
  // The page the app opens (and the tab layout) renders with the app's first render when its code
  // is here within the spec's 200 ms of a page showing nothing, instead of a blank layout, a
  // second render for the layout and a third for the page (decision 044); so do its first reads,
  // usually already answered to the early file (decision 047).
  const queryClient = createQueryClient();
  await settledWithin(loadLaunchPage(queryClient), PAGE_LOADING_DELAY_MS);

  const launchPath = pathOfHash(window.location.hash);
  const redirect = startupRedirect(launchPath, credential.get() !== null);
  if (redirect) window.history.replaceState(null, '', `#${redirect}`);

  const router = createAppRouter();
  setNavigator((path, options) => router.navigate(path, options));

  // The Android package's back button and app links; a browser never loads their code.
  if (isNativePlatform()) await (await import('./native-shell')).listenToNativeShell(router);

  const rootElement = document.getElementById('root');
  if (!rootElement) throw new Error('#root is missing from index.html');
  const root = createRoot(rootElement);
  // Until the first frame is shown, only the launch's own reads go out (decision 048).
  holdReadsForFirstFrame();
  // The first render is a transition (decision 044): React renders the launch screen in slices
  // with the browser running in between, not in one long task of the main thread.
  startTransition(() =>
    root.render(
      <StrictMode>
        <App router={router} queryClient={queryClient} />
      </StrictMode>,
    ),
  );
  if (!isNativePlatform()) startInstallableWebApp();
}

void start();
