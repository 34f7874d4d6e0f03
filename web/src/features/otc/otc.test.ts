import { describe, expect, it } from 'vitest';
import { translate } from '@custos/contract';
import {
  completionRateText,
  durationParts,
  orderClock,
  orderProgress,
  postHolds,
  postProblems,
  takeAmountProblem,
  takeMaximum,
} from './otc';

const listing = { available: '500.0000', minPerOrder: '10.0000', maxPerOrder: '200.0000', splittable: true };

describe('taking a listing: the amount within its limits', () => {
  it('accepts an amount between the per-order limits and what is left', () => {
    expect(takeAmountProblem('10', listing, 'en')).toBeNull();
    expect(takeAmountProblem('200.0000', listing, 'en')).toBeNull();
    expect(takeAmountProblem('123.4567', listing, 'en')).toBeNull();
  });

  it('refuses below the minimum, above the maximum or above what is left, in the server’s words', () => {
    expect(takeAmountProblem('9.9999', listing, 'en')).toBe(translate('en', 'otc.amount_below_min', { min: '10.0000' }));
    expect(takeAmountProblem('200.0001', listing, 'en')).toBe(translate('en', 'otc.amount_above_max', { max: '200.0000' }));
    expect(takeAmountProblem('150', { ...listing, available: '100.0000' }, 'en')).toBe(
      translate('en', 'otc.insufficient_available', { available: '100.0000' }),
    );
  });

  it('refuses more than four places and anything not an amount', () => {
    expect(takeAmountProblem('10.12345', listing, 'en')).toMatch(/amount/);
    expect(takeAmountProblem('', listing, 'en')).toMatch(/amount/);
    expect(takeAmountProblem('-5', listing, 'en')).toMatch(/amount/);
  });

  it('takes a listing that cannot be split whole, or not at all', () => {
    const whole = { ...listing, splittable: false, minPerOrder: '500.0000', maxPerOrder: '500.0000' };
    expect(takeAmountProblem('500', whole, 'zh-Hans')).toBeNull();
    expect(takeAmountProblem('499.9999', whole, 'zh-Hans')).toBe(
      translate('zh-Hans', 'otc.not_splittable', { quantity: '500.0000' }),
    );
    expect(takeMaximum(whole)).toBe('500.0000');
  });

  it('offers the smaller of the maximum and what is left as "all"', () => {
    expect(takeMaximum(listing)).toBe('200.0000');
    expect(takeMaximum({ ...listing, available: '50.5000' })).toBe('50.5000');
  });
});

const info = {
  priceMin: '6.8400',
  priceMax: '7.5600',
  orderMinimum: '10.0000',
  orderMaximum: '50000.0000',
  listingMaximum: '200000.0000',
  paymentWindowMinMinutes: 10,
  paymentWindowMaxMinutes: 60,
};
const good = { quantity: '1000', price: '7.2', minPerOrder: '10', maxPerOrder: '500', paymentWindowMinutes: 15 };

