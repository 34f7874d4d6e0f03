import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Link, MemoryRouter, Router, createHashHistory, createMemoryHistory, parsePath, useSearchParams } from './router';

/** A stand-in for the browser's window: its history entries, its URL's hash, its popstate. */
function browserStandIn(initialHash: string) {
  const entries: { state: unknown; hash: string }[] = [{ state: null, hash: initialHash }];
  let index = 0;
  const popListeners: (() => void)[] = [];
  const hashOf = (url: string) => (url.includes('#') ? url.slice(url.indexOf('#')) : '');
  const history = {
    get state() {
      return entries[index]?.state ?? null;
    },
    get length() {
      return entries.length;
    },
    pushState(state: unknown, _title: string, url: string) {
      entries.splice(index + 1, entries.length, { state, hash: hashOf(url) });
      index += 1;
    },
    replaceState(state: unknown, _title: string, url?: string) {
      entries[index] = { state, hash: url === undefined ? (entries[index]?.hash ?? '') : hashOf(url) };
    },
    go(delta: number) {
      index += delta;
      for (const listener of popListeners) listener();
    },
  };
  vi.stubGlobal('window', {
    history,
    location: {
      get hash() {
        return entries[index]?.hash ?? '';
      },
    },
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'popstate') popListeners.push(listener);
    },
  });
  return { entries: () => entries, index: () => index };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the app's router (decision 048)", () => {
  it('reads a path with its query and hash', () => {
    expect(parsePath('/pages/index/index5?id=1')).toEqual({ pathname: '/pages/index/index5', search: '?id=1', hash: '' });
    expect(parsePath('')).toEqual({ pathname: '/', search: '', hash: '' });
    expect(parsePath('/a?#x')).toEqual({ pathname: '/a', search: '', hash: '#x' });
  });

  it("keeps the app's place in the browser's history (idx) and the state passed along", () => {
    const browser = browserStandIn('#/pages/login/login');
    const history = createHashHistory();
    expect(history.location).toMatchObject({ pathname: '/pages/login/login', state: null, key: 'default' });
    expect(window.history.state).toEqual({ idx: 0 });
    const seen: string[] = [];
    history.listen(() => seen.push(history.location.pathname + history.location.search));

    history.push('/pages/register/verify_code?step=2', { email: 'a@example.com' });
    expect(window.history.state).toMatchObject({ idx: 1, usr: { email: 'a@example.com' } });
    expect(history.location).toMatchObject({ pathname: '/pages/register/verify_code', search: '?step=2' });
    expect(history.location.state).toEqual({ email: 'a@example.com' });

    history.replace('/pages/index/index');
    expect(window.history.state).toMatchObject({ idx: 1, usr: null });
    expect(browser.entries()).toHaveLength(2);

    // Back, as the browser reports it.
    history.go(-1);
    expect(browser.index()).toBe(0);
    expect(history.location.pathname).toBe('/pages/login/login');
    expect(seen).toEqual(['/pages/register/verify_code?step=2', '/pages/index/index', '/pages/login/login']);
  });

  it('links are real links to their hash path, their attributes as given', () => {
    browserStandIn('#/');
    const html = renderToStaticMarkup(
      createElement(
        Router,
        { history: createHashHistory() },
        createElement(Link, { to: '/pages/my/my', className: 'row' }, 'Me'),
      ),
    );
    expect(html).toBe('<a class="row" href="#/pages/my/my">Me</a>');
  });

  it('sets the query by navigating to the same path, replacing the entry when asked', () => {
    const history = createMemoryHistory(['/pages/news/news?tab=market']);
    let read: ReturnType<typeof useSearchParams> | null = null;
    function Probe(): ReactElement | null {
      read = useSearchParams();
      return null;
    }
    renderToStaticMarkup(createElement(Router, { history }, createElement(Probe)));
    const [params, setParams] = read as unknown as ReturnType<typeof useSearchParams>;
    expect(params.get('tab')).toBe('market');
    setParams({ tab: 'financial', id: '7' }, { replace: true });
    expect(history.location).toMatchObject({ pathname: '/pages/news/news', search: '?tab=financial&id=7' });
    setParams({});
    expect(history.location.search).toBe('');
    history.go(-1);
    expect(history.location.search).toBe('?tab=financial&id=7');
  });

  it('renders outside a browser over a history in memory', () => {
    const html = renderToStaticMarkup(
      createElement(MemoryRouter, { initialEntries: ['/a'] }, createElement(Link, { to: '/b?x=1' }, 'b')),
    );
    expect(html).toBe('<a href="/b?x=1">b</a>');
  });
});
