import { expect, type APIRequestContext } from '@playwright/test';

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

/**
 * Settles, through the console and in order, the days between the last settled one and `firstDay`
 * (which is left to the test). Days settle strictly in order, and the tests that move the server's
 * clock share it: by days, and by minutes for appeal windows, which near a platform midnight cross
 * into a day no test settled; and a run that starts just after a platform midnight finds custody
 * from the day before, which no test settles. With no day settled yet, it starts a week back: a
 * day before the platform's first day, or one settled already, is refused (409) and passed over.
 * `operator` is a finance operator's Authorization header.
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
    if (envelope.code === 409) continue;
    expect(envelope.code, envelope.message).toBe(200);
    expect(envelope.data).toMatchObject({ day, status: 'completed' });
  }
}
