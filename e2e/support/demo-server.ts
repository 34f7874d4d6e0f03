import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPortSync } from './server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What `npm start -- --demo` printed, read back by the demo spec. */
export interface DemoServer {
  baseUrl: string;
  chainRpcUrl: string;
  /** The banner and log so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** Ends a server the test started and waits until it has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}

/**
 * The built server as `npm start -- --demo` runs it (scripts/start.mjs only builds and passes the
 * arguments on), on a free port and a data directory of its own, with no chain configured: it
 * starts the dev chain itself and seeds the demo. The global setup's server is not used.
 */
export async function startDemoServer(): Promise<DemoServer> {
  const port = freeLoopbackPortSync();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'custos-e2e-demo-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('BSC_') || key.startsWith('TRON_')) delete env[key];
  Object.assign(env, {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DEVCHAIN_PORT: String(freeLoopbackPortSync()),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  });
  delete env.SMTP_URL;
  delete env.TEST_CLOCK_CONTROL;
  const child = spawn(process.execPath, [path.join(repoRoot, 'server', 'dist', 'main.js'), '--demo'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    await stopChild(child);
    // The seed and the deposits must leave a clean ledger: the checker runs on the demo's database.
    const check = spawnSync(process.execPath, [path.join(repoRoot, 'server', 'dist', 'ledger-verify.js')], {
      env: { ...env, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    rmSync(dataDir, { recursive: true, force: true });
    if (check.status !== 0) throw new Error(`ledger check failed on the demo database:\n${check.stdout}${check.stderr}`);
  };
  // A cold start migrates a fresh database, starts the chain and seeds (argon2 for every demo person).
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the demo server exited early:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the demo server did not start in time:\n${output}`);
    }
    const chainRpcUrl = /Dev chain: (\S+)/.exec(output)?.[1];
    if (chainRpcUrl && output.includes('These accounts log in only while the server runs with --demo.')) {
      return { baseUrl: `http://127.0.0.1:${port}`, chainRpcUrl, output: () => output, stop };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `npm run demo:faucet -- <address> <amount> --rpc <url>`, as the banner tells a person to run it. */
export async function runFaucet(address: string, amount: string, rpcUrl: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(repoRoot, 'devchain', 'faucet.mjs'), address, amount, '--rpc', rpcUrl],
    { cwd: repoRoot, timeout: 60_000 },
  );
  return stdout;
}
