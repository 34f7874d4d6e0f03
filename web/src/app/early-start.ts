import { startEarlyCall } from '../lib/api/early-calls';
import { credential } from '../lib/auth/credential';
import { PATHS_WITHOUT_SERVER_MESSAGES, prefetchLocale, storedLocale } from '../lib/i18n/locale-files';
import { LAUNCH_CALLS } from './launch-calls';
import { pathOfHash, startupRedirect } from './startup';

/*
 * The page's first script file (web/build/early-start.ts, decision 041): it runs as soon as it
 * arrives, while the start file is still on its way. It loads the member's language (the server's
 * messages only when the page the app opens shows them, decision 044), and sends the page's first
 * reads (decision 047). The page's inline launch script has already asked for these files and the
 * page's code while the page was parsed (decision 047); the start finds all of it here.
 */
const launchPath = pathOfHash(window.location.hash);
const opens = startupRedirect(launchPath, credential.get() !== null) ?? launchPath;
const locale = storedLocale();
prefetchLocale(locale, !PATHS_WITHOUT_SERVER_MESSAGES.has(opens));
for (const path of LAUNCH_CALLS[opens] ?? []) startEarlyCall(path, locale);
