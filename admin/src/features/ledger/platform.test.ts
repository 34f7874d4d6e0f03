import { describe, expect, it } from 'vitest';
import type { LedgerAccount } from '@custos/contract';
import { PLATFORM_ACCOUNT_LEGEND, groupPlatformAccounts, platformTotals } from './platform';

const platform = (code: string, asset: LedgerAccount['asset'], balance: string, allowNegative = true): LedgerAccount => ({
  id: `${code}-${asset}`,
  ownerAccountId: null,
  platformCode: code,
  asset,
  purpose: 'platform',
  balance,
  allowNegative,
});

describe('groupPlatformAccounts', () => {
  it('puts each code on one row with a column per asset, in the legend order, unknown codes last', () => {
    const rows = groupPlatformAccounts([
      platform('fees', 'USDT', '1.0000', false),
      platform('zeta', 'USDT', '0.0000'),
      platform('adjustments', 'USDT', '-125.5000'),
      platform('adjustments', 'RAB', '0.0000'),
      platform('treasury', 'RAB', '-10.0000'),
    ]);
    expect(rows.map((row) => row.code)).toEqual(['treasury', 'adjustments', 'fees', 'zeta']);
    expect(rows[1]!.byAsset.USDT?.balance).toBe('-125.5000');
    expect(rows[1]!.byAsset.RAB?.balance).toBe('0.0000');
    expect(rows[1]!.description).toBe(PLATFORM_ACCOUNT_LEGEND.adjustments);
    expect(rows[2]!.allowNegative).toBe(false);
    expect(rows[3]!.description).toBeNull();
  });

  it('explains every code the server seeds', () => {
    for (const code of ['treasury', 'deposits', 'adjustments', 'interest', 'rewards', 'fees', 'withdrawals']) {
      expect(PLATFORM_ACCOUNT_LEGEND[code], code).toBeTruthy();
    }
  });
});

describe('platformTotals', () => {
  it('sums exactly per asset', () => {
    const totals = platformTotals([
      platform('adjustments', 'USDT', '-0.1000'),
      platform('fees', 'USDT', '-0.2000'),
      platform('treasury', 'RAB', '3.0001'),
    ]);
    expect(totals).toEqual({ USDT: '-0.3000', RAB: '3.0001', FUEL: '0.0000', TICKET: '0.0000' });
  });
});