describe('posting a listing: the operator’s rules', () => {
  it('accepts a listing within every rule', () => {
    expect(postProblems(good, info, 'en')).toEqual({});
    expect(postProblems({ ...good, price: '6.84' }, info, 'en')).toEqual({});
    expect(postProblems({ ...good, price: '7.56' }, info, 'en')).toEqual({});
  });

  it('refuses a price outside the band', () => {
    const band = translate('en', 'otc.price_out_of_band', { min: '6.8400', max: '7.5600' });
    expect(postProblems({ ...good, price: '6.8399' }, info, 'en')).toEqual({ price: band });
    expect(postProblems({ ...good, price: '7.5601' }, info, 'en')).toEqual({ price: band });
  });

  it('refuses limits outside the platform’s, a minimum above the quantity and a maximum below the minimum', () => {
    const range = translate('en', 'otc.limits_out_of_range', { min: '10.0000', max: '50,000.0000' });
    expect(postProblems({ ...good, minPerOrder: '5' }, info, 'en')).toEqual({ minPerOrder: range });
    expect(postProblems({ ...good, maxPerOrder: '60000' }, info, 'en')).toEqual({ maxPerOrder: range });
    expect(postProblems({ ...good, quantity: '100', minPerOrder: '200', maxPerOrder: '300' }, info, 'en').minPerOrder).toBe(
      translate('en', 'otc.limits_exceed_quantity'),
    );
    expect(postProblems({ ...good, minPerOrder: '100', maxPerOrder: '50' }, info, 'en').maxPerOrder).toMatch(/maximum per order/);
  });

  it('refuses a quantity above the largest listing and a payment window out of range', () => {
    expect(postProblems({ ...good, quantity: '200000.0001' }, info, 'en').quantity).toBe(
      translate('en', 'otc.amount_above_max', { max: '200,000.0000' }),
    );
    const window = translate('en', 'otc.window_out_of_range', { min: 10, max: 60 });
    expect(postProblems({ ...good, paymentWindowMinutes: 5 }, info, 'en')).toEqual({ paymentWindowMinutes: window });
    expect(postProblems({ ...good, paymentWindowMinutes: 61 }, info, 'en')).toEqual({ paymentWindowMinutes: window });
  });

  it('what posting holds: a sell listing its quantity, the fee rounded up and the deposit; a buy listing the deposit', () => {
    const settings = { makerFeePct: '0.1', listingDeposit: '50.0000' };
    expect(postHolds('sell', '1000', settings)).toEqual({ fee: '1.0000', deposit: '50.0000', total: '1051.0000' });
    expect(postHolds('sell', '0.0001', settings)).toEqual({ fee: '0.0001', deposit: '50.0000', total: '50.0002' });
    expect(postHolds('buy', '1000', settings)).toEqual({ fee: '1.0000', deposit: '50.0000', total: '50.0000' });
    expect(postHolds('sell', 'abc', settings)).toBeNull();
  });
});

describe('reputation and the order’s clock', () => {
  it('writes the completion rate and the average release time', () => {
    expect(completionRateText('98.50')).toBe('98.5%');
    expect(completionRateText('100.00')).toBe('100%');
    expect(completionRateText(null)).toBeNull();
    expect(durationParts(45)).toEqual({ key: 'otc.duration.seconds', values: { count: 45 } });
    expect(durationParts(200)).toEqual({ key: 'otc.duration.minutes', values: { count: 3 } });
    expect(durationParts(3900)).toEqual({ key: 'otc.duration.hours', values: { hours: 1, minutes: 5 } });
  });

  it('counts the payment window while unpaid, the release window once paid, nothing when frozen or settled', () => {
    const times = { payDeadline: '2026-11-26T10:15:00.000Z', appealAllowedAt: null };
    expect(orderClock({ ...times, state: 'pending_payment' })).toEqual({ kind: 'pay', deadline: times.payDeadline });
    expect(orderClock({ ...times, state: 'paid', appealAllowedAt: '2026-11-26T10:30:00.000Z' })).toEqual({
      kind: 'release',
      deadline: '2026-11-26T10:30:00.000Z',
    });
    expect(orderClock({ ...times, state: 'appeal' })).toEqual({ kind: 'appeal', deadline: null });
    expect(orderClock({ ...times, state: 'completed' })).toBeNull();
    expect(orderClock({ ...times, state: 'cancelled' })).toBeNull();
  });

  it('places the order on its three steps', () => {
    expect(orderProgress('pending_payment')).toEqual({ current: 0, status: 'process' });
    expect(orderProgress('paid')).toEqual({ current: 1, status: 'process' });
    expect(orderProgress('appeal')).toEqual({ current: 1, status: 'error' });
    expect(orderProgress('completed')).toEqual({ current: 2, status: 'finish' });
  });
});
