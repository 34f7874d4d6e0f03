import { LOCALES } from '@custos/contract';
import { loadServerMessages } from './lib/i18n/server-messages';

// The app loads the server messages of the language it shows (decision 039); tests use any of them.
await Promise.all(LOCALES.map((locale) => loadServerMessages(locale)));
