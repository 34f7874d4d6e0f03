import { describe, expect, it } from 'vitest';
import { money } from '@custos/contract';
import { orderRedeemPreview, redeemPreview } from './redeem';

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

  it('uses the rate the order was made with, whatever its plan says now', () => {
    const preview = orderRedeemPreview({ amount: '2000.0000', earlyPenaltyRate: '0.08' });
    expect([preview.rate, f(preview.penalty), f(preview.returned)]).toEqual(['0.08', '160.0000', '1840.0000']);
    // Eight-place rates stay exact: 1234.5678 × 0.03333333 = 41.15225587… → 41.1523 (up).
    const exact = orderRedeemPreview({ amount: '1234.5678', earlyPenaltyRate: '0.03333333' });
    expect([f(exact.penalty), f(exact.returned)]).toEqual(['41.1523', '1193.4155']);
  });
});
