import { describe, expect, it } from 'vitest';
import type { DividendPool } from '@custos/contract';
import {
  EMPTY_POOL_FORM,
  POOL_STATE_COLOURS,
  POOL_STATE_LABELS,
  mayChangePool,
  poolState,
  sortPools,
  toPoolRequest,
} from './earnings';

const pool = (day: string, overrides: Partial<DividendPool> = {}): DividendPool => ({
  day,
  amount: '1000.0000',
  distributed: null,
  members: null,
  claimed: '0.0000',
  ...overrides,
});

describe('dividend pools', () => {
  it('wait for their day’s settlement, then are shared out and can no longer change', () => {
    expect(poolState(pool('2026-11-22'))).toBe('waiting');
    expect(mayChangePool(pool('2026-11-22'))).toBe(true);
    const shared = pool('2026-11-21', { distributed: '999.9990', members: 12, claimed: '100.0000' });
    expect(poolState(shared)).toBe('shared');
    expect(mayChangePool(shared)).toBe(false);
    // Shared out among no valid member: nothing distributed, still final.
    expect(poolState(pool('2026-11-20', { distributed: '0.0000', members: 0 }))).toBe('shared');
    for (const state of ['waiting', 'shared'] as const) {
      expect(POOL_STATE_LABELS[state]).toBeTruthy();
      expect(POOL_STATE_COLOURS[state]).toBeTruthy();
    }
  });

  it('are listed newest day first', () => {
    expect(sortPools([pool('2026-11-20'), pool('2026-11-22'), pool('2026-11-21')]).map((row) => row.day)).toEqual([
      '2026-11-22',
      '2026-11-21',
      '2026-11-20',
    ]);
  });
});

describe('pool form', () => {
  it('becomes the call the server takes, the amount with four places', () => {
    expect(toPoolRequest({ day: '2026-11-22', amount: ' 1500.5 ' })).toEqual({ day: '2026-11-22', amount: '1500.5000' });
    expect(toPoolRequest({ day: '2026-11-22', amount: '0.0001' })).toEqual({ day: '2026-11-22', amount: '0.0001' });
  });

  it('refuses a day that is not a calendar day and an amount the contract refuses', () => {
    expect(toPoolRequest(EMPTY_POOL_FORM)).toEqual({
      problems: {
        day: 'Choose the platform day the pool is for',
        amount: 'Enter a positive USDT amount with at most 4 decimal places',
      },
    });
    expect(toPoolRequest({ day: '2026-02-30', amount: '10' })).toEqual({
      problems: { day: 'Choose the platform day the pool is for' },
    });
    expect(toPoolRequest({ day: '2026-11-22', amount: '0' })).toHaveProperty('problems.amount');
    expect(toPoolRequest({ day: '2026-11-22', amount: '1.23456' })).toHaveProperty('problems.amount');
    expect(toPoolRequest({ day: '2026-11-22', amount: '-5' })).toHaveProperty('problems.amount');
  });
});
