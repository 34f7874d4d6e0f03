import { describe, expect, it } from 'vitest';
import { instantOf, localTime, windowState, type WindowRule } from '../src/modules/withdraw/withdraw-window.js';

const rule: WindowRule = { openDays: [1, 2, 3, 4, 5], openTime: '09:00', closeTime: '21:00', timeZone: 'Asia/Shanghai' };
const none = new Map<string, string>();

describe('the withdrawal window', () => {
  it('reads local date, weekday and minutes in the platform time zone', () => {
    // 2026-11-20 is a Friday; 01:30 UTC is 09:30 in Shanghai.
    expect(localTime(new Date('2026-11-20T01:30:00Z'), 'Asia/Shanghai')).toEqual({
      date: '2026-11-20',
      isoWeekday: 5,
      minutes: 570,
    });
    expect(instantOf('2026-11-23', '09:00', 'Asia/Shanghai').toISOString()).toBe('2026-11-23T01:00:00.000Z');
    expect(instantOf('2026-07-01', '09:00', 'Europe/Berlin').toISOString()).toBe('2026-07-01T07:00:00.000Z');
  });

  it('is open Monday to Friday from 09:00 to 21:00 and closed at the edges', () => {
    expect(windowState(rule, new Date('2026-11-20T01:00:00Z'), none)).toMatchObject({ open: true }); // Fri 09:00
    expect(windowState(rule, new Date('2026-11-20T00:59:00Z'), none)).toMatchObject({ open: false }); // Fri 08:59
    const friEvening = windowState(rule, new Date('2026-11-20T13:00:00Z'), none); // Fri 21:00
    expect(friEvening).toMatchObject({ open: false, holiday: null });
    // Closed Friday evening: next opening is Monday 09:00 Shanghai.
    expect(friEvening.open === false && friEvening.nextOpenAt?.toISOString()).toBe('2026-11-23T01:00:00.000Z');
    const saturday = windowState(rule, new Date('2026-11-21T04:00:00Z'), none);
    expect(saturday.open).toBe(false);
  });

  it('is closed on a holiday, names it, and skips it when looking for the next opening', () => {
    const holidays = new Map([
      ['2026-11-23', 'Founders day'],
      ['2026-11-24', 'Founders day'],
    ]);
    const state = windowState(rule, new Date('2026-11-23T03:00:00Z'), holidays);
    expect(state).toMatchObject({ open: false, holiday: 'Founders day' });
    expect(state.open === false && state.nextOpenAt?.toISOString()).toBe('2026-11-25T01:00:00.000Z');
  });

  it('opens later the same day when it is before the opening time', () => {
    const early = windowState(rule, new Date('2026-11-19T22:00:00Z'), none); // Fri 06:00 Shanghai
    expect(early.open === false && early.nextOpenAt?.toISOString()).toBe('2026-11-20T01:00:00.000Z');
  });

  it('is open all day on open days when the opening and closing times are equal', () => {
    const allDay = { ...rule, openDays: [1, 2, 3, 4, 5, 6, 7], openTime: '00:00', closeTime: '00:00' };
    expect(windowState(allDay, new Date('2026-11-21T15:59:00Z'), none)).toMatchObject({ open: true });
    expect(windowState(allDay, new Date('2026-11-21T16:00:00Z'), none)).toMatchObject({ open: true });
  });
});
