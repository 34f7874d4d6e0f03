// A throw-away PostgreSQL 15 cluster for the benchmarks (default durability), owned by the
// `postgres` user when run as root (initdb refuses root).
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const isRoot = process.getuid?.() === 0;

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function asOwner(command, args, options = {}) {
  const [file, fileArgs] = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const result = spawnSync(file, fileArgs, { encoding: 'utf8', ...options });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

/** Gives a path to the cluster's owner, so pgbench and the server can read and write it. */
export function chownToPostgres(target) {
  if (!isRoot) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(target, uid, gid);
}

/**
 * Starts a cluster on a free loopback port; `extraOptions` go to postgres (`-c name=value …`). With
 * `keepIn`, the cluster lives in that folder and outlives the run (`existed` says whether a cluster was
 * already there to start again), so a long seed is paid once.
 */
export async function startCluster(extraOptions = '', { keepIn } = {}) {
  const base = keepIn ?? mkdtempSync(path.join(tmpdir(), 'custos-bench-'));
  mkdirSync(base, { recursive: true });
  chownToPostgres(base);
  const dataDir = path.join(base, 'data');
  const port = await freePort();
  const existed = existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!existed) asOwner('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8']);
  asOwner('pg_ctl', [
    '-D',
    dataDir,
    '-l',
    path.join(base, 'server.log'),
    '-o',
    `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c max_connections=200 ${extraOptions}`,
    '-w',
    'start',
  ]);
  return {
    base,
    port,
    existed,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop() {
      try {
        asOwner('pg_ctl', ['-D', dataDir, '-m', 'fast', 'stop']);
      } catch {
        // already stopped
      }
      if (!keepIn) rmSync(base, { recursive: true, force: true });
    },
  };
}
