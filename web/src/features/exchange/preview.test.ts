import { describe, expect, it } from 'vitest';
import { money, translate, type ExchangeIndex } from '@custos/contract';
import { minimumOf, previewExchange, spendableOf } from './preview';

/** The seeded defaults: 1 RAB = 0.5 USDT, 0.5 % fee, minimums 10 RAB and 5 USDT. */
const index = (available: Partial<ExchangeIndex['available']> = {}): ExchangeIndex => ({
  enabled: true,
  rabPriceUsdt: '0.5',
  feeRate: '0.005',
  minRab: '10.0000',
  minUsdt: '5.0000',
  available: { USDT: '1000.0000', RAB: '1000.0000', FUEL: '0.0000', ...available },
});
const m = money.parseMoney;

function quoteOf(result: ReturnType<typeof previewExchange>) {
  if (!('quote' in result)) throw new Error(`expected a quote, got ${result.problem}`);
  const { quote } = result;
  return {
    to: money.formatMoney(quote.toAmount),
    fee: money.formatMoney(quote.fee),
    fuel: money.formatMoney(quote.feeFuel),
    usdt: money.formatMoney(quote.feeUsdt),
  };
}

describe('exchange quote preview', () => {
  it('USDT → RAB: the fee comes off the USDT spent before conversion, FUEL first', () => {
    expect(quoteOf(previewExchange('usdt_to_rab', m('100'), index(), 'en'))).toEqual({
      to: '199.0000',
      fee: '0.5000',
      fuel: '0.0000',
      usdt: '0.5000',
    });
    expect(quoteOf(previewExchange('usdt_to_rab', m('100'), index({ FUEL: '0.2000' }), 'en'))).toEqual({
      to: '199.4000',
      fee: '0.5000',
      fuel: '0.2000',
      usdt: '0.3000',
    });
    expect(quoteOf(previewExchange('usdt_to_rab', m('100'), index({ FUEL: '5.0000' }), 'en'))).toEqual({
      to: '200.0000',
      fee: '0.5000',
      fuel: '0.5000',
      usdt: '0.0000',
    });
  });

  it('RAB → USDT: the fee comes off the USDT received; fees round up, what is paid rounds down', () => {
    expect(quoteOf(previewExchange('rab_to_usdt', m('100'), index(), 'en'))).toEqual({
      to: '49.7500',
      fee: '0.2500',
      fuel: '0.0000',
      usdt: '0.2500',
    });
    // 10.0001 RAB × 0.5 = 5.00005 → 5.0000 (down); fee 5.0000 × 0.005 = 0.025 → 0.0250.
    expect(quoteOf(previewExchange('rab_to_usdt', m('10.0001'), index(), 'en'))).toEqual({
      to: '4.9750',
      fee: '0.0250',
      fuel: '0.0000',
      usdt: '0.0250',
    });
    // 5.0003 USDT × 0.005 = 0.0250015 → 0.0251 (up).
    expect(quoteOf(previewExchange('usdt_to_rab', m('5.0003'), index(), 'en')).fee).toBe('0.0251');
  });

  it('refuses below the minimum and beyond the balance with the server’s messages', () => {
    expect(previewExchange('rab_to_usdt', m('9.9999'), index(), 'en')).toEqual({ problem: 'The minimum is 10.0000 RAB' });
    expect(previewExchange('usdt_to_rab', m('4'), index(), 'zh-Hans')).toEqual({
      problem: translate('zh-Hans', 'exchange.below_minimum', { minimum: '5.0000', asset: 'USDT' }),
    });
    expect(previewExchange('usdt_to_rab', m('1000.0001'), index(), 'en')).toEqual({ problem: 'Insufficient USDT balance' });
    expect('quote' in previewExchange('usdt_to_rab', m('1000'), index(), 'en')).toBe(true);
    expect(previewExchange('rab_to_usdt', m('20'), index({ RAB: '15.0000' }), 'en')).toEqual({
      problem: 'Insufficient RAB balance',
    });
  });

  it('refuses an amount that leaves nothing after the fee', () => {
    const costly = { ...index(), feeRate: '0.99999999', minUsdt: '0.0001' };
    expect(previewExchange('usdt_to_rab', m('0.0001'), costly, 'en')).toEqual({
      problem: translate('en', 'exchange.nothing_received'),
    });
  });

  it('knows each direction’s minimum and spendable balance', () => {
    expect(minimumOf('rab_to_usdt', index())).toBe('10.0000');
    expect(minimumOf('usdt_to_rab', index())).toBe('5.0000');
    expect(spendableOf('rab_to_usdt', index({ RAB: '3.0000' }))).toBe('3.0000');
    expect(spendableOf('usdt_to_rab', index({ USDT: '7.0000' }))).toBe('7.0000');
  });
});
