import { QueryClient } from '@tanstack/react-query';
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

/** The member app's one query cache (decision 023). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: STALE_TIME_MS, refetchOnWindowFocus: true, retry: shouldRetry },
      // A money call is never sent twice by the cache: the member decides (idempotency keys guard the rest).
      mutations: { retry: false },
    },
  });
}
