import { credential } from '../lib/auth/credential';
import { PATHS_WITHOUT_SERVER_MESSAGES, prefetchLocale, storedLocale } from '../lib/i18n/locale-files';
import { pathOfHash, startupRedirect } from './startup';

/*
 * The page's first script file (web/build/early-start.ts, decision 041): it runs as soon as it
 * arrives, while the start file is still on its way, and loads the member's language (the server's
 * messages only when the page the app opens shows them, decision 044). The page's inline launch
 * script has already asked for these files, the page's code and its first reads while the page was
 * parsed (decision 047); the start finds all of it here.
 */
const launchPath = pathOfHash(window.location.hash);
const opens = startupRedirect(launchPath, credential.get() !== null) ?? launchPath;
prefetchLocale(storedLocale(), !PATHS_WITHOUT_SERVER_MESSAGES.has(opens));
