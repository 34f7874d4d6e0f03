import { DEFAULT_PLATFORM_TIME_ZONE } from '@custos/contract';

let platformTimeZone: string = DEFAULT_PLATFORM_TIME_ZONE;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The platform's time zone from its configuration (records are shown in the platform's day). */
export function setPlatformTimeZone(zone: string): void {
  if (isTimeZone(zone)) platformTimeZone = zone;
}

export function getPlatformTimeZone(): string {
  return platformTimeZone;
}

/**
 * "2025-03-01 18:04:05" in the platform time zone: one unambiguous numeric form in every language,
 * as exchange apps show record times.
 */
export function formatDateTime(iso: string, timeZone: string = platformTimeZone): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}
