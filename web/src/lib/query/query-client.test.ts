import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { createQueryClient, shouldRetry } from './query-client';

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
