import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { hash, type Algorithm } from '@node-rs/argon2';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { accountExtendedPublicKey, startDevChain } from '../../devchain/devchain.mjs';
import { startMailCatcher } from '../../server/test/support/mail-catcher';
import { CHAIN_FINANCE_OPERATOR, CONSOLE_FINANCE_OPERATORS, FINANCE_OPERATORS } from './funding';
import { E2E_BASE_URL, E2E_PORT } from './server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Registers the member whose session the route and client-rule tests use. */
async function registerMember(catcher: Awaited<ReturnType<typeof startMailCatcher>>, invitationCode: string): Promise<string> {
  const email = 'e2e.member@example.com';
  const post = async (path: string, body: object) => {
    const response = await fetch(`${E2E_BASE_URL}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const envelope = (await response.json()) as { code: number; message: string; data: { token?: string } | null };
    if (envelope.code !== 200) throw new Error(`${path}: ${envelope.message}`);
    return envelope.data;
  };
  await post('/api/auth/send_register_code', { email, invitationCode });
  const code = /\b(\d{6})\b/.exec((await catcher.waitFor(email)).subject)?.[1];
  const registered = await post('/api/auth/register', {
    email,
    code,
    invitationCode,
    password: 'e2e-member-password',
    confirmPassword: 'e2e-member-password',
  });
  if (!registered?.token) throw new Error('registration gave no token');
  return registered.token;
}

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
  const deadline = Date.now() + 60_000;
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

/**
 * Finance operators with known passwords, written straight into the stopped server's database, and
 * withdrawals open every day all day (an operator setting), so the tests do not depend on the clock.
 */
async function seedFinanceOperators(dataDir: string): Promise<void> {
  const database = await PGlite.create(dataDir);
  try {
    await database.query(
      `update platform_settings set value = value || '{"openDays": [1, 2, 3, 4, 5, 6, 7], "openTime": "00:00", "closeTime": "00:00"}'::jsonb
       where key = 'withdraw'`,
    );
    for (const operator of [...FINANCE_OPERATORS, ...CONSOLE_FINANCE_OPERATORS, CHAIN_FINANCE_OPERATOR]) {
      const passwordHash = await hash(operator.password, {
        algorithm: 2 as Algorithm,
        memoryCost: 19_456,
        timeCost: 2,
        parallelism: 1,
      });
      await database.query(
        `insert into operators (username, password_hash, role, must_change_password, totp_secret) values ($1, $2, 'finance', false, $3)`,
        [operator.username, passwordHash, operator.totpSecret],
      );
    }
  } finally {
    await database.close();
  }
}

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
  let mailCount = 0;
  const catcher = await startMailCatcher((mail) => {
    mailCount += 1;
    writeFileSync(path.join(mailDir, `${String(mailCount).padStart(5, '0')}.json`), JSON.stringify(mail));
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
    NODE_ENV: 'production',
  };
  // First start: the server creates the first operator and prints its one-time password.
  let server = await startServer(main, env, (output) => {
    const password = /One-time password: (\S+)/.exec(output)?.[1];
    const code = /Platform invitation code .*: (\S+)/.exec(output)?.[1];
    return password && code ? { password, code } : null;
  });
  const { password, code: invitationCode } = server.found;
  // The embedded database belongs to one process: stop, add the finance operators the money tests
  // fund members with (one proposes, the other approves), and start again.
  await server.stop();
  await seedFinanceOperators(dataDir);
  server = await startServer(main, env, async () => {
    const healthy = await fetch(`${E2E_BASE_URL}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    return healthy ? { password, code: invitationCode } : null;
  });
  process.env.E2E_OPERATOR_PASSWORD = password;
  process.env.E2E_INVITATION_CODE = invitationCode;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_RPC_URL = chain.rpcUrl;
  process.env.E2E_USDT_CONTRACT = chain.tokenAddress;
  process.env.E2E_MEMBER_TOKEN = await registerMember(catcher, invitationCode);

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
  };
}
