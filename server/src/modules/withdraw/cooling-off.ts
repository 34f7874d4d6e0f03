import { localTime } from '../../lib/platform-time.js';

/**
 * The pause after a security reset (docs/decisions/016, 051): someone who took over an account by
 * having a factor replaced without proof of the old one cannot move its USDT out (a withdrawal, an
 * OTC sell, a listing, a release) before the owner has had time to notice.
 */

/** The end of the pause, or null once it has passed (or when the pause is turned off). */
export function coolingOffUntil(securityResetAt: Date | null, coolingOffHours: number, now: Date): Date | null {
  if (!securityResetAt || coolingOffHours === 0) return null;
  const until = new Date(securityResetAt.getTime() + coolingOffHours * 3_600_000);
  return until > now ? until : null;
}

/** The message parameters: the hours and the minute (rounded up, so at the time shown it is open) in the platform zone. */
export function coolingOffParams(until: Date, coolingOffHours: number, timeZone: string) {
  const local = localTime(new Date(Math.ceil(until.getTime() / 60_000) * 60_000), timeZone);
  const hhmm = `${String(Math.floor(local.minutes / 60)).padStart(2, '0')}:${String(local.minutes % 60).padStart(2, '0')}`;
  return { hours: coolingOffHours, until: `${local.date} ${hhmm}`, timeZone };
}
