import type { QueryClient } from '@tanstack/react-query';
import { credential } from '../lib/auth/credential';
import { prefetchForLaunch } from '../lib/query/query-client';
import { loadPage } from './lazy-page';
import { loadTabBarLayout } from './layout/load-tab-bar-layout';
import { pageNeeds } from './router';
import { ROUTES } from './routes';
import { pathOfHash, startupRedirect } from './startup';

/**
 * Starts fetching the code of the page the app is about to open while its language loads, instead
 * of after (decision 036; the early file has usually asked for it already, decision 047). Answers a
 * function that, once the language is loaded, loads the page with what it needs (its texts, the
 * server messages), the tab layout, and the page's first reads (`launchQueries`, into the cache),
 * so the first render can show them at once (decisions 044 and 047); LazyPage then finds the page
 * here.
 */
export function prefetchLaunchPage(): (client: QueryClient) => Promise<void> {
  const launchPath = pathOfHash(window.location.hash);
  const path = startupRedirect(launchPath, credential.get() !== null) ?? launchPath;
  const route = ROUTES.find((candidate) => candidate.path === path);
  route?.load().catch(() => undefined);
  // A tab page also needs the tab layout (decision 042).
  if (route?.tab !== undefined) loadTabBarLayout().catch(() => undefined);
  return async (client) => {
    if (!route) return;
    const launchQueries = async () => {
      const module = await route.load();
      if (module.launchQueries) await prefetchForLaunch(client, module.launchQueries);
    };
    await Promise.all([
      loadPage(route.load, pageNeeds(route)),
      route.tab !== undefined ? loadTabBarLayout() : undefined,
      launchQueries(),
    ]);
  };
}
