import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMailCatcher, codeIn } from '../../server/test/support/mail-catcher';
import { startPostgresCluster, type PostgresCluster } from '../../server/test/support/start-postgres-cluster';
import { stopChild } from './demo-server';
import { freeLoopbackPortSync } from './server';
import { freshCode } from './totp';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One built server of the pair. */
export interface InstanceServer {
  baseUrl: string;
  output(): string;
}

/**
 * Several built servers (`server/dist/main.js`, as `npm start` runs it) on one PostgreSQL cluster of
 * their own, with a real SMTP server for their mails: what "several instances" means in production.
 * Each pair has its own cluster, ports and directories, so parallel runs never meet. The global
 * setup's server is not used.
 */
export interface ServersOnPostgres {
  instances: InstanceServer[];
  /** A super admin (password replaced, authenticator bound); sessions live in the database, so any instance takes it. */
  adminToken: string;
  /** Registers and logs in a member through instance `on`; answers the session token. */
  registerMember(email: string, password: string, on?: number): Promise<string>;
  stop(): Promise<void>;
}

async function call<T>(baseUrl: string, method: string, route: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: {
      'content-type': 'application/json',
      lang: 'EN',
      ...(token ? { authorization: token } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  if (envelope.code !== 200) throw new Error(`${method} ${route}: ${envelope.message}`);
  return envelope.data;
}

export async function startServersOnPostgres(count: number): Promise<ServersOnPostgres> {
  const children: ChildProcess[] = [];
  const directories: string[] = [];
  let cluster: PostgresCluster | undefined;
  const catcher = await startMailCatcher();
  const stop = async () => {
    await Promise.all(children.map(stopChild));
    cluster?.stop();
    await catcher.close();
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  };
  try {
    cluster = await startPostgresCluster();
    const instances: InstanceServer[] = [];
    let oneTimePassword: string | undefined;
    let invitationCode: string | undefined;
    // One after the other: the first migrates the database and creates the first operator.
    for (let index = 0; index < count; index += 1) {
      const port = freeLoopbackPortSync();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'custos-e2e-instance-'));
      directories.push(dataDir);
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const key of Object.keys(env)) if (key.startsWith('BSC_') || key.startsWith('TRON_')) delete env[key];
      delete env.TEST_CLOCK_CONTROL;
      delete env.TRUST_PROXY;
      Object.assign(env, {
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: cluster.adminUrl,
        SMTP_URL: catcher.url,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
      });
      const child = spawn(process.execPath, [path.join(repoRoot, 'server', 'dist', 'main.js')], {
        cwd: repoRoot,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const baseUrl = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 180_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`instance ${index} exited early:\n${output}`);
        if (Date.now() > deadline) throw new Error(`instance ${index} did not start in time:\n${output}`);
        const code = /Platform invitation code .*: (\S+)/.exec(output)?.[1];
        if (code) {
          invitationCode ??= code;
          oneTimePassword ??= /One-time password: (\S+)/.exec(output)?.[1];
          const healthy = await fetch(`${baseUrl}/healthz`).then(
            (response) => response.ok,
            () => false,
          );
          if (healthy) break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      instances.push({ baseUrl, output: () => output });
    }
    if (!oneTimePassword || !invitationCode) throw new Error('the first instance printed no first operator');
    const first = instances[0]!.baseUrl;
    const { token } = await call<{ token: string }>(first, 'POST', '/api/admin/auth/login', {
      username: 'admin',
      password: oneTimePassword,
    });
    const bearer = `Bearer ${token}`;
    await call(
      first,
      'POST',
      '/api/admin/auth/password',
      { oldPassword: oneTimePassword, newPassword: 'instances super admin pass' },
      bearer,
    );
    const { secret } = await call<{ secret: string }>(first, 'POST', '/api/admin/auth/totp/setup', {}, bearer);
    await call(first, 'POST', '/api/admin/auth/totp/bind', { googleCode: await freshCode(secret) }, bearer);
    const code = invitationCode;
    return {
      instances,
      adminToken: token,
      async registerMember(email, password, on = 0) {
        const baseUrl = instances[on]!.baseUrl;
        await call(baseUrl, 'POST', '/api/auth/send_register_code', { email, invitationCode: code });
        const mailed = codeIn(await catcher.waitFor(email));
        const registered = await call<{ token: string }>(baseUrl, 'POST', '/api/auth/register', {
          email,
          code: mailed,
          invitationCode: code,
          password,
          confirmPassword: password,
        });
        return registered.token;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
