import { describe, expect, it } from 'vitest';
import { idempotencyKeySchema } from '@custos/contract';
import { ApiError } from '../api/errors';
import { IdempotencyKeyHolder, mustReuseKeyAfter, newIdempotencyKey } from './idempotency';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idempotency keys', () => {
  it('are UUIDs the server accepts, also where randomUUID is missing (plain http)', () => {
    expect(idempotencyKeySchema.safeParse(newIdempotencyKey()).success).toBe(true);
    const fallback = newIdempotencyKey({ getRandomValues: (bytes) => crypto.getRandomValues(bytes) });
    expect(fallback).toMatch(UUID_V4);
    expect(idempotencyKeySchema.safeParse(fallback).success).toBe(true);
    const zeros = newIdempotencyKey({ getRandomValues: <T extends ArrayBufferView | null>(bytes: T) => bytes });
    expect(zeros).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('are kept for a retry when the answer was lost, renewed after a refusal or a success', () => {
    expect(mustReuseKeyAfter(new ApiError('transport', 'offline'))).toBe(true);
    expect(mustReuseKeyAfter(new ApiError('timeout', 'timed out'))).toBe(true);
    expect(mustReuseKeyAfter(new Error('unexpected'))).toBe(true);
    expect(mustReuseKeyAfter(new ApiError('business', 'wrong password', 400))).toBe(false);

    const keys = new IdempotencyKeyHolder();
    const first = keys.current;
    expect(keys.current).toBe(first);
    keys.failed(new ApiError('timeout', 'timed out'));
    expect(keys.current).toBe(first);
    keys.failed(new ApiError('business', 'Insufficient USDT balance', 409));
    const second = keys.current;
    expect(second).not.toBe(first);
    keys.succeeded();
    expect(keys.current).not.toBe(second);
  });
});
