import { App as CapacitorApp } from '@capacitor/app';
import { credential } from '../lib/auth/credential';
import { t } from '../lib/i18n/i18n';
import { showToast } from '../lib/toast';
import { createBackHandler } from './back-button';
import { deepLinkTarget } from './deep-link';
import type { createAppRouter } from './router';
import { ROOT_PATHS } from './routes';

/**
 * The native shell's events (Android package only; a browser never loads this file or
 * @capacitor/app, decision 041): the back button, and app links that open a route.
 */
export async function listenToNativeShell(router: ReturnType<typeof createAppRouter>): Promise<void> {
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
