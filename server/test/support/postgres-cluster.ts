import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    /** A database migrated once per run; test databases are made from it (`create database … template`). */
    postgresTemplate: string;
  }
}

export const POSTGRES_TEMPLATE = 'custos_template';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** initdb refuses to run as root, so as root the cluster belongs to the postgres user. */
function runAsClusterOwner(command: string, args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  const [file, fileArgs] = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const result = spawnSync(file, fileArgs, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
}

/**
 * A throwaway PostgreSQL 15 cluster on a free loopback port for the whole run, made with the
 * machine's initdb/pg_ctl and removed afterwards.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const base = mkdtempSync(path.join(tmpdir(), 'custos-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(base, uid, gid);
  }
  const dataDir = path.join(base, 'data');
  const port = await freePort();
  runAsClusterOwner('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
  runAsClusterOwner('pg_ctl', [
    '-D',
    dataDir,
    '-l',
    path.join(base, 'server.log'),
    '-o',
    `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
    '-w',
    'start',
  ]);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  // Migrated once here; nothing connects to it afterwards (a template must have no other sessions).
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${POSTGRES_TEMPLATE}`);
  await admin.end();
  const template = await openPostgres(adminUrl.replace(/\/postgres$/, `/${POSTGRES_TEMPLATE}`), 2);
  try {
    await template.migrate();
  } finally {
    await template.close();
  }
  project.provide('postgresAdminUrl', adminUrl);
  project.provide('postgresTemplate', POSTGRES_TEMPLATE);
  return () => {
    try {
      runAsClusterOwner('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  };
}
