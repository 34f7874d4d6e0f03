import { describe, expect, it } from 'vitest';
import { OTC_SETTINGS_DEFAULTS, fieldLabel, translate } from '@custos/contract';
import { durationText, settingsChanges, toOtcSettings, trailNote } from './otc';
import { offenderOf } from './components/RulingPanel';

const form = (changes: Partial<Record<keyof typeof OTC_SETTINGS_DEFAULTS, unknown>> = {}) =>
  ({ ...OTC_SETTINGS_DEFAULTS, ...changes }) as typeof OTC_SETTINGS_DEFAULTS;

describe('toOtcSettings', () => {
  it('accepts the seeded defaults and writes amounts with four places', () => {
    expect(toOtcSettings(form({ guidePrice: ' 7.2 ', listingDeposit: '50', orderMinimum: '10' }))).toEqual({
      settings: { ...OTC_SETTINGS_DEFAULTS, guidePrice: '7.2000', listingDeposit: '50.0000', orderMinimum: '10.0000' },
    });
  });

  it('names the first refused field in the server’s English wording', () => {
    expect(toOtcSettings(form({ guidePrice: '7.12345' }))).toEqual({
      field: 'guidePrice',
      problem: translate('en', 'field_error', {
        field: fieldLabel('en', 'guidePrice'),
        reason: translate('en', 'reason.amount_places'),
      }),
    });
    expect(toOtcSettings(form({ orderMinimum: '60000', orderMaximum: '50000' }))).toMatchObject({
      field: 'orderMaximum',
      problem: translate('en', 'field_error', {
        field: fieldLabel('en', 'orderMaximum'),
        reason: translate('en', 'reason.otc_limits_order'),
      }),
    });
    expect(toOtcSettings(form({ paymentWindowDefaultMinutes: 90 }))).toMatchObject({ field: 'paymentWindowDefaultMinutes' });
    expect(toOtcSettings(form({ fiatCurrency: 'cny' }))).toMatchObject({ field: 'fiatCurrency' });
  });

  it('calls an emptied field missing', () => {
    expect(toOtcSettings(form({ releaseWindowMinutes: null }))).toEqual({
      field: 'releaseWindowMinutes',
      problem: translate('en', 'reason.required', { field: fieldLabel('en', 'releaseWindowMinutes') }),
    });
    expect(toOtcSettings(form({ guidePrice: '  ' }))).toMatchObject({ field: 'guidePrice' });
  });
});

describe('settingsChanges', () => {
  it('lists only what changed, before and after', () => {
    expect(settingsChanges(OTC_SETTINGS_DEFAULTS, { ...OTC_SETTINGS_DEFAULTS, enabled: false, makerFeePct: '0.2' })).toEqual([
      { label: 'OTC trading open', before: 'yes', after: 'no' },
      { label: "Maker's fee (% of each order)", before: '0.1', after: '0.2' },
    ]);
    expect(settingsChanges(OTC_SETTINGS_DEFAULTS, OTC_SETTINGS_DEFAULTS)).toEqual([]);
  });
});

describe('rulings and trails', () => {
  it('finds against the seller on a release and against the buyer on a return', () => {
    expect(offenderOf('release_to_buyer')).toBe('seller');
    expect(offenderOf('return_to_seller')).toBe('buyer');
  });

  it('shows the codes of appeal and ruling notes with their labels', () => {
    expect(trailNote('appealed', 'payment_not_received')).toBe('Payment not received');
    expect(trailNote('ruled', 'return_to_seller: no payment: none at all')).toBe('Return to the seller: no payment: none at all');
    expect(trailNote('released', 'as agreed')).toBe('as agreed');
  });

  it('writes durations as people read them', () => {
    expect(durationText(42)).toBe('42 s');
    expect(durationText(245)).toBe('4 min 05 s');
    expect(durationText(3720)).toBe('1 h 02 min');
  });
});
