import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../src/jobs/runner.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/test-database.js';

let t: TestDatabase;
let runner: JobRunner;
const received: unknown[] = [];
let failuresLeft = 1;

beforeAll(async () => {
  t = await createTestDatabase();
  runner = new JobRunner({
    database: t.database,
    logger: pino({ level: 'silent' }),
    timeZone: 'Asia/Shanghai',
    pollingIntervalS: 0.5,
  });
  runner.register<{ n: number }>({
    name: 'test.echo',
    async run(data) {
      received.push(data);
    },
  });
  runner.register({
    name: 'test.flaky',
    retryLimit: 2,
    async run() {
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('transient');
      }
    },
  });
  await runner.start();
});
afterAll(async () => {
  await runner.stop(1000);
  await t.dispose();
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('timed out waiting');
}

describe(`pg-boss on ${testDatabaseKind()}`, () => {
  it('runs a sent job with its data', async () => {
    await runner.send('test.echo', { n: 7 });
    await waitFor(async () => received.length === 1);
    expect(received).toEqual([{ n: 7 }]);
    await waitFor(async () => (await runner.countJobs('test.echo')).completed === 1);
  });

  it('collapses repeated sends with one key in one time slot', async () => {
    const first = await runner.send('test.echo', { n: 1 }, { key: 'same-day', slotS: 3600 });
    const second = await runner.send('test.echo', { n: 1 }, { key: 'same-day', slotS: 3600 });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
  });

  it('retries a failing job until it succeeds', async () => {
    await runner.send('test.flaky');
    await waitFor(async () => (await runner.countJobs('test.flaky')).completed === 1, 25_000);
    expect(failuresLeft).toBe(0);
  });

  it('refuses unknown job names', async () => {
    await expect(runner.send('test.nope')).rejects.toThrow(/unknown job/);
  });
});
