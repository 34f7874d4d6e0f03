import { prefetchLocale, storedLocale } from '../lib/i18n/locale-files';

/*
 * The page's first script, a small file of its own (web/build/early-start.ts, decision 041): it
 * runs as soon as it arrives, while the start file is still on its way, and starts fetching the
 * member's language, which the start then loads from here instead of one round trip later.
 */
prefetchLocale(storedLocale());
