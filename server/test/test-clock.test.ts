import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { AdjustableClock } from '../src/lib/adjustable-clock.js';
import { createLogger } from '../src/lib/logger.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it('has no clock control unless TEST_CLOCK_CONTROL is on', async () => {
  expect(loadConfig({}).testClockControl).toBe(false);
  const response = await t.app.inject({ method: 'POST', url: '/api/test/clock', payload: { advanceMs: 1000 } });
  expect(response.statusCode).toBe(404);
});

it('moves only its own clock forward when on (end-to-end tests advance the platform day)', async () => {
  const clock = new AdjustableClock();
  const app = await buildApp({
    config: t.config,
    database: t.testDatabase.database,
    services: t.services,
    logger: createLogger('silent'),
    clock,
  });
  const response = await app.inject({ method: 'POST', url: '/api/test/clock', payload: { advanceMs: 2 * 86_400_000 } });
  const moved = Date.parse(response.json<{ data: { now: string } }>().data.now);
  expect(moved - Date.now()).toBeGreaterThan(2 * 86_400_000 - 60_000);
  expect((await app.inject({ method: 'POST', url: '/api/test/clock', payload: { advanceMs: -1 } })).statusCode).toBe(400);
  await app.close();
});
