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

/**
 * Settles, through the console and in order, the days between the last settled one and `firstDay`
 * (which is left to the test). Days settle strictly in order, and the tests that move the server's
 * clock share it: by days, and by minutes for appeal windows, which near a platform midnight cross
 * into a day no test settled. `operator` is a finance operator's Authorization header.
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
  for (let day = lastSettled ? dayAfter(lastSettled) : firstDay; day < firstDay; day = dayAfter(day)) {
    const run = await data<{ day: string; status: string }>(
      await request.post(`/api/admin/settlement/runs/${day}/rerun`, { headers: { authorization: operator }, data: {} }),
    );
    expect(run).toMatchObject({ day, status: 'completed' });
  }
}
