import { credential } from '../lib/auth/credential';
import { PATHS_WITHOUT_SERVER_MESSAGES, prefetchLocale, storedLocale } from '../lib/i18n/locale-files';
import { pathOfHash, startupRedirect } from './startup';

/*
 * The page's first script, a small file of its own (web/build/early-start.ts, decision 041): it
 * runs as soon as it arrives, while the start file is still on its way, and starts fetching the
 * member's language, which the start then loads from here instead of one round trip later; the
 * server's messages only when the page the app opens shows them (decision 044).
 */
const launchPath = pathOfHash(window.location.hash);
const opens = startupRedirect(launchPath, credential.get() !== null) ?? launchPath;
prefetchLocale(storedLocale(), !PATHS_WITHOUT_SERVER_MESSAGES.has(opens));
