import { describe, expect, it } from 'vitest';
import { localDate, localTime } from '../src/lib/platform-time.js';

describe('the platform day', () => {
  it('answers the local date at each side of midnight, as formatting the instant does', () => {
    // Shanghai is UTC+8: its 2026-11-28 runs from 2026-11-27T16:00Z to 2026-11-28T16:00Z.
    const cases: [string, string][] = [
      ['2026-11-27T15:59:59.999Z', '2026-11-27'],
      ['2026-11-27T16:00:00.000Z', '2026-11-28'],
      ['2026-11-28T03:00:00.000Z', '2026-11-28'],
      ['2026-11-28T15:59:59.999Z', '2026-11-28'],
      ['2026-11-28T16:00:00.000Z', '2026-11-29'],
      // Back in time after a later day was asked (a clock set back): still right.
      ['2026-11-27T15:59:59.999Z', '2026-11-27'],
    ];
    for (const [instant, date] of cases) {
      expect(localDate(new Date(instant), 'Asia/Shanghai')).toBe(date);
      expect(localTime(new Date(instant), 'Asia/Shanghai').date).toBe(date);
    }
  });

  it('keeps each time zone’s day apart, across a daylight-saving change', () => {
    expect(localDate(new Date('2026-03-29T00:30:00Z'), 'Europe/Berlin')).toBe('2026-03-29');
    expect(localDate(new Date('2026-03-29T00:30:00Z'), 'America/New_York')).toBe('2026-03-28');
    // Berlin's 2026-03-29 is 23 hours long: it ends at 22:00Z.
    expect(localDate(new Date('2026-03-29T21:59:59Z'), 'Europe/Berlin')).toBe('2026-03-29');
    expect(localDate(new Date('2026-03-29T22:00:00Z'), 'Europe/Berlin')).toBe('2026-03-30');
    // Santiago skips midnight when its clocks go forward (2026-09-06 begins at 01:00 local, 04:00Z).
    expect(localDate(new Date('2026-09-06T03:59:59Z'), 'America/Santiago')).toBe('2026-09-05');
    expect(localDate(new Date('2026-09-06T04:00:00Z'), 'America/Santiago')).toBe('2026-09-06');
    expect(localDate(new Date('2026-09-06T12:00:00Z'), 'America/Santiago')).toBe('2026-09-06');
  });
});
