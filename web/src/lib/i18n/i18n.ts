import { DEFAULT_LOCALE, isLocale, type Locale } from '@custos/contract';
import type { TextPart } from '../../app/i18n/text-parts';
import { APP_TEXTS, LOCALE_STORAGE_KEY, UI_KIT_TEXTS, storedLocale, type UiKitLocale } from './locale-files';
import { loadServerMessages } from './server-messages';
import { translator } from './translator';

export { LOCALE_STORAGE_KEY, storedLocale, type UiKitLocale };

/*
 * Only the member's language is loaded at start (decisions 036, 039), and of the app's own texts only
 * the first screens' part (decision 041, `app/i18n/text-parts.ts`): each language's first part, with
 * antd-mobile's texts and the contract's server messages, is one file fetched when the app starts in
 * it (from the page's `early` file, before the start file has arrived) or switches to it; the rest
 * of its texts is another, fetched when a page needs it.
 */

const uiKitLocales = new Map<Locale, UiKitLocale>();
/** The parts of the app's texts this session has needed: a language switch brings all of them. */
const partsInUse = new Set<TextPart>(['first']);
/** Whether a page that shows server messages has been opened: a language switch brings them too. */
let serverMessagesInUse = false;
/** Parts fetched (or being fetched), per language, so each is fetched once. */
const partsLoaded = new Map<string, Promise<void>>();

function loadPart(locale: Locale, part: TextPart): Promise<void> {
  const key = `${locale}/${part}`;
  let loading = partsLoaded.get(key);
  if (!loading) {
    loading = APP_TEXTS[locale][part]().then(({ default: texts }) => {
      translator.addTexts(locale, texts);
    });
    // A failed fetch is tried again by the next caller.
    loading.catch(() => partsLoaded.delete(key));
    partsLoaded.set(key, loading);
  }
  return loading;
}

/** Fetches a language's texts (the parts in use), antd-mobile's and the server's (when in use), once. */
async function loadLocale(locale: Locale): Promise<void> {
  const [uiKit] = await Promise.all([
    uiKitLocales.get(locale) ?? UI_KIT_TEXTS[locale]().then((module) => module.default),
    serverMessagesInUse ? loadServerMessages(locale) : undefined,
    ...[...partsInUse].map((part) => loadPart(locale, part)),
  ]);
  uiKitLocales.set(locale, uiKit);
}

/**
 * The texts of a page beyond the first screens, in the current language: a page that needs them
 * waits for this before it renders (`LazyPage`); from then on a language switch brings them too.
 */
export function loadPageTexts(): Promise<void> {
  partsInUse.add('rest');
  return loadPart(currentLocale(), 'rest');
}

/**
 * The server's messages in the current language, for a page that shows them (every page but Home,
 * `PATHS_WITHOUT_SERVER_MESSAGES`): it waits for this before it renders (`LazyPage`, decision 044);
 * from then on a language switch brings them too.
 */
export function loadPageServerMessages(): Promise<void> {
  serverMessagesInUse = true;
  return loadServerMessages(currentLocale());
}

/** antd-mobile's texts for a language already loaded (the current one always is). */
export function uiKitLocale(locale: Locale): UiKitLocale | undefined {
  return uiKitLocales.get(locale);
}

export function currentLocale(): Locale {
  return isLocale(translator.language) ? translator.language : DEFAULT_LOCALE;
}

export async function initI18n(): Promise<void> {
  const locale = storedLocale();
  // Set before anything renders (nothing listens yet), so what loads meanwhile asks in it.
  translator.changeLanguage(locale);
  // Every language is complete (locales.test.ts): nothing falls back to another one.
  await loadLocale(locale);
  document.documentElement.lang = locale;
}

/** Switches the language (after fetching its texts) and remembers it on this device. */
export async function changeLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  // A page that asked for more texts while these were coming gets them in this language too.
  await Promise.all([
    ...[...partsInUse].map((part) => loadPart(locale, part)),
    serverMessagesInUse ? loadServerMessages(locale) : undefined,
  ]);
  localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  translator.changeLanguage(locale);
  document.documentElement.lang = locale;
}

export const t = translator.t;
