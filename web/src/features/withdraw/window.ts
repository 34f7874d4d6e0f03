import type { WithdrawIndex, WithdrawSettings } from '@custos/contract';
import { formatDateTime } from '../../lib/format/time';
import type { Translate } from '../../lib/i18n/translator';

export type { Translate };

export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** The open days, as few words as possible: none, every day, a run ("Monday–Friday"), or a list. */
export type WindowDays =
  { kind: 'none' } | { kind: 'every' } | { kind: 'range'; from: number; to: number } | { kind: 'list'; days: number[] };

export function windowDays(openDays: readonly number[]): WindowDays {
  const days = [...new Set(openDays)].filter((day) => day >= 1 && day <= 7).sort((a, b) => a - b);
  if (days.length === 0) return { kind: 'none' };
  if (days.length === 7) return { kind: 'every' };
  const consecutive = days.every((day, index) => index === 0 || day === days[index - 1]! + 1);
  if (consecutive && days.length >= 3) return { kind: 'range', from: days[0]!, to: days[days.length - 1]! };
  return { kind: 'list', days };
}

export function weekdayName(day: number, t: Translate): string {
  return t(`withdraw.weekdays.${day}`);
}

/** "Monday–Friday", "Every day", "Monday, Wednesday, Friday". */
export function windowDaysText(openDays: readonly number[], t: Translate): string {
  const days = windowDays(openDays);
  switch (days.kind) {
    case 'none':
      return t('withdraw.window.noDays');
    case 'every':
      return t('withdraw.window.everyDay');
    case 'range':
      return t('withdraw.window.range', { from: weekdayName(days.from, t), to: weekdayName(days.to, t) });
    case 'list':
      return days.days.map((day) => weekdayName(day, t)).join(t('withdraw.window.separator'));
  }
}

/**
 * "Monday–Friday 09:00–21:00 (Asia/Shanghai)": when withdrawals may be requested. The same opening
 * and closing time means the whole day, as the server reads it.
 */
export function windowText(
  settings: Pick<WithdrawSettings, 'openDays' | 'openTime' | 'closeTime'>,
  timeZone: string,
  t: Translate,
): string {
  const days = windowDaysText(settings.openDays, t);
  if (settings.openTime === settings.closeTime) return t('withdraw.window.textAllDay', { days, timeZone });
  return t('withdraw.window.text', {
    days,
    open: settings.openTime,
    close: settings.closeTime,
    timeZone,
  });
}

const SHORT_WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** The ISO weekday (1 = Monday) of a moment in a time zone. */
export function isoWeekdayIn(iso: string, timeZone: string): number | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const short = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short' }).format(date);
  const index = SHORT_WEEKDAYS.indexOf(short);
  return index < 0 ? null : index + 1;
}

/** "Monday 2026-11-23 09:00": a moment in the platform time zone, with its weekday. */
export function platformMoment(iso: string, timeZone: string, t: Translate): string {
  const weekday = isoWeekdayIn(iso, timeZone);
  const time = formatDateTime(iso, timeZone).slice(0, 16);
  return weekday === null ? time : `${weekdayName(weekday, t)} ${time}`;
}

/** The closed-now notice: when the window opens again, if the server said. */
export function closedText(index: Pick<WithdrawIndex, 'nextOpenAt' | 'timeZone'>, t: Translate): string {
  return index.nextOpenAt
    ? t('withdraw.window.closedUntil', { time: platformMoment(index.nextOpenAt, index.timeZone, t) })
    : t('withdraw.window.closed');
}

/**
 * The pause after a security reset (docs/decisions/016): how long it lasts and when withdrawals
 * reopen, in the platform time zone; null when there is none.
 */
export function coolingOffText(
  index: Pick<WithdrawIndex, 'coolingOffUntil' | 'timeZone' | 'settings'>,
  t: Translate,
): string | null {
  if (!index.coolingOffUntil) return null;
  return t('withdraw.coolingOff', {
    hours: index.settings.securityCoolingOffHours,
    time: platformMoment(index.coolingOffUntil, index.timeZone, t),
  });
}
