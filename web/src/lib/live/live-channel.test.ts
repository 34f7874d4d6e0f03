import { describe, expect, it } from 'vitest';
import { LIVE_RETRY_MS } from '@custos/contract';
import { FIRST_RETRY_MS } from './live-channel';

describe('live channel', () => {
  it('waits as long as the server tells it to before its first retry', () => {
    expect(FIRST_RETRY_MS).toBe(LIVE_RETRY_MS);
  });
});
