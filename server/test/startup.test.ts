import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/test-database.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: NodeJS.ProcessEnv, args: string[] = []): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      STORAGE_DIR: storageDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForOutput(run: Run, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = pattern.exec(run.output());
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${pattern} in output:\n${run.output()}`);
}

let t: TestDatabase | undefined;
let dataDir: string | undefined;
// The demo stores its pictures and documents: in a folder of this test, never beside the source tree
// (on PostgreSQL no data folder is given, and the default storage folder is beside ./data).
let storageDir: string;
beforeAll(async () => {
  storageDir = mkdtempSync(path.join(tmpdir(), 'custos-start-storage-'));
  if (testDatabaseKind() === 'postgres') t = await createTestDatabase({ migrate: false });
  else dataDir = mkdtempSync(path.join(tmpdir(), 'custos-start-'));
});
afterAll(async () => {
  await t?.dispose();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  rmSync(storageDir, { recursive: true, force: true });
});

describe(`server process on ${testDatabaseKind()}`, () => {
  // With --demo it starts the dev chain and seeds the demo people first (argon2 for each): a minute or
  // more on a loaded machine.
  it(
    'starts, migrates, prints the URL and the one-time password, serves, and stops cleanly on SIGTERM',
    { timeout: 240_000 },
    async () => {
      const run = startServer(t?.url ? { DATABASE_URL: t.url } : { DATA_DIR: dataDir }, ['--demo']);
      const [, url] = await waitForOutput(run, /member app:\s+(http:\/\/\S+)\//, 180_000);
      await waitForOutput(run, /One-time password: [A-Za-z2-9]{20}/);
      await waitForOutput(run, /Console \(\S+\): demo \/ demo-operator-pass/);
      await waitForOutput(run, /Dev chain: http:\/\/127\.0\.0\.1:\d+ /);
      const health = await fetch(`${url}/healthz`);
      expect(await health.json()).toMatchObject({ status: 'ok', database: testDatabaseKind() });
      const config = (await (await fetch(`${url}/api/common/config`)).json()) as { data: { customerServiceUrl: string } };
      expect(config.data.customerServiceUrl).not.toBe('');
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    },
  );

  it('exits with one clear line when the database cannot be reached', async () => {
    const run = startServer({ DATABASE_URL: 'postgres://custos:secret@127.0.0.1:1/custos' });
    expect(await run.exited).toBe(1);
    const lines = run.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^custos: cannot reach PostgreSQL at postgres:\/\/custos:\*\*\*@127\.0\.0\.1:1\/custos: /);
  });

  it('exits with one clear line on bad configuration', async () => {
    const run = startServer({ PORT: 'eighty' });
    expect(await run.exited).toBe(1);
    expect(run.output().trim()).toMatch(/^custos: invalid configuration: PORT/);
  });
});
