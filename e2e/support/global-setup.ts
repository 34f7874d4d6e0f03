import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { accountExtendedPublicKey, startDevChain } from '../../devchain/devchain.mjs';
import { startMailCatcher } from '../../server/test/support/mail-catcher';
import { RELEASE_TEST_SIGNING_KEY } from '../../server/test/support/release-test-key';
import { E2E_BASE_URL, E2E_PORT } from './server';
import { freshCode } from './totp';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface RunningServer<T> {
  found: T;
  stop(): Promise<void>;
}

/** Starts the built server and waits until `ready` finds what it needs (in the output, or by asking it). */
async function startServer<T>(
  main: string,
  env: NodeJS.ProcessEnv,
  ready: (output: string) => T | null | Promise<T | null>,
): Promise<RunningServer<T>> {
  const child = spawn(process.execPath, [main], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // A cold start migrates a fresh embedded database; on a loaded two-core machine that took over a
  // minute, so the bound is generous (it only ends a start that hangs).
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${output}`);
    const found = await ready(output);
    if (found) return { found, stop: () => stopChild(child) };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** JSON calls of the global setup, each from an address of its own (the server trusts the loopback proxy). */
async function call<T>(method: string, path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${E2E_BASE_URL}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': SETUP_ADDRESS,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  if (envelope.code !== 200) throw new Error(`${method} ${path}: ${envelope.message}`);
  return envelope.data;
}

const SETUP_ADDRESS = '10.255.255.1';

/**
 * Turns the first operator (the one-time password the server printed) into the super admin whose
 * session the tests use to create operators of their own: new password, authenticator bound, all
 * through the real API. Withdrawals are then opened every day all day (an operator setting), so
 * the tests do not depend on the clock.
 */
async function bootstrapSuperAdmin(oneTimePassword: string): Promise<string> {
  const { token } = await call<{ token: string }>('POST', '/api/admin/auth/login', {
    username: 'admin',
    password: oneTimePassword,
  });
  await call('POST', '/api/admin/auth/password', { oldPassword: oneTimePassword, newPassword: SUPER_ADMIN_PASSWORD }, token);
  const { secret } = await call<{ secret: string }>('POST', '/api/admin/auth/totp/setup', {}, token);
  await call('POST', '/api/admin/auth/totp/bind', { googleCode: await freshCode(secret) }, token);
  const settings = await call<Record<string, unknown>>('GET', '/api/admin/withdraw/settings', undefined, token);
  await call(
    'PUT',
    '/api/admin/withdraw/settings',
    { ...settings, openDays: [1, 2, 3, 4, 5, 6, 7], openTime: '00:00', closeTime: '00:00' },
    token,
  );
  return token;
}

const SUPER_ADMIN_PASSWORD = 'e2e super admin passphrase';

/**
 * Starts a real SMTP server and the built server (API, member app, console) on a fresh embedded
 * database. The tests get the first operator's one-time password and the platform invitation code
 * through the environment, and every received mail as a JSON file in E2E_MAIL_DIR.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const main = path.join(repoRoot, 'server', 'dist', 'main.js');
  for (const built of [
    main,
    path.join(repoRoot, 'web', 'dist', 'index.html'),
    path.join(repoRoot, 'admin', 'dist', 'index.html'),
  ]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first`);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'custos-e2e-'));
  const mailDir = mkdtempSync(path.join(tmpdir(), 'custos-e2e-mail-'));
  const lockDir = mkdtempSync(path.join(tmpdir(), 'custos-e2e-locks-'));
  let mailCount = 0;
  const catcher = await startMailCatcher((mail) => {
    mailCount += 1;
    // Written under another name and renamed, so a test reading the folder never sees half a mail.
    const file = path.join(mailDir, `${String(mailCount).padStart(5, '0')}.json`);
    writeFileSync(`${file}.partial`, JSON.stringify(mail));
    renameSync(`${file}.partial`, file);
  });
  // A real EVM node with a test USDT: deposits and BEP20 payouts run end to end. The hot wallet is a
  // fresh key with gas and USDT of its own.
  const chain = await startDevChain();
  const hotWalletKey = generatePrivateKey();
  await chain.sendNative(privateKeyToAddress(hotWalletKey), 10n ** 19n);
  await chain.mint(privateKeyToAddress(hotWalletKey), 100_000n * 10n ** 18n);
  const env = {
    ...process.env,
    BSC_RPC_URL: chain.rpcUrl,
    BSC_USDT_CONTRACT: chain.tokenAddress,
    BSC_DEPOSIT_XPUB: accountExtendedPublicKey(1),
    BSC_START_BLOCK: '0',
    BSC_HOT_WALLET_KEY: hotWalletKey,
    BSC_POLL_MS: '400',
    HOST: '127.0.0.1',
    PORT: String(E2E_PORT),
    DATA_DIR: dataDir,
    SMTP_URL: catcher.url,
    LOG_LEVEL: 'warn',
    // API-made test members call from addresses of their own through this "proxy" (support/members.ts).
    TRUST_PROXY: '127.0.0.1',
    // earn.spec advances the platform day through POST /api/test/clock (never on a real server).
    TEST_CLOCK_CONTROL: 'true',
    // Hot bundles are signed with the committed test key, which the member app built without a real
    // key trusts in its browser test double only (decision 057); it is accepted here because
    // TEST_CLOCK_CONTROL marks this a test server.
    RELEASE_SIGNING_KEY: RELEASE_TEST_SIGNING_KEY,
    NODE_ENV: 'production',
  };
  // The server creates the first operator and prints its one-time password.
  const server = await startServer(main, env, async (output) => {
    const password = /One-time password: (\S+)/.exec(output)?.[1];
    const code = /Platform invitation code .*: (\S+)/.exec(output)?.[1];
    if (!password || !code) return null;
    const healthy = await fetch(`${E2E_BASE_URL}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    return healthy ? { password, code } : null;
  });
  const { password, code: invitationCode } = server.found;
  process.env.E2E_ADMIN_TOKEN = await bootstrapSuperAdmin(password);
  process.env.E2E_INVITATION_CODE = invitationCode;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_LOCK_DIR = lockDir;
  process.env.E2E_RPC_URL = chain.rpcUrl;
  process.env.E2E_USDT_CONTRACT = chain.tokenAddress;

  return async () => {
    await server.stop();
    // The money tests must leave a clean ledger: run the checker on the database they used.
    const check = spawnSync(process.execPath, [path.join(repoRoot, 'server', 'dist', 'ledger-verify.js')], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    process.stdout.write(check.stdout);
    if (check.status !== 0) throw new Error(`ledger check failed after the end-to-end tests:\n${check.stdout}${check.stderr}`);
    await catcher.close();
    await chain.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(mailDir, { recursive: true, force: true });
    rmSync(lockDir, { recursive: true, force: true });
  };
}
