import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database } from '../../src/db/client.js';

export type TestDatabaseKind = 'pglite' | 'postgres';

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
}

export interface TestDatabase {
  database: Database;
  /** Connection URL of this test's own database (PostgreSQL only). */
  url: string | undefined;
  dispose(): Promise<void>;
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database in the
 * run's PostgreSQL cluster that is dropped afterwards. With `migrate: false` it is empty.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  // A migrated database starts from the run's migrated template (support/pglite-template.ts,
  // support/postgres-cluster.ts); one that is to be migrated by the test starts empty.
  if (testDatabaseKind() === 'pglite') {
    const database = migrate
      ? await openPglite(undefined, { loadDataDir: new Blob([readFileSync(inject('pgliteTemplatePath'))]) })
      : await openPglite(undefined);
    return { database, url: undefined, dispose: () => database.close() };
  }
  const adminUrl = inject('postgresAdminUrl');
  const name = `custos_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(
    adminUrl,
    migrate ? `create database ${name} template ${inject('postgresTemplate')}` : `create database ${name}`,
  );
  const url = adminUrl.replace(/\/postgres$/, `/${name}`);
  const database = await openPostgres(url, 10);
  return {
    database,
    url,
    async dispose() {
      await database.close();
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
