import { DEFAULT_PLATFORM_TIME_ZONE } from '@custos/contract';

let platformTimeZone: string = DEFAULT_PLATFORM_TIME_ZONE;
/** The zone the configuration named, checked the first time a time is shown (decision 044). */
let configuredTimeZone: string | null = null;

/*
 * One formatter per zone, made when a time is first shown in it: making one loads the zone's data
 * (tens of milliseconds on a phone the first time), which the launch's configuration call should not
 * pay for a screen that shows no time, nor every row of a list again.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter of a zone; throws a RangeError for a zone the device does not know. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The platform's time zone from its configuration (records are shown in the platform's day). */
export function setPlatformTimeZone(zone: string): void {
  configuredTimeZone = zone;
}

/** The platform's zone; one the device does not know is ignored (the previous one stays). */
export function getPlatformTimeZone(): string {
  if (configuredTimeZone !== null) {
    const zone = configuredTimeZone;
    configuredTimeZone = null;
    try {
      formatterFor(zone);
      platformTimeZone = zone;
    } catch {
      // Not a zone this device knows: the previous one stays.
    }
  }
  return platformTimeZone;
}

/**
 * "2025-03-01 18:04:05" in the platform time zone: one unambiguous numeric form in every language,
 * as exchange apps show record times.
 */
export function formatDateTime(iso: string, timeZone: string = getPlatformTimeZone()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = formatterFor(timeZone).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}
