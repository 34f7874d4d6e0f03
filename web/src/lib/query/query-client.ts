import { QueryClient, type FetchQueryOptions, type Query } from '@tanstack/react-query';
import { ApiError } from '../api/errors';

/**
 * Balances and records change behind the member's back (operators, the chain, the team), and not
 * every change has a live event: a screen that mounts asks again, and shows what it has meanwhile.
 */
export const STALE_TIME_MS = 0;
/** One more attempt after a dropped connection; the client has already shown the failure. */
export const MAX_NETWORK_RETRIES = 1;

/**
 * Whether a failed read is tried again: only when the request never got an answer. An envelope
 * error (4xx codes, 401 relaunch, 4900 redirects) answers the same the second time, and a timeout
 * already waited 60 s.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.kind === 'transport' || error.kind === 'unreachable') &&
    failureCount < MAX_NETWORK_RETRIES
  );
}

/**
 * How long an answer the launch fetched for the first screen (decision 047) stands for that
 * screen's own ask when it mounts: the answer came a moment before, so it is not asked again.
 */
export const LAUNCH_ANSWER_FRESH_MS = 5_000;

/** Per query the launch answered, when its answer came (a later answer is the screen's own). */
const launchAnswers = new WeakMap<Query, number>();

/** Fetches the first screen's reads into the cache before it renders (decision 047). */
export async function prefetchForLaunch(client: QueryClient, queries: readonly FetchQueryOptions[]): Promise<void> {
  await Promise.all(
    queries.map(async (options) => {
      await client.prefetchQuery(options);
      const query = client.getQueryCache().find({ queryKey: options.queryKey, exact: true });
      if (query && query.state.status === 'success') launchAnswers.set(query, query.state.dataUpdatedAt);
    }),
  );
}

/** Whether a screen mounting on `query` asks again: not while the launch's answer is a moment old. */
export function refetchOnMount(query: Query, nowMs = Date.now()): boolean {
  const answeredAtMs = launchAnswers.get(query);
  return !(
    answeredAtMs !== undefined &&
    answeredAtMs === query.state.dataUpdatedAt &&
    nowMs - answeredAtMs < LAUNCH_ANSWER_FRESH_MS
  );
}

/** The member app's one query cache (decision 023). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: STALE_TIME_MS,
        refetchOnMount: (query) => refetchOnMount(query),
        refetchOnWindowFocus: true,
        retry: shouldRetry,
      },
      // A money call is never sent twice by the cache: the member decides (idempotency keys guard the rest).
      mutations: { retry: false },
    },
  });
}
