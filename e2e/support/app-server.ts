import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from './demo-server';
import { freeLoopbackPortSync } from './server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A server of a test's own, serving its own copy of the member app's build, which the test may redeploy. */
export interface AppServer {
  baseUrl: string;
  /** The member app's files this server sends (a copy of web/dist, changed at will by the test). */
  webDistDir: string;
  stop(): Promise<void>;
}

/**
 * The built server on a free port, a fresh embedded database and a copy of web/dist, with no chain
 * and no mail: for a test that deploys a new version of the member app under a running server
 * (the global setup's server keeps serving the real build to every other test).
 */
export async function startAppServer(): Promise<AppServer> {
  const port = freeLoopbackPortSync();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'custos-e2e-app-'));
  const webDistDir = path.join(dataDir, 'web-dist');
  cpSync(path.join(repoRoot, 'web', 'dist'), webDistDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('BSC_') || key.startsWith('TRON_')) delete env[key];
  delete env.SMTP_URL;
  delete env.TEST_CLOCK_CONTROL;
  Object.assign(env, {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: path.join(dataDir, 'data'),
    WEB_DIST_DIR: webDistDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  });
  const child = spawn(process.execPath, [path.join(repoRoot, 'server', 'dist', 'main.js')], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  // A cold start migrates a fresh database; the bound only ends a start that hangs.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app server exited early:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the app server did not start in time:\n${output}`);
    }
    const healthy = await fetch(`${baseUrl}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { baseUrl, webDistDir, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
