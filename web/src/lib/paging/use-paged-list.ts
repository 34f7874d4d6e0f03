import { useCallback, useEffect, useRef, useState } from 'react';
import { appendPage, hasMorePages, type Page } from './pages';

export const PAGE_SIZE = 20;

interface PagedState<T> {
  items: T[];
  hasMore: boolean;
  /** Changes whenever the list starts again (new filter, refresh), to restart the infinite scroll. */
  generation: number;
}

/**
 * An infinite list over a paged call. A new `fetchPage` (a filter changed) or `reload()` starts again
 * from page 1; answers to requests of an earlier start are dropped.
 */
export function usePagedList<T extends { id: string }>(fetchPage: (page: number, pageSize: number) => Promise<Page<T>>) {
  const [state, setState] = useState<PagedState<T>>({ items: [], hasMore: true, generation: 0 });
  const generation = useRef(0);
  const nextPage = useRef(1);

  const restart = useCallback(() => {
    generation.current += 1;
    nextPage.current = 1;
    setState({ items: [], hasMore: true, generation: generation.current });
  }, []);

  // A new call (a filter changed) starts the list again; the first one is already loading.
  const source = useRef(fetchPage);
  useEffect(() => {
    if (source.current === fetchPage) return;
    source.current = fetchPage;
    restart();
  }, [fetchPage, restart]);

  const loadMore = useCallback(async () => {
    const started = generation.current;
    const page = nextPage.current;
    const result = await fetchPage(page, PAGE_SIZE);
    if (started !== generation.current) return;
    nextPage.current = page + 1;
    setState((previous) => ({
      items: appendPage(previous.items, result),
      hasMore: hasMorePages(result),
      generation: previous.generation,
    }));
  }, [fetchPage]);

  return { ...state, loadMore, reload: restart };
}
