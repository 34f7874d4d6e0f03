import { QueryClient } from '@tanstack/react-query';
import { ConsoleApiError } from '../api';

/** One more attempt after a request that got no answer (a dropped connection); envelope errors answer the same again. */
export const MAX_NETWORK_RETRIES = 1;

export function shouldRetry(failureCount: number, error: unknown): boolean {
  return error instanceof ConsoleApiError && error.code === null && failureCount < MAX_NETWORK_RETRIES;
}

/**
 * The console's one query cache (decision 030). Operators act on what a screen shows (approve, refund,
 * repair), so a screen that mounts always asks again (`staleTime: 0`), and an answer to an older filter
 * never replaces a newer one: each filter and page is its own key. Actions are never re-sent by the cache.
 */
export function createConsoleQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 0, refetchOnWindowFocus: true, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}

/** What a failed read or action says on screen. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
