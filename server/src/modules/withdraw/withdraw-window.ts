import { addDays, instantOf, localTime, minutesOf } from '../../lib/platform-time.js';

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

export { localTime, instantOf, type LocalTime } from '../../lib/platform-time.js';

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
