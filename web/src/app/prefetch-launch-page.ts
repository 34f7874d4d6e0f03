import { credential } from '../lib/auth/credential';
import { loadTabBarLayout } from './layout/load-tab-bar-layout';
import { ROUTES } from './routes';
import { pathOfHash, startupRedirect } from './startup';

/**
 * Starts fetching the code of the page the app is about to open while its language loads, instead
 * of after (one round trip less before the first screen, decision 036). The page itself still
 * loads through LazyPage, which then finds the module already here.
 */
export function prefetchLaunchPage(): void {
  const launchPath = pathOfHash(window.location.hash);
  const path = startupRedirect(launchPath, credential.get() !== null) ?? launchPath;
  const route = ROUTES.find((candidate) => candidate.path === path);
  route?.load().catch(() => undefined);
  // A tab page also needs the tab layout (decision 042).
  if (route?.tab !== undefined) loadTabBarLayout().catch(() => undefined);
}
