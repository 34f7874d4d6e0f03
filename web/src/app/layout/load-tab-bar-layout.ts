/**
 * The tab layout's code (tab bar, customer-service bubble). Not part of the log-in page's code
 * (decision 036): `router.tsx` loads it with the first tab page, and `prefetch-launch-page.ts` starts
 * fetching it beside that page's code when the app opens on a tab (decision 042), instead of only
 * once the router renders, a round trip later.
 */
import type * as TabBarLayoutExports from './TabBarLayout';

type TabBarLayoutModule = typeof TabBarLayoutExports;

let loaded: TabBarLayoutModule | null = null;

export const loadTabBarLayout = (): Promise<TabBarLayoutModule> => import('./TabBarLayout').then((module) => (loaded = module));

/** The tab layout when its code is already here (the launch waited for it, decision 044), else null. */
export function loadedTabBarLayout(): TabBarLayoutModule['TabBarLayout'] | null {
  return loaded?.TabBarLayout ?? null;
}
