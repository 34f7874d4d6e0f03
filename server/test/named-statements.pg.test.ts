import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, runStatement } from '../src/db/client.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

// Real PostgreSQL only: PGlite has no statements by name on a connection.
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase({ migrate: false });
});
afterAll(async () => {
  await t.dispose();
});

/** An error with its causes, as text: drivers and drizzle wrap the database's error. */
function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const { code, message } = current as { code?: string; message?: string };
    parts.push(`${code ?? ''} ${message ?? (typeof current === 'string' ? current : '')}`);
    if (parts.length > 5) break;
  }
  return parts.join(' | ');
}

describe('raw statements on PostgreSQL', () => {
  it('are prepared once per connection and reused by name, once a text is used a few times', async () => {
    const { db } = t.database;
    const prepared = await db.transaction(async (tx) => {
      for (const value of [1, 2, 3, 4, 5]) {
        const rows = await queryRows<{ doubled: number }>(tx, sql`select ${value}::int * 2 as doubled`);
        expect(rows).toEqual([{ doubled: value * 2 }]);
      }
      // Same connection (the transaction's): one prepared statement for the calls after the first two.
      return queryRows<{ name: string; statement: string }>(
        tx,
        sql`select name, statement from pg_prepared_statements where statement like ${'%::int * 2 as doubled'}`,
      );
    });
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.name).toMatch(/^custos_/);
  });

  it('keep dates as text, as drizzle returns them, and parse numbers and JSON as usual', async () => {
    const [row] = await queryRows<{ at: unknown; day: unknown; count: unknown; doc: unknown; amount: unknown }>(
      t.database.db,
      sql`select timestamptz '2026-11-21 10:00:00+00' as at, date '2026-11-21' as day, 7::int as count,
                 '{"a":1}'::jsonb as doc, 1.2345::numeric as amount`,
    );
    expect(typeof row!.at).toBe('string');
    expect(row!.day).toBe('2026-11-21');
    expect(row!.count).toBe(7);
    expect(row!.doc).toEqual({ a: 1 });
    // Money stays exact: numeric is never turned into a float.
    expect(row!.amount).toBe('1.2345');
  });

  it('answer how many rows a statement changed, and a failed statement leaves its name usable', async () => {
    const { db } = t.database;
    await runStatement(db, sql`create table if not exists named_probe (n int primary key)`);
    expect(await runStatement(db, sql`insert into named_probe values (${1}), (${2}) on conflict do nothing`)).toBe(2);
    expect(await runStatement(db, sql`insert into named_probe values (${1}), (${3}) on conflict do nothing`)).toBe(1);
    await expect(queryRows(db, sql`select 1 / ${0}::int as broken`)).rejects.toThrow(/division by zero/);
    await expect(queryRows(db, sql`select 1 / ${0}::int as broken`)).rejects.toThrow(/division by zero/);
    expect(await queryRows(db, sql`select 4 / ${2}::int as fine`)).toEqual([{ fine: 2 }]);
  });

  it('recover when another instance changed a table under a prepared statement', async () => {
    const { db } = t.database;
    await runStatement(db, sql`create table stale_probe (n int not null)`);
    await runStatement(db, sql`insert into stale_probe values (${1})`);
    const read = () => queryRows<{ n: unknown }>(db, sql`select n from stale_probe where n >= ${0}`);
    for (let use = 0; use < 5; use += 1) expect(await read()).toEqual([{ n: 1 }]);
    // The result type changes: PostgreSQL refuses the cached plan ("cached plan must not change result type").
    await runStatement(db, sql`alter table stale_probe alter column n type bigint`);
    for (let use = 0; use < 8; use += 1) expect(await read()).toEqual([{ n: '1' }]);

    // Inside a transaction the refusal aborts it; the caller's retry works.
    const readInTransaction = () =>
      db.transaction((tx) => queryRows<{ n: unknown }>(tx, sql`select n from stale_probe where n >= ${-1}`));
    for (let use = 0; use < 5; use += 1) await readInTransaction();
    await runStatement(db, sql`alter table stale_probe alter column n type int`);
    const outcomes = await Promise.allSettled(Array.from({ length: 3 }, () => readInTransaction()));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled').length).toBeGreaterThan(0);
    // A transaction that failed failed on the stale statement (0A000 / 26000), not on anything else.
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        expect(describeError(outcome.reason)).toMatch(
          /0A000|26000|cached plan must not change result type|prepared statement .* does not exist/,
        );
    }
    expect(await readInTransaction()).toEqual([{ n: 1 }]);
  });
});
