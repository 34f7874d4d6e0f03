import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

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

export interface PostgresCluster {
  /** The `postgres` superuser's URL of the cluster's `postgres` database. */
  adminUrl: string;
  stop(): void;
}

/**
 * A throwaway PostgreSQL 15 cluster on a free loopback port, made with the machine's initdb/pg_ctl
 * in a directory of its own (so several can run side by side), removed by `stop()`.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
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
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        runAsClusterOwner('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
}
