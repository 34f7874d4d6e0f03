import { describe, expect, it } from 'vitest';
import { addDays, orderDates, platformDate } from './dates';

describe('platform dates', () => {
  it('are the date in the platform time zone, not the phone’s', () => {
    // 16:30 UTC on 21 November is already 00:30 on the 22nd in Shanghai.
    const lateUtc = new Date('2026-11-21T16:30:00.000Z');
    expect(platformDate(lateUtc, 'Asia/Shanghai')).toBe('2026-11-22');
    expect(platformDate(lateUtc, 'UTC')).toBe('2026-11-21');
    expect(platformDate(new Date('2026-11-21T15:59:59.999Z'), 'Asia/Shanghai')).toBe('2026-11-21');
    expect(platformDate(new Date('2026-11-22T04:00:00.000Z'), 'America/New_York')).toBe('2026-11-21');
  });

  it('fall back to the platform default for a zone the browser does not know', () => {
    expect(platformDate(new Date('2026-11-21T16:30:00.000Z'), 'Not/AZone')).toBe('2026-11-22');
  });

  it('add whole days across months, years and leap days, without DST effects', () => {
    expect(addDays('2026-11-21', 7)).toBe('2026-11-28');
    expect(addDays('2026-11-21', 30)).toBe('2026-12-21');
    expect(addDays('2026-12-15', 30)).toBe('2027-01-14');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-03-01', 360)).toBe('2027-02-24');
    // Across the start of summer time in Europe and America.
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-11-21', 0)).toBe('2026-11-21');
    expect(addDays('not a date', 3)).toBe('not a date');
  });

  it('give an order made now its start (today) and end (start + period)', () => {
    expect(orderDates(30, 'Asia/Shanghai', new Date('2026-11-21T16:30:00.000Z'))).toEqual({
      startDate: '2026-11-22',
      endDate: '2026-12-22',
    });
    expect(orderDates(7, 'UTC', new Date('2026-11-21T16:30:00.000Z'))).toEqual({
      startDate: '2026-11-21',
      endDate: '2026-11-28',
    });
  });
});
