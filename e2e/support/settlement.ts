import { expect, type APIRequestContext } from '@playwright/test';
import { translate } from '@custos/contract';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The calendar day after `day` (YYYY-MM-DD). */
function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

async function data<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  expect(envelope.code, envelope.message).toBe(200);
  return envelope.data;
}

/** The calendar day `days` before `day` (YYYY-MM-DD). */
function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
}

/** Splits an English server message around its one `{day}` parameter. */
function around(key: 'settlement.before_first_day'): [string, string] {
  const marker = '\u0000';
  const [before, after] = translate('en', key, { day: marker }).split(marker);
  return [before!, after!];
}

/**
 * Whether a rerun's refusal is one of the two the catch-up expects: the day settled already, or a
 * day before the platform's first day (which the message names, and which must be after `day`).
 */
function passedOver(envelope: { code: number; message: string }, day: string): boolean {
  if (envelope.code !== 409) return false;
  if (envelope.message === translate('en', 'settlement.already_completed')) return true;
  const [before, after] = around('settlement.before_first_day');
  if (!envelope.message.startsWith(before) || !envelope.message.endsWith(after)) return false;
  const firstDay = envelope.message.slice(before.length, envelope.message.length - after.length);
  return /^\d{4}-\d{2}-\d{2}$/.test(firstDay) && day < firstDay;
}

/**
 * Settles, through the console and in order, the days between the last settled one and `firstDay`
 * (which is left to the test). Days settle strictly in order, and the tests that move the server's
 * clock share it: by days, and by minutes for appeal windows, which near a platform midnight cross
 * into a day no test settled; and a run that starts just after a platform midnight finds custody
 * from the day before, which no test settles. With no day settled yet, it starts a week back: a
 * day before the platform's first day, or one settled already (by the server's own scheduler or the
 * other worker), is refused (409) and passed over. Any other refusal (out of order, not over, a
 * failed run) fails the test. `operator` is a finance operator's Authorization header.
 */
export async function settleDaysBefore(request: APIRequestContext, operator: string, firstDay: string): Promise<void> {
  const runs = await data<{ day: string; status: string }[]>(
    await request.get('/api/admin/settlement/runs', { headers: { authorization: operator } }),
  );
  const settled = runs
    .filter((run) => run.status === 'completed')
    .map((run) => run.day)
    .sort();
  const lastSettled = settled[settled.length - 1];
  for (let day = lastSettled ? dayAfter(lastSettled) : daysBefore(firstDay, 7); day < firstDay; day = dayAfter(day)) {
    const response = await request.post(`/api/admin/settlement/runs/${day}/rerun`, {
      headers: { authorization: operator, lang: 'EN' },
      data: {},
    });
    const envelope = (await response.json()) as { code: number; message: string; data: { day: string; status: string } };
    if (passedOver(envelope, day)) continue;
    expect(envelope.code, envelope.message).toBe(200);
    expect(envelope.data).toMatchObject({ day, status: 'completed' });
  }
}
