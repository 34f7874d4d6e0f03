import type { Locale } from '../locales.js';
import { en, type MessageCatalogue, type MessageKey } from './messages/en.js';
import { ja } from './messages/ja.js';
import { ko } from './messages/ko.js';
import { th } from './messages/th.js';
import { vi } from './messages/vi.js';
import { zhHans } from './messages/zh-Hans.js';
import { zhHant } from './messages/zh-Hant.js';

export type { MessageKey, MessageCatalogue };

export const SERVER_MESSAGES: Record<Locale, MessageCatalogue> = {
  'zh-Hans': zhHans,
  en,
  ja,
  ko,
  th,
  vi,
  'zh-Hant': zhHant,
};

export type MessageParams = Record<string, string | number>;

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(en, value);
}

/** Fills `{name}` placeholders; a placeholder with no value is left as written. */
export function interpolate(template: string, params: MessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** A server message in the given locale. */
export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  return interpolate(SERVER_MESSAGES[locale][key], params);
}

/** The label of a request field ("email" → "e-mail"), or the field's own name when it has none. */
export function fieldLabel(locale: Locale, field: string): string {
  const key = `field.${field}`;
  return isMessageKey(key) ? translate(locale, key) : field;
}
