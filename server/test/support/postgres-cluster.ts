import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../src/db/client.js';
import { startPostgresCluster } from './start-postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    /** A database migrated once per run; test databases are made from it (`create database … template`). */
    postgresTemplate: string;
  }
}

export const POSTGRES_TEMPLATE = 'custos_template';

/** The server:postgres project's cluster for the whole run, with the migrated template database. */
export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgresCluster();
  try {
    // Migrated once here; nothing connects to it afterwards (a template must have no other sessions).
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query(`create database ${POSTGRES_TEMPLATE}`);
    await admin.end();
    const template = await openPostgres(cluster.adminUrl.replace(/\/postgres$/, `/${POSTGRES_TEMPLATE}`), 2);
    try {
      await template.migrate();
    } finally {
      await template.close();
    }
  } catch (error) {
    cluster.stop();
    throw error;
  }
  project.provide('postgresAdminUrl', cluster.adminUrl);
  project.provide('postgresTemplate', POSTGRES_TEMPLATE);
  return () => cluster.stop();
}
