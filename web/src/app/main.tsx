import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { App as CapacitorApp } from '@capacitor/app';
import { Capacitor } from '@capacitor/core';
// antd-mobile by its files, not its index, which would tie every component to the first screen
// (decision 039); its global styles (CSS variables) come first, ours after.
import 'antd-mobile/es/global';
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { credential } from '../lib/auth/credential';
import { initI18n, t } from '../lib/i18n/i18n';
import { setNavigator } from '../lib/navigation';
import { showToast } from '../lib/toast';
import { App } from './App';
import { createBackHandler } from './back-button';
import { deepLinkTarget } from './deep-link';
import { prefetchLaunchPage } from './prefetch-launch-page';
import { startInstallableWebApp } from './pwa/service-worker-updates';
import { createAppRouter } from './router';
import { ROOT_PATHS } from './routes';
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

async function start(): Promise<void> {
  prefetchLaunchPage();
  await initI18n();

  const launchPath = pathOfHash(window.location.hash);
  const redirect = startupRedirect(launchPath, credential.get() !== null);
  if (redirect) window.history.replaceState(null, '', `#${redirect}`);

  const router = createAppRouter();
  setNavigator((path, options) => router.navigate(path, options));

  if (Capacitor.isNativePlatform()) {
    const onBack = createBackHandler({
      now: () => Date.now(),
      isRootPage: () => ROOT_PATHS.has(router.state.location.pathname),
      goBack: () => void router.navigate(-1),
      exitApp: () => void CapacitorApp.exitApp(),
      promptExit: () => showToast(t('common.pressAgainToExit')),
    });
    await CapacitorApp.addListener('backButton', onBack);
    // Invitation links and other app links (AndroidManifest.xml intent filters) open their route.
    await CapacitorApp.addListener('appUrlOpen', ({ url }) => {
      const target = deepLinkTarget(url, credential.get() !== null);
      if (target) void router.navigate(target);
    });
  }

  const rootElement = document.getElementById('root');
  if (!rootElement) throw new Error('#root is missing from index.html');
  createRoot(rootElement).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
  if (!Capacitor.isNativePlatform()) startInstallableWebApp();
}

void start();
