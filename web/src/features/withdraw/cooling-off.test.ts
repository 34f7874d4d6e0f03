import { describe, expect, it } from 'vitest';
import en from '../../app/i18n/locales/en.json';
import zhHans from '../../app/i18n/locales/zh-Hans.json';
import { coolingOffText, type Translate } from './window';

/** The catalogue lookup and `{{name}}` filling the app's translator does, enough for these texts. */
function translator(catalogue: unknown): Translate {
  return (key, values = {}) => {
    const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
    if (typeof text !== 'string') throw new Error(`missing ${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(values[name]));
  };
}

const index = {
  coolingOffUntil: '2026-11-20T02:00:00.000Z',
  timeZone: 'Asia/Shanghai',
  settings: { securityCoolingOffHours: 24 },
} as Parameters<typeof coolingOffText>[0];

describe('the pause after a security reset', () => {
  it('says how long it lasts and when withdrawals reopen, in the platform time zone', () => {
    expect(coolingOffText(index, translator(en))).toBe(
      'For your safety, withdrawals are paused for 24 hours after your password, authenticator or trading password was reset. You can withdraw again from Friday 2026-11-20 10:00.',
    );
    expect(coolingOffText(index, translator(zhHans))).toContain('24 小时内暂停提现');
  });

  it('is not shown when there is no pause', () => {
    expect(coolingOffText({ ...index, coolingOffUntil: null }, translator(en))).toBeNull();
  });
});
