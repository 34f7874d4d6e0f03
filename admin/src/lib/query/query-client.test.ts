import { describe, expect, it } from 'vitest';
import { ConsoleApiError } from '../api';
import { createConsoleQueryClient, shouldRetry } from './query-client';

describe('the console query cache', () => {
  it('tries a read again once, and only when the request got no answer', () => {
    const noAnswer = new ConsoleApiError('Network error: TypeError: Failed to fetch', null);
    expect(shouldRetry(0, noAnswer)).toBe(true);
    expect(shouldRetry(1, noAnswer)).toBe(false);
    expect(shouldRetry(0, new ConsoleApiError('Not allowed', 403))).toBe(false);
    expect(shouldRetry(0, new ConsoleApiError('Session expired', 401))).toBe(false);
    expect(shouldRetry(0, new Error('a bug in a screen'))).toBe(false);
  });

  it('asks again on every mount and never re-sends an action', () => {
    const defaults = createConsoleQueryClient().getDefaultOptions();
    expect(defaults.queries?.staleTime).toBe(0);
    expect(defaults.mutations?.retry).toBe(false);
  });
});
