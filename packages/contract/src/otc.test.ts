import { describe, expect, it } from 'vitest';
import { otcFee, otcFiatAmount, otcPostListingRequest, otcPriceBand, otcSettingsSchema, OTC_SETTINGS_DEFAULTS } from './index.js';

describe('OTC figures', () => {
  it('charges the maker fee rounded up to 4 places', () => {
    expect(otcFee('100.0000', '0.1')).toBe('0.1000');
    expect(otcFee('0.0001', '0.1')).toBe('0.0001');
    expect(otcFee('123.4567', '0.25')).toBe('0.3087');
    expect(otcFee('100.0000', '0')).toBe('0.0000');
  });

  it('gives the fiat amount with 2 places, half up', () => {
    expect(otcFiatAmount('100.0000', '7.2000')).toBe('720.00');
    expect(otcFiatAmount('1.0001', '7.2345')).toBe('7.24');
    expect(otcFiatAmount('0.0001', '0.0001')).toBe('0.00');
    expect(otcFiatAmount('10.0005', '1.0000')).toBe('10.00');
    expect(otcFiatAmount('10.0050', '1.0000')).toBe('10.01');
  });

  it('rounds the price band inwards', () => {
    expect(otcPriceBand('7.2000', '5')).toEqual({ min: '6.8400', max: '7.5600' });
    expect(otcPriceBand('7.0001', '3.3')).toEqual({ min: '6.7691', max: '7.2311' });
  });

  it('accepts the seeded settings and refuses crossed limits', () => {
    expect(otcSettingsSchema.safeParse(OTC_SETTINGS_DEFAULTS).success).toBe(true);
    expect(otcSettingsSchema.safeParse({ ...OTC_SETTINGS_DEFAULTS, paymentWindowMinMinutes: 90 }).success).toBe(false);
  });

  it('refuses more than 4 places and crossed per-order limits in a listing', () => {
    const listing = {
      side: 'sell',
      quantity: '100',
      price: '7.2',
      minPerOrder: '10',
      maxPerOrder: '100',
      splittable: true,
      paymentMethodIds: ['6f1c1c3e-8d0a-4a57-9d0e-0d7c1a0b1a11'],
      paymentWindowMinutes: 15,
      idempotencyKey: 'abcdefgh12',
    };
    expect(otcPostListingRequest.safeParse(listing).success).toBe(true);
    expect(otcPostListingRequest.safeParse({ ...listing, quantity: '1.00001' }).success).toBe(false);
    expect(otcPostListingRequest.safeParse({ ...listing, minPerOrder: '200' }).success).toBe(false);
  });
});
