import { startTransition, useEffect, useState, type ComponentType } from 'react';
import type { FetchQueryOptions } from '@tanstack/react-query';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import { useTranslation } from '../lib/i18n/translator';
import { PAGE_LOAD_TIMEOUT_MS, PAGE_LOADING_DELAY_MS } from '@custos/contract';
import { loadPageServerMessages, loadPageTexts } from '../lib/i18n/i18n';

export type PageModule = {
  default: ComponentType;
  /** The reads a launch on this page fetches into the cache before the first render (decision 047). */
  launchQueries?: readonly FetchQueryOptions[];
};
export type PageLoader = () => Promise<PageModule>;

/** Pages already loaded, so coming back to one shows it at once. */
const loadedPages = new Map<PageLoader, ComponentType>();

/** What a page waits for besides its code. */
export interface PageNeeds {
  /** The rest of the app's texts (a page beyond the first screens, decision 041). */
  pageTexts: boolean;
  /** The server's messages (every page but Home, decision 044). */
  serverMessages: boolean;
}

/**
 * A script of the app (a page's code or its texts) that could not be fetched. The browser keeps a
 * failed module in its module map for the life of the document (HTML's module map; Chromium does),
 * so importing it again fails again without a request: only a new document fetches it (decision 059).
 */
export class CodeFetchError extends Error {
  constructor(cause: unknown) {
    super('a script of the app could not be fetched', { cause });
    this.name = 'CodeFetchError';
  }
}

function codeFetch<T>(loading: Promise<T>): Promise<T> {
  return loading.catch((error: unknown) => {
    throw new CodeFetchError(error);
  });
}

/** Loads a page with what it needs; from then on LazyPage shows it at once. */
export async function loadPage(load: PageLoader, needs: PageNeeds): Promise<ComponentType> {
  const [module] = await Promise.all([
    codeFetch(load()),
    needs.pageTexts ? codeFetch(loadPageTexts()) : undefined,
    needs.serverMessages ? loadPageServerMessages() : undefined,
  ]);
  loadedPages.set(load, module.default);
  return module.default;
}

type LoadState =
  | { status: 'waiting' | 'loading' }
  /** `reload`: the page's code failed to arrive, so a retry opens the page again (decision 059). */
  | { status: 'timeout'; reload: boolean }
  | { status: 'ready'; Page: ComponentType };

/**
 * A lazily loaded page (spec §2): nothing for the first 200 ms, then a loading state; after 60 s,
 * or if the page cannot be fetched, "connection timed out, tap the screen to retry", which retries:
 * in place after a time-out, by opening the page again after its code failed to arrive.
 * A page beyond the first screens (`pageTexts`) also waits for the rest of the app's texts
 * (decision 041), so it never shows a key in place of its text, and a page that shows server messages
 * (`serverMessages`, every page but Home) waits for them in the member's language (decision 044).
 */
export function LazyPage({
  load,
  pageTexts = true,
  serverMessages = true,
}: {
  load: PageLoader;
  pageTexts?: boolean;
  serverMessages?: boolean;
}) {
  const { t } = useTranslation();
  const cached = loadedPages.get(load);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<LoadState>(cached ? { status: 'ready', Page: cached } : { status: 'waiting' });

  useEffect(() => {
    // A page that arrived after the time-out is already here: a retry shows it at once.
    const loaded = loadedPages.get(load);
    if (loaded) {
      // Already shown (its first render found it here): no second render of the whole page.
      setState((current) =>
        current.status === 'ready' && current.Page === loaded ? current : { status: 'ready', Page: loaded },
      );
      return;
    }
    let settled = false;
    setState({ status: 'waiting' });
    const loadingTimer = setTimeout(() => setState({ status: 'loading' }), PAGE_LOADING_DELAY_MS);
    const timeoutTimer = setTimeout(() => {
      settled = true;
      setState({ status: 'timeout', reload: false });
    }, PAGE_LOAD_TIMEOUT_MS);
    const finish = (next: LoadState) => {
      clearTimeout(loadingTimer);
      clearTimeout(timeoutTimer);
      if (settled) return;
      settled = true;
      // The page's first render is a transition (decision 044): React renders it in slices and
      // lets the browser in between, instead of one long task of the main thread.
      if (next.status === 'ready') startTransition(() => setState(next));
      else setState(next);
    };
    loadPage(load, { pageTexts, serverMessages }).then(
      (Page) => finish({ status: 'ready', Page }),
      (error: unknown) => finish({ status: 'timeout', reload: error instanceof CodeFetchError }),
    );
    return () => {
      settled = true;
      clearTimeout(loadingTimer);
      clearTimeout(timeoutTimer);
    };
  }, [load, pageTexts, serverMessages, attempt]);

  switch (state.status) {
    case 'ready':
      return <state.Page />;
    case 'waiting':
      return <div className="page-waiting" data-testid="page-waiting" />;
    case 'loading':
      return (
        <div className="page-loading" data-testid="page-loading" role="status">
          <DotLoading color="primary" />
          <span>{t('common.loading')}</span>
        </div>
      );
    case 'timeout':
      return (
        <button
          type="button"
          className="page-timeout"
          data-testid="page-timeout"
          onClick={() => (state.reload ? window.location.reload() : setAttempt((value) => value + 1))}
        >
          {t('common.pageTimeout')}
        </button>
      );
  }
}
