import { DEFAULT_PLATFORM_TIME_ZONE } from '@custos/contract';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function partsIn(instant: Date, timeZone: string): Intl.DateTimeFormatPart[] {
  const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone }).formatToParts(instant);
  } catch {
    // A zone this browser does not know: the platform's default rather than the phone's own.
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: DEFAULT_PLATFORM_TIME_ZONE }).formatToParts(instant);
  }
}

/**
 * The platform date ('YYYY-MM-DD') of a moment in the platform time zone, as the server dates
 * orders: a deposit made at 23:30 in Shanghai starts that Shanghai day, whatever the phone's zone.
 */
export function platformDate(instant: Date, timeZone: string): string {
  const parts = partsIn(instant, timeZone);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** A calendar date plus whole days ('2026-11-21' + 30 = '2026-12-21'), free of time zones and DST. */
export function addDays(date: string, days: number): string {
  const match = ISO_DATE.exec(date);
  if (!match) return date;
  const [, year, month, day] = match;
  const utc = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day) + days));
  return utc.toISOString().slice(0, 10);
}

/** The start (today on the platform) and end (start + period) of an order made now. */
export function orderDates(periodDays: number, timeZone: string, now: Date): { startDate: string; endDate: string } {
  const startDate = platformDate(now, timeZone);
  return { startDate, endDate: addDays(startDate, periodDays) };
}
