import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { migrationsFolder } from '../../src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
  }
}

/**
 * Once per run: a fresh embedded database, migrated, its data directory dumped to a file. Each test
 * file then starts its database from the dump (well under a second) instead of a fresh cluster and
 * every migration (several seconds on this machine): the migrations themselves are still run here,
 * from the same folder, on every run.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const directory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '.tmp');
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `pglite-template-${process.pid}.tar`);
  const client = await PGlite.create('memory://');
  try {
    await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
    const dump = await client.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
  project.provide('pgliteTemplatePath', file);
  return () => rmSync(file, { force: true });
}
