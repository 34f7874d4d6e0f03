import { useEffect, useState, type ComponentType } from 'react';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import { useTranslation } from 'react-i18next';
import { PAGE_LOAD_TIMEOUT_MS, PAGE_LOADING_DELAY_MS } from '@custos/contract';
import { loadPageServerMessages, loadPageTexts } from '../lib/i18n/i18n';

export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;

/** Pages already loaded, so coming back to one shows it at once. */
const loadedPages = new Map<PageLoader, ComponentType>();

type LoadState = { status: 'waiting' | 'loading' | 'timeout' } | { status: 'ready'; Page: ComponentType };

/**
 * A lazily loaded page (spec §2): nothing for the first 200 ms, then a loading state; after 60 s,
 * or if the page cannot be fetched, "connection timed out, tap the screen to retry", which retries.
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
      setState({ status: 'ready', Page: loaded });
      return;
    }
    let settled = false;
    setState({ status: 'waiting' });
    const loadingTimer = setTimeout(() => setState({ status: 'loading' }), PAGE_LOADING_DELAY_MS);
    const timeoutTimer = setTimeout(() => {
      settled = true;
      setState({ status: 'timeout' });
    }, PAGE_LOAD_TIMEOUT_MS);
    const finish = (next: LoadState) => {
      clearTimeout(loadingTimer);
      clearTimeout(timeoutTimer);
      if (settled) return;
      settled = true;
      setState(next);
    };
    Promise.all([load(), pageTexts ? loadPageTexts() : undefined, serverMessages ? loadPageServerMessages() : undefined]).then(
      ([module]) => {
        loadedPages.set(load, module.default);
        finish({ status: 'ready', Page: module.default });
      },
      () => finish({ status: 'timeout' }),
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
          onClick={() => setAttempt((value) => value + 1)}
        >
          {t('common.pageTimeout')}
        </button>
      );
  }
}
