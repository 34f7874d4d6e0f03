import { LocalFileStore } from './lib/storage/file-store.js';
import { moveStoredBytesOut } from './lib/storage/move-out.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type AppConfig } from './config.js';
import { createServices } from './container.js';
import { DatabaseUnavailableError, openDatabase, redact, type Database } from './db/client.js';
import { startDemoChain, type DemoChain } from './demo/demo-chain.js';
import { seedDemo, type DemoSummary } from './demo/seed.js';
import { AIRDROP_ARRIVAL_JOB, jobHandlers } from './jobs/handlers.js';
import { JobRunner } from './jobs/runner.js';
import { IntervalTask } from './lib/interval-task.js';
import { ContractsReplay } from './modules/contracts/replay.js';
import { startWatcherThread, type WatcherThread } from './modules/contracts/watcher-thread.js';
import { AdjustableClock } from './lib/adjustable-clock.js';
import { systemClock } from './lib/clock.js';
import { createLogger } from './lib/logger.js';

/** The contracts watcher thread's entry, beside this file (src/*.ts under tsx, dist/*.js bundled). */
const watcherEntry = new URL(`./contracts-watcher${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** Repository root, from src/ (tsx) or dist/ (bundle): both sit two levels below it. */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function fail(message: string): never {
  process.stderr.write(`custos: ${message}\n`);
  process.exit(1);
}

function describeDatabase(config: AppConfig): string {
  return config.database.kind === 'pglite'
    ? `embedded PGlite in ${config.database.dataDir}`
    : `PostgreSQL at ${redact(config.database.url)}`;
}

async function main(): Promise<void> {
  // Only the command line turns the demo on, never the environment: demo accounts have printed credentials.
  const demo = process.argv.includes('--demo');
  // With --demo and no chain configured, a local one runs with the server (decision 019).
  let demoChain: DemoChain | undefined;
  if (demo && !process.env.BSC_RPC_URL) {
    try {
      demoChain = await startDemoChain(repoRoot, process.env);
    } catch (error) {
      fail(`the demo chain did not start: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const env: Record<string, string | undefined> = {
    WEB_DIST_DIR: path.join(repoRoot, 'web', 'dist'),
    ADMIN_DIST_DIR: path.join(repoRoot, 'admin', 'dist'),
    ...process.env,
    ...demoChain?.env,
  };
  let config: AppConfig;
  try {
    config = { ...loadConfig(env), demo };
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  let database: Database;
  try {
    database = await openDatabase(config.database);
    // Bytes a database from before decision 053 still holds go to the file store first (0043 drops them).
    await moveStoredBytesOut(database.sql, new LocalFileStore(config.storage.directory));
    await database.migrate();
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) fail(error.message);
    fail(`database start-up failed (${describeDatabase(config)}): ${error instanceof Error ? error.message : String(error)}`);
  }

  const logger = createLogger(config.logLevel, { pretty: process.stdout.isTTY === true });
  const clock = config.testClockControl ? new AdjustableClock() : systemClock;
  if (clock instanceof AdjustableClock)
    logger.warn('TEST_CLOCK_CONTROL is on: POST /api/test/clock can move this server’s clock');
  const services = createServices(database, config, logger, clock);
  await services.settings.ensureDefaults();
  const firstOperator = await services.operators.ensureFirstOperator();
  // The demo chain is new: its blocks are numbered from 0 again, so the watcher starts over on it.
  if (demoChain) await services.chain.startOverOnNewChain('BEP20');
  let demoSummary: DemoSummary | null = null;
  if (demo) {
    try {
      demoSummary = await seedDemo(services, { demo, webDistDir: config.webDistDir });
    } catch (error) {
      await demoChain?.stop();
      fail(`demo data could not be seeded: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  const app = await buildApp({ config, database, services, logger, clock: clock instanceof AdjustableClock ? clock : undefined });
  const jobs = new JobRunner({ database, logger: app.log, timeZone: config.platformTimeZone });
  for (const handler of jobHandlers(services)) jobs.register(handler);
  // Contracts (decision 034): every instance walks ticks left behind (by a restart, or ticks another
  // instance stored) each second, besides walking its own ticks as they arrive. On PostgreSQL both
  // run on the watcher's own thread (decision 043); the embedded database has one connection, and a
  // test clock is this thread's, so there they run here.
  let watcherThread: WatcherThread | undefined;
  if (config.database.kind === 'postgres' && !(clock instanceof AdjustableClock)) {
    try {
      watcherThread = await startWatcherThread(watcherEntry, env, logger);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
    const thread = watcherThread;
    services.contracts.watcher.useWalker((productIds) => thread.walk(productIds));
  }
  const contractsWatch = new IntervalTask(
    () => services.contracts.watcher.watchAll(),
    1000,
    (error) => app.log.warn({ err: error }, 'contracts watcher sweep failed'),
  );
  const contractsReplay = demo
    ? new ContractsReplay(services.contracts, app.log, {
        loop: true,
        file: path.join(repoRoot, 'server', 'data', 'contract-ticks.csv'),
      })
    : undefined;
  const payoutTracker = new IntervalTask(
    () => services.withdraw.trackPayouts(),
    config.chains.bsc?.pollMs ?? 5000,
    (error) => app.log.warn({ err: error }, 'withdrawal payout tracking failed'),
  );
  if (config.jobsEnabled) {
    await jobs.start();
    services.airdrops.useScheduler(async (delayS) => {
      await jobs.send(AIRDROP_ARRIVAL_JOB, {}, undefined, delayS);
    });
    for (const watcher of services.depositWatchers) watcher.start();
    payoutTracker.start();
    if (!watcherThread) contractsWatch.start();
  }
  // The demo's prices move: recorded ticks replayed in a loop (decision 034).
  await contractsReplay?.start();

  let shuttingDown = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      process.stderr.write('custos: shutdown took too long, exiting\n');
      process.exit(1);
    }, config.shutdownGraceMs + 5_000);
    force.unref();
    try {
      await app.close();
      await Promise.all([...services.depositWatchers.map((watcher) => watcher.stop()), payoutTracker.stop()]);
      await contractsReplay?.stop();
      await contractsWatch.stop();
      await watcherThread?.stop();
      await services.contracts.watcher.stop();
      await demoChain?.stop();
      await jobs.stop(config.shutdownGraceMs);
      await services.mail.flush();
      services.mail.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      process.stderr.write(`custos: error while shutting down: ${String(error)}\n`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    fail(`cannot listen on ${config.host}:${config.port}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const base = `http://${shownHost}:${port}`;
  const lines = [
    '',
    `Custos is running (${describeDatabase(config)}${demo ? ', demo data' : ''})`,
    `  member app:       ${base}/`,
    `  operator console: ${base}/admin/`,
    `  API docs:         ${base}/api/docs`,
    `  e-mail:           ${services.mail.transportKind === 'smtp' ? 'SMTP' : 'not configured (SMTP_URL): mails, codes included, go to this log only (the console outbox masks codes)'}`,
  ];
  if (firstOperator) {
    lines.push(
      '',
      `  First operator account created. Username: ${firstOperator.username}`,
      `  One-time password: ${firstOperator.oneTimePassword}`,
      '  (shown only now; you must change it at first log-in and bind an authenticator app)',
    );
  }
  const { rootInviteCode } = await services.settings.get('registration');
  lines.push('', `  Platform invitation code (members who register with it start a team): ${rootInviteCode}`);
  if (demoSummary) lines.push(...demoBanner(demoSummary, demoChain, base));
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

/** The demo's people and chain, printed at every demo start (decision 019: they only work under --demo). */
function demoBanner(summary: DemoSummary, chain: DemoChain | undefined, base: string): string[] {
  const lines = [
    '',
    '  ── Demo ─────────────────────────────────────────────────────────────────────',
    `  Member app (${base}/): ${summary.member.email} / ${summary.member.password}`,
    `    trading password: ${summary.member.tradePassword}`,
    `    team (invited by the demo member, same passwords): ${summary.team.join(', ')}`,
    `    more of its team, up to three generations down (same passwords): ${summary.teamBelow.join(', ')}`,
    `    OTC traders (real-name approved, same passwords): ${summary.otcTraders.join(', ')}`,
    `    contract trader (open and closed forex contract orders, same passwords): ${summary.contractTrader}`,
    `  Console (${base}/admin/): ${summary.operator.username} / ${summary.operator.password}`,
    `    authenticator code: npm run demo:code   (or add the secret ${summary.operator.totpSecret} to an authenticator app)`,
  ];
  if (chain) {
    lines.push(
      `  Dev chain: ${chain.rpcUrl} (Hardhat, a block a second; TestUSDT at ${chain.tokenAddress})`,
      '    it starts fresh with the server and stops with it',
    );
  }
  if (summary.depositAddress) {
    const rpc = chain && !chain.rpcUrl.endsWith(':8545') ? ` --rpc ${chain.rpcUrl}` : '';
    lines.push(
      `  Demo member's USDT (BEP20) deposit address: ${summary.depositAddress}`,
      `    test USDT to it: npm run demo:faucet -- ${summary.depositAddress} 250${rpc}`,
      '    (credited after the confirmations the deposit screen shows)',
    );
  }
  lines.push('  These accounts log in only while the server runs with --demo.');
  return lines;
}

main().catch((error: unknown) => {
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
});
