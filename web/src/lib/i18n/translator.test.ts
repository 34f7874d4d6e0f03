import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import en from '../../app/i18n/locales/en.json';
import ja from '../../app/i18n/locales/ja.json';
import { Translator, fillPlaceholders, translator, useTranslation } from './translator';

describe('the app translator (decision 047)', () => {
  it('reads dotted keys and fills {{name}} placeholders, as the texts are written', () => {
    const texts = new Translator('en');
    texts.addTexts('en', en);
    texts.addTexts('ja', ja);
    expect(texts.translate('en', 'team.generation', { count: 3 })).toBe('Generation 3');
    expect(texts.translate('ja', 'team.legsValue', { count: 2, level: 'V1' })).toBe('V1 が 2 人');
    expect(texts.t('quotes.ageMinutes', { count: 5 })).toBe('5 min ago');
  });

  it('answers the key itself for a missing text or a branch, never a blank', () => {
    const texts = new Translator('en');
    texts.addTexts('en', { routes: { login: 'Log in' } });
    expect(texts.t('routes.nothing')).toBe('routes.nothing');
    expect(texts.t('routes')).toBe('routes');
    expect(texts.translate('ko', 'routes.login')).toBe('routes.login');
  });

  it('keeps a placeholder with no value visible and blanks a null one', () => {
    expect(fillPlaceholders('{{a}} and {{ b }} and {{c}}', { a: 1, b: null })).toBe('1 and  and {{c}}');
    expect(fillPlaceholders('no placeholders')).toBe('no placeholders');
  });

  it('adds a later part of a language beside the first, and a later value wins', () => {
    const texts = new Translator('en');
    texts.addTexts('en', { common: { ok: 'OK', cancel: 'Cancel' } });
    texts.addTexts('en', { common: { ok: 'Fine' }, team: { title: 'Team' } });
    expect([texts.t('common.ok'), texts.t('common.cancel'), texts.t('team.title')]).toEqual(['Fine', 'Cancel', 'Team']);
  });

  it('tells its listeners of a language switch once, and keeps one t per language', () => {
    const texts = new Translator('en');
    const listener = vi.fn();
    const unsubscribe = texts.subscribe(listener);
    const english = texts.translatorFor('en');
    texts.changeLanguage('en');
    expect(listener).not.toHaveBeenCalled();
    texts.changeLanguage('ja');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(texts.language).toBe('ja');
    expect(texts.translatorFor('en')).toBe(english);
    unsubscribe();
    texts.changeLanguage('en');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('renders a screen in the current language', () => {
    function Greeting() {
      const { t, i18n } = useTranslation();
      return createElement('p', { lang: i18n.language }, t('test.hello', { name: 'Ann' }));
    }
    translator.addTexts('en', { test: { hello: 'Hello {{name}}' } });
    translator.addTexts('ja', { test: { hello: 'こんにちは {{name}}' } });
    translator.changeLanguage('en');
    expect(renderToStaticMarkup(createElement(Greeting))).toBe('<p lang="en">Hello Ann</p>');
    translator.changeLanguage('ja');
    expect(renderToStaticMarkup(createElement(Greeting))).toBe('<p lang="ja">こんにちは Ann</p>');
  });
});
