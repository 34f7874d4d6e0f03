import { describe, expect, it } from 'vitest';
import { money } from '@custos/contract';
import { penaltyRateFor, redeemPreview } from './redeem';

const f = money.formatMoney;

describe('early redemption preview', () => {
  it('keeps the principal × the penalty rate, rounded up, and returns the rest', () => {
    const even = redeemPreview('1000.0000', '0.05');
    expect([f(even.penalty), f(even.returned)]).toEqual(['50.0000', '950.0000']);
    // 123.4567 × 0.05 = 6.172835 → 6.1729 (up, as the server charges fees).
    const odd = redeemPreview('123.4567', '0.05');
    expect([f(odd.penalty), f(odd.returned)]).toEqual(['6.1729', '117.2838']);
    // A ten-thousandth of a penalty is still charged whole.
    expect(f(redeemPreview('0.0001', '0.05').penalty)).toBe('0.0001');
    const free = redeemPreview('500.0000', '0');
    expect([f(free.penalty), f(free.returned)]).toEqual(['0.0000', '500.0000']);
  });

  it('takes the rate of the order’s plan only while the plan is open with the order’s terms', () => {
    const plans = [
      { id: 'p30', earlyPenaltyRate: '0.05', periodDays: 30, dailyRate: '0.0012' },
      { id: 'p90', earlyPenaltyRate: '0.08', periodDays: 90, dailyRate: '0.0015' },
    ];
    expect(penaltyRateFor({ planId: 'p30', periodDays: 30, dailyRate: '0.0012' }, plans)).toBe('0.05');
    expect(penaltyRateFor({ planId: 'p30', periodDays: 30, dailyRate: '0.00120000' }, plans)).toBe('0.05');
    // The plan's terms changed since the order was made: the order's own rate is not known here.
    expect(penaltyRateFor({ planId: 'p90', periodDays: 60, dailyRate: '0.0015' }, plans)).toBeNull();
    expect(penaltyRateFor({ planId: 'p90', periodDays: 90, dailyRate: '0.002' }, plans)).toBeNull();
    // A retired plan is not among the open ones.
    expect(penaltyRateFor({ planId: 'gone', periodDays: 30, dailyRate: '0.0012' }, plans)).toBeNull();
  });
});
