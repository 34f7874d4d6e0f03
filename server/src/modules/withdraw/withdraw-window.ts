/**
 * When withdrawals may be requested: on the open weekdays, from the opening to the closing time, in
 * the platform time zone, and not on an operator-set holiday (product.md §5).
 */

export interface WindowRule {
  /** ISO weekdays, 1 = Monday … 7 = Sunday. */
  openDays: readonly number[];
  /** 'HH:MM', inclusive. */
  openTime: string;
  /** 'HH:MM', exclusive; the same as `openTime` for the whole day. */
  closeTime: string;
  timeZone: string;
}

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

function minutesOf(time: string): number {
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

function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, day! + days)).toISOString().slice(0, 10);
}

function weekdayOf(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  const weekday = new Date(Date.UTC(year!, month! - 1, day)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

export type WindowState =
  { open: true; date: string } | { open: false; date: string; holiday: string | null; nextOpenAt: Date | null };

/** Whether `now` is inside the window, and if not, when it next opens (within 60 days). */
export function windowState(rule: WindowRule, now: Date, holidays: ReadonlyMap<string, string>): WindowState {
  const local = localTime(now, rule.timeZone);
  const openMinutes = minutesOf(rule.openTime);
  const closeMinutes = minutesOf(rule.closeTime);
  const holiday = holidays.get(local.date) ?? null;
  const openDay = rule.openDays.includes(local.isoWeekday) && holiday === null;
  // Equal opening and closing times mean the whole day.
  const allDay = openMinutes === closeMinutes;
  if (openDay && (allDay || (local.minutes >= openMinutes && local.minutes < closeMinutes)))
    return { open: true, date: local.date };
  let nextOpenAt: Date | null = null;
  for (let offset = 0; offset <= 60 && nextOpenAt === null; offset += 1) {
    const date = addDays(local.date, offset);
    if (!rule.openDays.includes(weekdayOf(date)) || holidays.has(date)) continue;
    if (offset === 0 && !allDay && local.minutes >= openMinutes) continue;
    nextOpenAt = instantOf(date, rule.openTime, rule.timeZone);
  }
  return { open: false, date: local.date, holiday, nextOpenAt };
}
