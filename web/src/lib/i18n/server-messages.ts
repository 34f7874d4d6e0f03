import {
  SERVER_MESSAGE_LOADERS,
  interpolate,
  type Locale,
  type MessageCatalogue,
  type MessageKey,
  type MessageParams,
} from '@custos/contract';

/*
 * The server's messages (the contract's catalogue: refusals, field names, reasons) in the languages
 * this app has loaded. Like the app's own texts, only the member's language is fetched at start and
 * another one when the member switches to it (decision 039); the contract's `translate`, which
 * brings all seven, is for the server and the console.
 */
const loaded = new Map<Locale, MessageCatalogue>();

/** Fetches a language's server messages once. */
export async function loadServerMessages(locale: Locale): Promise<void> {
  if (!loaded.has(locale)) loaded.set(locale, await SERVER_MESSAGE_LOADERS[locale]());
}

function catalogue(locale: Locale): MessageCatalogue {
  const messages = loaded.get(locale);
  if (!messages) throw new Error(`The server messages in ${locale} are not loaded`);
  return messages;
}

/** A server message in the given (loaded) language. */
export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  return interpolate(catalogue(locale)[key], params);
}

/** Every language has the same keys (the contract's locales test): any loaded one answers. */
export function isMessageKey(value: string): value is MessageKey {
  const any = loaded.values().next();
  return !any.done && Object.hasOwn(any.value, value);
}

/** The label of a request field ("email" → "e-mail"), or the field's own name when it has none. */
export function fieldLabel(locale: Locale, field: string): string {
  const key = `field.${field}`;
  return Object.hasOwn(catalogue(locale), key) ? translate(locale, key as MessageKey) : field;
}
