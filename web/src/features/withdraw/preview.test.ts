import { describe, expect, it } from 'vitest';
import { money, translate, type WithdrawIndex, type WithdrawSettings } from '@custos/contract';
import { dailyRemaining, feeLabel, previewWithdrawal, withdrawFee, withdrawableNow } from './preview';

const m = money.parseMoney;
const f = money.formatMoney;

const settings = (overrides: Partial<WithdrawSettings> = {}): WithdrawSettings => ({
  enabled: true,
  feeFixed: '1.0000',
  feeRate: '0.001',
  minimum: '10.0000',
  maximum: '5000.0000',
  dailyLimit: '10000.0000',
  openDays: [1, 2, 3, 4, 5],
  openTime: '09:00',
  closeTime: '21:00',
  methods: { crypto: true, bank: true, wechat: false, alipay: false },
  securityCoolingOffHours: 24,
  ...overrides,
});

const index = (
  overrides: Partial<Pick<WithdrawIndex, 'balance' | 'usedToday'>> = {},
  settingsOverrides: Partial<WithdrawSettings> = {},
) => ({ balance: '8000.0000', usedToday: '0.0000', settings: settings(settingsOverrides), ...overrides });

function quoteOf(result: ReturnType<typeof previewWithdrawal>) {
  if (!('quote' in result)) throw new Error(`expected a quote, got ${result.problem}`);
  return { fee: f(result.quote.fee), received: f(result.quote.received) };
}

describe('withdrawal fee', () => {
  it('is the fixed fee plus the amount times the rate, the rate part rounded up to four places', () => {
    expect(f(withdrawFee(m('100'), settings()))).toBe('1.1000');
    // 123.4567 × 0.001 = 0.1234567 → 0.1235 (up), + 1.
    expect(f(withdrawFee(m('123.4567'), settings()))).toBe('1.1235');
    // 0.0001 of anything still costs a whole ten-thousandth.
    expect(f(withdrawFee(m('10.0001'), settings({ feeFixed: '0' })))).toBe('0.0101');
    expect(f(withdrawFee(m('10'), settings({ feeFixed: '0', feeRate: '0' })))).toBe('0.0000');
    expect(f(withdrawFee(m('10'), settings({ feeFixed: '2.5', feeRate: '0' })))).toBe('2.5000');
    // Eight-place rates are exact, never floats: 1000 × 0.00123456 = 1.23456 → 1.2346.
    expect(f(withdrawFee(m('1000'), settings({ feeFixed: '0', feeRate: '0.00123456' })))).toBe('1.2346');
  });

  it('labels the rule by what it has', () => {
    expect(feeLabel(settings()).key).toBe('withdraw.feeLabel.both');
    expect(feeLabel(settings({ feeFixed: '0' })).key).toBe('withdraw.feeLabel.rate');
    expect(feeLabel(settings({ feeRate: '0.00000000' })).key).toBe('withdraw.feeLabel.fixed');
    expect(feeLabel(settings({ feeFixed: '0', feeRate: '0' })).key).toBe('withdraw.feeLabel.free');
  });
});

describe('withdrawal preview', () => {
  it('gives the fee and what arrives', () => {
    expect(quoteOf(previewWithdrawal(m('100'), index(), 'en'))).toEqual({ fee: '1.1000', received: '98.9000' });
    expect(quoteOf(previewWithdrawal(m('10'), index(), 'en'))).toEqual({ fee: '1.0100', received: '8.9900' });
    expect(quoteOf(previewWithdrawal(m('5000'), index(), 'en'))).toEqual({ fee: '6.0000', received: '4994.0000' });
  });

  it('refuses below the minimum and above the maximum with the server’s messages', () => {
    expect(previewWithdrawal(m('9.9999'), index(), 'en')).toEqual({ problem: 'The minimum withdrawal is 10.0000 USDT' });
    expect(previewWithdrawal(m('5000.0001'), index(), 'en')).toEqual({ problem: 'The maximum withdrawal is 5000.0000 USDT' });
    expect(previewWithdrawal(m('1'), index(), 'zh-Hans')).toEqual({
      problem: translate('zh-Hans', 'withdraw.below_minimum', { minimum: '10.0000' }),
    });
  });

  it('counts what was requested today against the daily limit', () => {
    const used = index({ usedToday: '9950.0000' });
    expect(f(dailyRemaining(used))).toBe('50.0000');
    expect(previewWithdrawal(m('50.0001'), used, 'en')).toEqual({
      problem: "This exceeds today's limit of 10000.0000 USDT (50.0000 USDT left)",
    });
    expect('quote' in previewWithdrawal(m('50'), used, 'en')).toBe(true);
    // Beyond the limit already (the operator lowered it): nothing is left, never a negative.
    expect(f(dailyRemaining(index({ usedToday: '12000.0000' })))).toBe('0.0000');
  });

  it('refuses more than the balance', () => {
    expect(previewWithdrawal(m('100'), index({ balance: '99.9999' }), 'en')).toEqual({ problem: 'Insufficient USDT balance' });
  });

  it('refuses an amount that does not cover the fee', () => {
    const costly = index({}, { feeFixed: '10', minimum: '1' });
    expect(previewWithdrawal(m('10'), costly, 'en')).toEqual({ problem: 'The amount does not cover the fee of 10.0100 USDT' });
    expect(quoteOf(previewWithdrawal(m('10.02'), costly, 'en'))).toEqual({ fee: '10.0101', received: '0.0099' });
  });
});

describe('withdraw all', () => {
  it('is the least of the balance, the maximum and what is left today', () => {
    expect(f(withdrawableNow(index()))).toBe('5000.0000');
    expect(f(withdrawableNow(index({ balance: '123.4567' })))).toBe('123.4567');
    expect(f(withdrawableNow(index({ usedToday: '9900.0000' })))).toBe('100.0000');
    expect(f(withdrawableNow(index({ balance: '-1.0000' })))).toBe('0.0000');
  });
});
