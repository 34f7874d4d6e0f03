import { credential } from '../lib/auth/credential';
import { loadPage } from './lazy-page';
import { loadTabBarLayout } from './layout/load-tab-bar-layout';
import { pageNeeds } from './router';
import { ROUTES } from './routes';
import { pathOfHash, startupRedirect } from './startup';

/**
 * Starts fetching the code of the page the app is about to open while its language loads, instead
 * of after (one round trip less before the first screen, decision 036). Answers a function that,
 * once the language is loaded, loads the page with what it needs (its texts, the server messages)
 * and the tab layout, so the first render can show them at once (decision 044); LazyPage then finds
 * the page here.
 */
export function prefetchLaunchPage(): () => Promise<void> {
  const launchPath = pathOfHash(window.location.hash);
  const path = startupRedirect(launchPath, credential.get() !== null) ?? launchPath;
  const route = ROUTES.find((candidate) => candidate.path === path);
  route?.load().catch(() => undefined);
  // A tab page also needs the tab layout (decision 042).
  if (route?.tab !== undefined) loadTabBarLayout().catch(() => undefined);
  return async () => {
    if (!route) return;
    await Promise.all([loadPage(route.load, pageNeeds(route)), route.tab !== undefined ? loadTabBarLayout() : undefined]);
  };
}
