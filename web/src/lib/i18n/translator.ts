import { useSyncExternalStore } from 'react';
import { DEFAULT_LOCALE } from '@custos/contract';
import type { TextTree } from '../../app/i18n/text-parts';

/*
 * The app's own translator (decision 047). The app used this much of i18next and react-i18next:
 * one language at a time, its texts added in parts as they arrive, `t(key, values)` over dotted
 * keys with `{{name}}` placeholders, and a hook that renders again when the language changes. That
 * is these few lines; the two libraries were about 15 KB of the start file (brotli) and their set-up
 * ran before the first screen.
 */

export type TextValues = Record<string, string | number | null | undefined>;
export type Translate = (key: string, values?: TextValues) => string;

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/**
 * Fills `{{name}}` placeholders as i18next did: a value given as null is blank, one not given (or
 * undefined) is left as written, so a missing one shows.
 */
export function fillPlaceholders(template: string, values: TextValues = {}): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return value === null ? '' : String(value);
  });
}

function isTree(value: string | TextTree | undefined): value is TextTree {
  return typeof value === 'object' && value !== null;
}

/** `source` merged into `target`, part by part (a later part adds keys and may overwrite). */
function mergeInto(target: TextTree, source: TextTree): void {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (isTree(value) && isTree(current)) mergeInto(current, value);
    else target[key] = isTree(value) ? structuredClone(value) : value;
  }
}

export class Translator {
  private current: string;
  private readonly texts = new Map<string, TextTree>();
  private readonly listeners = new Set<() => void>();
  private readonly translators = new Map<string, Translate>();

  constructor(language: string) {
    this.current = language;
  }

  get language(): string {
    return this.current;
  }

  /** Adds a part of a language's texts. */
  addTexts(language: string, texts: TextTree): void {
    let tree = this.texts.get(language);
    if (!tree) this.texts.set(language, (tree = {}));
    mergeInto(tree, texts);
  }

  /** The text of `key` in `language`, or the key itself when it has none (never a blank). */
  translate(language: string, key: string, values?: TextValues): string {
    let node: string | TextTree | undefined = this.texts.get(language);
    for (const part of key.split('.')) node = isTree(node) ? node[part] : undefined;
    return typeof node === 'string' ? fillPlaceholders(node, values) : key;
  }

  /** A `t` bound to `language`: the same function for the same language, so memoised screens keep it. */
  translatorFor(language: string): Translate {
    let bound = this.translators.get(language);
    if (!bound) {
      bound = (key, values) => this.translate(language, key, values);
      this.translators.set(language, bound);
    }
    return bound;
  }

  /** `t` in the current language, for code outside React (the API client's messages, toasts). */
  readonly t: Translate = (key, values) => this.translate(this.current, key, values);

  changeLanguage(language: string): void {
    if (language === this.current) return;
    this.current = language;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

/** The app's one translator; `lib/i18n/i18n.ts` loads its texts and sets its language. */
export const translator = new Translator(DEFAULT_LOCALE);

/** The current language's `t`; a screen using it renders again when the member switches language. */
export function useTranslation(): { t: Translate; i18n: { language: string } } {
  const snapshot = () => translator.language;
  const language = useSyncExternalStore(translator.subscribe, snapshot, snapshot);
  return { t: translator.translatorFor(language), i18n: { language } };
}
