import { describe, expect, it } from 'vitest';
import { VerifiedSecretCache } from '../src/lib/verified-secret-cache.js';

describe('remembered trading-password checks', () => {
  it('matches only the same secret, against the same hash, in the same scope, until it expires', () => {
    let now = 1_000;
    const cache = new VerifiedSecretCache(60_000, 2, () => now);
    cache.remember('member:session', 'hash-1', 'right');
    expect(cache.matches('member:session', 'hash-1', 'right')).toBe(true);
    expect(cache.matches('member:session', 'hash-1', 'wrong')).toBe(false);
    expect(cache.matches('member:other-session', 'hash-1', 'right')).toBe(false);
    // A new trading password (new hash) forgets the old one.
    expect(cache.matches('member:session', 'hash-2', 'right')).toBe(false);
    expect(cache.matches('member:session', 'hash-1', 'right')).toBe(false);
    cache.remember('member:session', 'hash-1', 'right');
    now += 60_000;
    expect(cache.matches('member:session', 'hash-1', 'right')).toBe(false);
  });

  it('keeps at most the configured number of sessions', () => {
    const cache = new VerifiedSecretCache(60_000, 2);
    cache.remember('a', 'h', 's');
    cache.remember('b', 'h', 's');
    cache.remember('c', 'h', 's');
    expect(cache.matches('a', 'h', 's')).toBe(false);
    expect(cache.matches('b', 'h', 's')).toBe(true);
    expect(cache.matches('c', 'h', 's')).toBe(true);
  });
});
