import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { LAUNCH_ANSWER_FRESH_MS, createQueryClient, prefetchForLaunch, refetchOnMount, shouldRetry } from './query-client';

/** Mounts a screen's observer on `queryKey` and answers how often `queryFn` has run by then. */
async function mount(client: QueryClient, queryKey: string[], queryFn: () => Promise<string>): Promise<() => void> {
  const observer = new QueryObserver(client, { queryKey, queryFn });
  const unsubscribe = observer.subscribe(() => undefined);
  await vi.waitFor(() => expect(observer.getCurrentResult().isFetching).toBe(false));
  return unsubscribe;
}

describe('query cache retries', () => {
  it('try a read once more only when the request got no answer', () => {
    expect(shouldRetry(0, new ApiError('transport', 'offline'))).toBe(true);
    expect(shouldRetry(1, new ApiError('transport', 'offline'))).toBe(false);
  });

  it('never retry an envelope error or a timeout', () => {
    expect(shouldRetry(0, new ApiError('business', 'insufficient balance', 4001))).toBe(false);
    expect(shouldRetry(0, new ApiError('business', 'log in again', 401))).toBe(false);
    expect(shouldRetry(0, new ApiError('timeout', 'too slow'))).toBe(false);
    expect(shouldRetry(0, new Error('not from the client'))).toBe(false);
  });

  it('never retry a mutation and refetch on focus', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.mutations?.retry).toBe(false);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(true);
    expect(defaults.queries?.staleTime).toBe(0);
  });
});

describe('launch answers (decision 047)', () => {
  it("stand for the first screen's own ask for a moment, and only the launch's answer does", async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(async () => 'total');
    await prefetchForLaunch(client, [{ queryKey: ['assets', 'summary'], queryFn }]);
    expect(queryFn).toHaveBeenCalledTimes(1);

    // The screen mounts on the answer the launch fetched: no second request.
    (await mount(client, ['assets', 'summary'], queryFn))();
    expect(queryFn).toHaveBeenCalledTimes(1);
    const query = client.getQueryCache().find({ queryKey: ['assets', 'summary'], exact: true });
    if (!query) throw new Error('the launch left no query');
    expect(refetchOnMount(query, query.state.dataUpdatedAt + LAUNCH_ANSWER_FRESH_MS - 1)).toBe(false);
    // A moment later a screen mounting asks again, as every screen does (STALE_TIME_MS).
    expect(refetchOnMount(query, query.state.dataUpdatedAt + LAUNCH_ANSWER_FRESH_MS)).toBe(true);

    // Once answered again, the answer is the screen's own: mounting asks as usual.
    await client.refetchQueries({ queryKey: ['assets', 'summary'] });
    expect(queryFn).toHaveBeenCalledTimes(2);
    (await mount(client, ['assets', 'summary'], queryFn))();
    expect(queryFn).toHaveBeenCalledTimes(3);
  });

  it('a read the launch did not fetch, or could not, is asked for when the screen mounts', async () => {
    const client = createQueryClient();
    const failing = vi.fn(async (): Promise<string> => {
      throw new ApiError('business', 'log in again', 401);
    });
    await prefetchForLaunch(client, [{ queryKey: ['assets', 'summary'], queryFn: failing }]);
    const other = vi.fn(async () => 'news');
    await client.prefetchQuery({ queryKey: ['news'], queryFn: other });

    const answering = vi.fn(async () => 'total');
    (await mount(client, ['assets', 'summary'], answering))();
    expect(answering).toHaveBeenCalledTimes(1);
    (await mount(client, ['news'], other))();
    expect(other).toHaveBeenCalledTimes(2);
  });
});
