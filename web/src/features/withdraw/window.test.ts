import { describe, expect, it } from 'vitest';
import en from '../../app/i18n/locales/en.json';
import zhHans from '../../app/i18n/locales/zh-Hans.json';
import { closedText, isoWeekdayIn, platformMoment, windowDays, windowDaysText, windowText, type Translate } from './window';

/** The catalogue lookup and `{{name}}` filling the app's translator does, enough for these texts. */
function translator(catalogue: unknown): Translate {
  return (key, values = {}) => {
    const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
    if (typeof text !== 'string') throw new Error(`missing ${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(values[name]));
  };
}
const t = translator(en);

const window = { openDays: [1, 2, 3, 4, 5], openTime: '09:00', closeTime: '21:00' };

describe('withdrawal window', () => {
  it('reads as the spec writes it: Monday–Friday 09:00–21:00 and the zone', () => {
    expect(windowText(window, 'Asia/Shanghai', t)).toBe('Monday–Friday 09:00–21:00 (Asia/Shanghai)');
    expect(windowText(window, 'Asia/Shanghai', translator(zhHans))).toBe('周一至周五 09:00–21:00（Asia/Shanghai）');
  });

  it('reads equal opening and closing times as the whole day', () => {
    const allWeek = { openDays: [1, 2, 3, 4, 5, 6, 7], openTime: '00:00', closeTime: '00:00' };
    expect(windowText(allWeek, 'Asia/Shanghai', t)).toBe('Every day, all day (Asia/Shanghai)');
    expect(windowText({ ...window, openTime: '09:00', closeTime: '09:00' }, 'UTC', t)).toBe('Monday–Friday, all day (UTC)');
    expect(windowText(allWeek, 'Asia/Shanghai', translator(zhHans))).toBe('每天 全天（Asia/Shanghai）');
  });

  it('names runs of days, every day, single days and gaps', () => {
    expect(windowDays([5, 4, 3, 2, 1])).toEqual({ kind: 'range', from: 1, to: 5 });
    expect(windowDays([1, 2, 3, 4, 5, 6, 7])).toEqual({ kind: 'every' });
    expect(windowDays([])).toEqual({ kind: 'none' });
    expect(windowDays([1, 3, 5, 3])).toEqual({ kind: 'list', days: [1, 3, 5] });
    expect(windowDays([6, 7])).toEqual({ kind: 'list', days: [6, 7] });
    expect(windowDaysText([1, 2, 3, 4, 5, 6, 7], t)).toBe('Every day');
    expect(windowDaysText([2, 3, 4], t)).toBe('Tuesday–Thursday');
    expect(windowDaysText([1, 3, 5], t)).toBe('Monday, Wednesday, Friday');
    expect(windowDaysText([3], t)).toBe('Wednesday');
    expect(windowDaysText([], t)).toBe('No withdrawal days are set');
    expect(windowDaysText([1, 3], translator(zhHans))).toBe('周一、周三');
  });

  it('says when it opens again, in the platform time zone with the weekday', () => {
    // 01:00 UTC on Monday 2026-11-23 is 09:00 in Shanghai.
    const next = '2026-11-23T01:00:00.000Z';
    expect(isoWeekdayIn(next, 'Asia/Shanghai')).toBe(1);
    expect(isoWeekdayIn('2026-11-22T23:00:00.000Z', 'UTC')).toBe(7);
    expect(isoWeekdayIn('nonsense', 'UTC')).toBeNull();
    expect(platformMoment(next, 'Asia/Shanghai', t)).toBe('Monday 2026-11-23 09:00');
    expect(closedText({ nextOpenAt: next, timeZone: 'Asia/Shanghai' }, t)).toBe(
      'Withdrawals are closed now. They open again Monday 2026-11-23 09:00.',
    );
    expect(closedText({ nextOpenAt: null, timeZone: 'Asia/Shanghai' }, t)).toBe('Withdrawals are closed now.');
  });
});
