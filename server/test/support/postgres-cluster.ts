import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './start-postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

/** The server:postgres project's cluster, for the whole run. */
export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgresCluster();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return () => cluster.stop();
}
