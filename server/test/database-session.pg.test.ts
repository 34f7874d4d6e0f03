import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase({ migrate: false });
});
afterAll(async () => {
  await t.dispose();
});

describe("the server's PostgreSQL sessions", () => {
  it('run without JIT compilation (decision 038), on every pooled connection', async () => {
    // Several at once, so more than one pooled connection answers.
    const settings = await Promise.all(
      Array.from({ length: 4 }, () =>
        queryRows<{ jit: string; pid: number }>(
          t.database.db,
          sql`select current_setting('jit') as jit, pg_backend_pid() as pid, pg_sleep(0.05)::text as slept`,
        ),
      ),
    );
    expect(new Set(settings.map(([row]) => row!.jit))).toEqual(new Set(['off']));
    expect(new Set(settings.map(([row]) => row!.pid)).size).toBeGreaterThan(1);
  });
});
