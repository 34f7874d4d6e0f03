import { describe, expect, it } from 'vitest';
import {
  CONTRACT_SETTINGS_DEFAULTS,
  FOREX_WEEK_SESSIONS,
  fieldLabel,
  translate,
  type ContractProductSettings,
} from '@custos/contract';
import {
  NEW_PRODUCT_FORM,
  changesOf,
  hoursText,
  PRODUCT_LABELS,
  productForm,
  SETTINGS_LABELS,
  toContractSettings,
  toProductSettings,
} from './contracts';

const stored: ContractProductSettings = {
  digits: 5,
  contractSize: '100000',
  leverages: [10, 50, 100],
  minLots: '0.01',
  lotStep: '0.01',
  maxLots: '10',
  spreadMarkupPoints: 4,
  sessions: FOREX_WEEK_SESSIONS,
  swapEnabled: true,
  swapLongPct: '-0.01',
  swapShortPct: '0.002',
  tradingEnabled: true,
};

describe('toContractSettings', () => {
  it('accepts the defaults and names the first refused field in the server’s English words', () => {
    expect(toContractSettings({ ...CONTRACT_SETTINGS_DEFAULTS, stopOutLevelPct: ' 40 ' })).toEqual({
      value: { ...CONTRACT_SETTINGS_DEFAULTS, stopOutLevelPct: '40' },
    });
    expect(toContractSettings({ ...CONTRACT_SETTINGS_DEFAULTS, stopOutLevelPct: '40.123' })).toEqual({
      field: 'stopOutLevelPct',
      problem: translate('en', 'field_error', {
        field: fieldLabel('en', 'stopOutLevelPct'),
        reason: translate('en', 'reason.level_pct'),
      }),
    });
    expect(toContractSettings({ ...CONTRACT_SETTINGS_DEFAULTS, priceStaleAfterS: null as unknown as number })).toEqual({
      field: 'priceStaleAfterS',
      problem: translate('en', 'reason.required', { field: fieldLabel('en', 'priceStaleAfterS') }),
    });
  });

  it('lists what a save changes', () => {
    expect(
      changesOf(SETTINGS_LABELS, CONTRACT_SETTINGS_DEFAULTS, {
        ...CONTRACT_SETTINGS_DEFAULTS,
        stopOutLevelPct: '30',
        enabled: false,
      }),
    ).toEqual([
      { label: SETTINGS_LABELS.enabled, before: 'yes', after: 'no' },
      { label: SETTINGS_LABELS.stopOutLevelPct, before: '50', after: '30' },
    ]);
  });
});

describe('product settings', () => {
  it('round-trips stored settings through the form, hours per day', () => {
    const form = productForm(stored);
    expect(form.leverages).toBe('10, 50, 100');
    expect(form.hours).toEqual({
      '1': '00:00-24:00',
      '2': '00:00-24:00',
      '3': '00:00-24:00',
      '4': '00:00-24:00',
      '5': '00:00-22:00',
      '6': '',
      '0': '',
    });
    expect(toProductSettings(form)).toEqual({ value: stored });
  });

  it('reads several sessions a day and a new product’s defaults', () => {
    const result = toProductSettings({
      ...NEW_PRODUCT_FORM,
      hours: { ...NEW_PRODUCT_FORM.hours, '0': '', '6': '01:00-12:00, 13:00 - 23:30' },
    });
    expect('value' in result && result.value.sessions.filter((session) => session.day === 6)).toEqual([
      { day: 6, open: '01:00', close: '12:00' },
      { day: 6, open: '13:00', close: '23:30' },
    ]);
    expect('value' in result && result.value.sessions.some((session) => session.day === 0)).toBe(false);
  });

  it('refuses in the server’s words: hours, leverages, lots the wrong way round', () => {
    expect(toProductSettings({ ...NEW_PRODUCT_FORM, hours: { ...NEW_PRODUCT_FORM.hours, '3': '9 to 5' } })).toEqual({
      field: 'hours.3',
      problem: translate('en', 'field_error', {
        field: fieldLabel('en', 'sessions'),
        reason: translate('en', 'reason.time_of_day'),
      }),
    });
    expect(toProductSettings({ ...NEW_PRODUCT_FORM, hours: { ...NEW_PRODUCT_FORM.hours, '3': '12:00-09:00' } })).toMatchObject({
      field: 'hours.3',
      problem: translate('en', 'field_error', {
        field: fieldLabel('en', 'close'),
        reason: translate('en', 'reason.session_order'),
      }),
    });
    expect(toProductSettings({ ...NEW_PRODUCT_FORM, leverages: '10, x' })).toMatchObject({ field: 'leverages' });
    expect(toProductSettings({ ...NEW_PRODUCT_FORM, minLots: '5', maxLots: '1' })).toEqual({
      field: 'maxLots',
      problem: translate('en', 'field_error', {
        field: fieldLabel('en', 'maxLots'),
        reason: translate('en', 'reason.lots_order'),
      }),
    });
    expect(toProductSettings({ ...NEW_PRODUCT_FORM, contractSize: '' })).toEqual({
      field: 'contractSize',
      problem: translate('en', 'reason.required', { field: fieldLabel('en', 'contractSize') }),
    });
  });

  it('shows hours and changes in a line', () => {
    expect(hoursText(FOREX_WEEK_SESSIONS)).toBe(
      'Mon 00:00–24:00 · Tue 00:00–24:00 · Wed 00:00–24:00 · Thu 00:00–24:00 · Fri 00:00–22:00',
    );
    const fresh = toProductSettings(NEW_PRODUCT_FORM);
    expect('value' in fresh && hoursText(fresh.value.sessions)).toBe('around the clock');
    expect(changesOf(PRODUCT_LABELS, null, stored)).toHaveLength(Object.keys(PRODUCT_LABELS).length);
    expect(changesOf(PRODUCT_LABELS, stored, { ...stored, leverages: [10, 100] })).toEqual([
      { label: PRODUCT_LABELS.leverages, before: '10, 50, 100', after: '10, 100' },
    ]);
  });
});
