import { describe, expect, it } from 'vitest';
import type { LedgerAccount } from '@custos/contract';
import { balanceMatrix } from './balances';

const account = (asset: LedgerAccount['asset'], purpose: string, balance: string): LedgerAccount => ({
  id: `${asset}-${purpose}`,
  ownerAccountId: 'a1',
  platformCode: null,
  asset,
  purpose,
  balance,
  allowNegative: false,
});

describe('balanceMatrix', () => {
  it('lists every asset, fills the purposes that exist and totals them exactly', () => {
    const rows = balanceMatrix([
      account('USDT', 'available', '125.5000'),
      account('USDT', 'held', '0.1000'),
      account('USDT', 'custody', '0.2000'),
      account('TICKET', 'used', '3.0000'),
    ]);
    expect(rows.map((row) => row.asset)).toEqual(['USDT', 'RAB', 'FUEL', 'TICKET']);
    expect(rows[0]!.cells.available?.balance).toBe('125.5000');
    // 0.1 + 0.2 without floating point.
    expect(rows[0]!.total).toBe('125.8000');
    expect(rows[1]!.cells).toEqual({});
    expect(rows[1]!.total).toBe('0.0000');
    expect(rows[3]!.cells.used?.id).toBe('TICKET-used');
  });

  it('leaves out purposes it does not know', () => {
    const rows = balanceMatrix([account('RAB', 'platform', '5.0000')]);
    expect(rows[1]!.cells).toEqual({});
    expect(rows[1]!.total).toBe('0.0000');
  });
});
