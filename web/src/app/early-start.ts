import { startEarlyCall } from '../lib/api/early-calls';
import { credential } from '../lib/auth/credential';
import { PATHS_WITHOUT_SERVER_MESSAGES, prefetchLocale, storedLocale } from '../lib/i18n/locale-files';
import { loadTabBarLayout } from './layout/load-tab-bar-layout';
import { ROUTES } from './routes';
import { pathOfHash, startupRedirect } from './startup';

/*
 * The page's first script, a small file of its own (web/build/early-start.ts, decision 041): it
 * runs as soon as it arrives, while the start file is still on its way, and starts fetching what
 * the first screen needs besides the start: the member's language (the server's messages only when
 * the page the app opens shows them, decision 044), that page's code and the tab layout's, and the
 * page's first reads (decision 047). The start then finds them here instead of asking for them a
 * round trip later, once all of it has arrived and run.
 */
const launchPath = pathOfHash(window.location.hash);
const opens = startupRedirect(launchPath, credential.get() !== null) ?? launchPath;
const locale = storedLocale();
prefetchLocale(locale, !PATHS_WITHOUT_SERVER_MESSAGES.has(opens));
const route = ROUTES.find((candidate) => candidate.path === opens);
if (route) {
  for (const path of route.launchCalls ?? []) startEarlyCall(path, locale);
  // Its code runs when the start has arrived (a page imports it), as it would from the start.
  route.load().catch(() => undefined);
  if (route.tab !== undefined) loadTabBarLayout().catch(() => undefined);
}
