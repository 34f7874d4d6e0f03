import type { Locale } from '../locales.js';
import type { MessageCatalogue } from './messages/en.js';

/**
 * Each language's server messages as a module of its own, for a client that keeps only the language
 * it shows (the member app, decision 039): `SERVER_MESSAGES` brings all seven. Same texts, same files.
 */
export const SERVER_MESSAGE_LOADERS: Record<Locale, () => Promise<MessageCatalogue>> = {
  'zh-Hans': async () => (await import('./messages/zh-Hans.js')).zhHans,
  en: async () => (await import('./messages/en.js')).en,
  ja: async () => (await import('./messages/ja.js')).ja,
  ko: async () => (await import('./messages/ko.js')).ko,
  th: async () => (await import('./messages/th.js')).th,
  vi: async () => (await import('./messages/vi.js')).vi,
  'zh-Hant': async () => (await import('./messages/zh-Hant.js')).zhHant,
};
