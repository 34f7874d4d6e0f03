/**
 * Dates in the platform's time zone: the platform day of an instant, the instant of a local date and
 * time, and calendar-day arithmetic. Every module that counts days (settlement, windows, team, OTC)
 * shares these.
 */

export interface LocalTime {
  /** 'YYYY-MM-DD' in the time zone. */
  date: string;
  isoWeekday: number;
  /** Minutes since local midnight. */
  minutes: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/**
 * One formatter per time zone: building an `Intl.DateTimeFormat` costs far more than formatting with
 * one, and the team page, the windows and the settlement ask for the local date on every call.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function localTime(instant: Date, timeZone: string): LocalTime {
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    isoWeekday: WEEKDAYS[parts.weekday!]!,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** Per time zone, the local day last asked for and the instants it runs between. */
const daysKnown = new Map<string, { date: string; fromMs: number; untilMs: number }>();

/**
 * The local calendar day ('YYYY-MM-DD') at `instant` in `timeZone`: `localTime(...).date`, without
 * formatting a date on every call (calls asking for today, every request of some pages, answer from
 * the day's bounds until it ends).
 */
export function localDate(instant: Date, timeZone: string): string {
  const ms = instant.getTime();
  const known = daysKnown.get(timeZone);
  if (known && ms >= known.fromMs && ms < known.untilMs) return known.date;
  const date = localTime(instant, timeZone).date;
  const fromMs = instantOf(date, '00:00', timeZone).getTime();
  const untilMs = instantOf(addDays(date, 1), '00:00', timeZone).getTime();
  // Kept only when the bounds found hold this instant (a zone whose midnight is skipped is asked again).
  if (ms >= fromMs && ms < untilMs) daysKnown.set(timeZone, { date, fromMs, untilMs });
  return date;
}

/** Minutes since midnight of an 'HH:MM' time. */
export function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours! * 60 + minutes!;
}

/** The instant of a local date and time in a time zone (two passes absorb a DST change). */
export function instantOf(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  const wanted = Date.UTC(year!, month! - 1, day, 0, minutesOf(time));
  let guess = wanted;
  for (let pass = 0; pass < 2; pass += 1) {
    const local = localTime(new Date(guess), timeZone);
    const [ly, lm, ld] = local.date.split('-').map(Number);
    const seen = Date.UTC(ly!, lm! - 1, ld, 0, local.minutes);
    guess += wanted - seen;
  }
  return new Date(guess);
}

/** The calendar day `days` after `day` (both 'YYYY-MM-DD'; negative goes back). */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, date! + days)).toISOString().slice(0, 10);
}
