import { useCallback, useMemo } from 'react';
import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { appendPage, hasMorePages, type Page } from './pages';
import { PAGE_SIZE } from './use-paged-list';

/**
 * An infinite list over a paged call, read through the query cache: invalidating its key (a live
 * event, a mutation) fetches the loaded pages again. Shaped for `PagedList`: the list starts again
 * (new `generation`) when the key changes, e.g. a new filter.
 */
export function usePagedQuery<T extends { id: string }>(
  queryKey: QueryKey,
  fetchPage: (page: number, pageSize: number) => Promise<Page<T>>,
) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam, PAGE_SIZE),
    initialPageParam: 1,
    getNextPageParam: (last) => (hasMorePages(last) ? last.page + 1 : undefined),
  });
  const { data, hasNextPage, fetchNextPage, refetch } = query;

  const items = useMemo(() => (data?.pages ?? []).reduce<T[]>((shown, page) => appendPage(shown, page), []), [data]);

  // The infinite scroll asks for the next page and shows "load failed · retry" when the promise rejects.
  const loadMore = useCallback(async () => {
    const result = data ? await fetchNextPage() : await refetch({ cancelRefetch: false });
    if (result.isError) throw result.error;
  }, [data, fetchNextPage, refetch]);

  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);

  return {
    items,
    hasMore: data ? hasNextPage : true,
    generation: JSON.stringify(queryKey),
    loadMore,
    reload,
  };
}
