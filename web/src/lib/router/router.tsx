/*
 * The member app's router (decision 048): its pages are fixed paths in the URL's hash (the spec's
 * uni-app routes, `#/pages/…?id=1`), so it needs a history, the current location, `navigate`,
 * links and search parameters, and nothing of a general router's matching, nesting or data
 * loading. React Router's declarative mode did this in about 11 KB of the start file's compressed
 * size, on every first paint; this does it in a small fraction of that.
 *
 * The browser's history entries carry `{ usr, key, idx }` as React Router's did: `idx` is how far
 * into the app's own entries the member is (NavHeader and goBackOr go back only within the app).
 */
import {
  createContext,
  createElement,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the page that navigated here passed along (`navigate(to, { state })`), or null. */
  state: unknown;
  /** The history entry's own key ('default' for the entry the app opened on). */
  key: string;
}

/** An absolute app path, with its query: `/pages/otc/post?id=1`. */
export type To = string;

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export interface NavigateFunction {
  (to: To, options?: NavigateOptions): void;
  (delta: number): void;
}

export interface History {
  readonly location: Location;
  push(to: To, state?: unknown): void;
  replace(to: To, state?: unknown): void;
  go(delta: number): void;
  /** Called after every change, the app's own and the browser's (back, forward, a typed hash). */
  listen(listener: () => void): () => void;
  createHref(to: To): string;
}

interface EntryState {
  usr: unknown;
  key: string;
  idx: number;
}

/** Splits `/path?query#hash` into a location's parts. */
export function parsePath(path: string): Pick<Location, 'pathname' | 'search' | 'hash'> {
  let rest = path;
  let hash = '';
  let search = '';
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) {
    hash = rest.slice(hashAt);
    rest = rest.slice(0, hashAt);
  }
  const searchAt = rest.indexOf('?');
  if (searchAt >= 0) {
    search = rest.slice(searchAt);
    rest = rest.slice(0, searchAt);
  }
  return { pathname: rest || '/', search: search === '?' ? '' : search, hash: hash === '#' ? '' : hash };
}

/** A history entry's key (8 hex digits; `getRandomValues` also works outside secure contexts). */
const entryKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(4)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The app's history in the browser's, its paths in the URL's hash. */
export function createHashHistory(): History {
  const browser = window.history;
  const listeners = new Set<() => void>();
  const entryState = () => browser.state as Partial<EntryState> | null;
  if (entryState()?.idx === undefined) browser.replaceState({ ...entryState(), idx: 0 }, '');

  const read = (): Location => {
    const state = entryState();
    return { ...parsePath(window.location.hash.slice(1)), state: state?.usr ?? null, key: state?.key ?? 'default' };
  };
  let location = read();
  const changed = () => {
    location = read();
    for (const listener of listeners) listener();
  };
  window.addEventListener('popstate', changed);

  // Relative to the page: the app is served at any path (and from the Android package's files).
  const createHref = (to: To) => `#${to}`;
  const write = (to: To, state: unknown, idx: number, method: 'pushState' | 'replaceState') => {
    const next: EntryState = { usr: state ?? null, key: entryKey(), idx };
    browser[method](next, '', createHref(to));
    changed();
  };
  return {
    get location() {
      return location;
    },
    push: (to, state) => write(to, state, (entryState()?.idx ?? 0) + 1, 'pushState'),
    replace: (to, state) => write(to, state, entryState()?.idx ?? 0, 'replaceState'),
    go: (delta) => browser.go(delta),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    createHref,
  };
}

/** A history in memory (tests, and rendering outside a browser). */
export function createMemoryHistory(initialEntries: readonly To[] = ['/']): History {
  const listeners = new Set<() => void>();
  const toLocation = (to: To, state: unknown = null, key = entryKey()): Location => ({ ...parsePath(to), state, key });
  const entries = (initialEntries.length ? initialEntries : ['/']).map((to, index) =>
    toLocation(to, null, index === 0 ? 'default' : entryKey()),
  );
  let index = entries.length - 1;
  const changed = () => {
    for (const listener of listeners) listener();
  };
  return {
    get location() {
      return entries[index] ?? toLocation('/');
    },
    push(to, state) {
      entries.splice(index + 1, entries.length, toLocation(to, state));
      index += 1;
      changed();
    },
    replace(to, state) {
      entries[index] = toLocation(to, state);
      changed();
    },
    go(delta) {
      index = Math.min(entries.length - 1, Math.max(0, index + delta));
      changed();
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    createHref: (to) => to,
  };
}

/** `navigate` over a history: a path (pushed, or replacing with `replace`), or a step back or forward. */
export function navigatorOf(history: History): NavigateFunction {
  return (to: To | number, options?: NavigateOptions) => {
    if (typeof to === 'number') history.go(to);
    else if (options?.replace) history.replace(to, options.state);
    else history.push(to, options?.state);
  };
}

interface RouterValue {
  history: History;
  location: Location;
  navigate: NavigateFunction;
}

const RouterContext = createContext<RouterValue | null>(null);

/** Provides `history`'s location and navigation to the screens under it. */
export function Router({ history, children }: { history: History; children?: ReactNode }) {
  const location = useSyncExternalStore(
    (listener) => history.listen(listener),
    () => history.location,
    () => history.location,
  );
  const navigate = useMemo(() => navigatorOf(history), [history]);
  const value = useMemo(() => ({ history, location, navigate }), [history, location, navigate]);
  return createElement(RouterContext.Provider, { value }, children);
}

/** A router over a history in memory, opened at the last of `initialEntries`. */
export function MemoryRouter({ initialEntries, children }: { initialEntries?: readonly To[]; children?: ReactNode }) {
  const history = useMemo(() => createMemoryHistory(initialEntries), [initialEntries]);
  return createElement(Router, { history }, children);
}

function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('a screen used the router outside it');
  return value;
}

export function useLocation(): Location {
  return useRouter().location;
}

export function useNavigate(): NavigateFunction {
  return useRouter().navigate;
}

/** Sets the current page's query: a navigation to the same path with `next` as its query. */
export type SetSearchParams = (next: Record<string, string> | URLSearchParams, options?: NavigateOptions) => void;

/** The current location's query, and a way to change it. */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const { location, navigate } = useRouter();
  const { pathname, search } = location;
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback<SetSearchParams>(
    (next, options) => {
      const query = new URLSearchParams(next).toString();
      navigate(query ? `${pathname}?${query}` : pathname, options);
    },
    [navigate, pathname],
  );
  return [params, setParams];
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: To;
  replace?: boolean;
  state?: unknown;
};

/** A real link (opens in a new tab with a modifier key); a plain click navigates in the app. */
export function Link({ to, replace, state, onClick, target, ...anchor }: LinkProps) {
  const { history, navigate } = useRouter();
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const plainClick =
      event.button === 0 &&
      !event.metaKey &&
      !event.altKey &&
      !event.ctrlKey &&
      !event.shiftKey &&
      (!target || target === '_self');
    if (event.defaultPrevented || !plainClick) return;
    event.preventDefault();
    navigate(to, { replace, state });
  };
  return createElement('a', { ...anchor, href: history.createHref(to), onClick: open, target });
}

/** Navigates once it has rendered (an unknown path's way to the entry page). */
export function Navigate({ to, replace, state }: { to: To } & NavigateOptions) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace, state }), [navigate, to, replace, state]);
  return null;
}
