import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type AppConfig } from './config.js';
import { createServices } from './container.js';
import { DatabaseUnavailableError, openDatabase, redact, type Database } from './db/client.js';
import { seedDemo } from './demo/seed.js';
import { jobHandlers } from './jobs/handlers.js';
import { JobRunner } from './jobs/runner.js';
import { IntervalTask } from './lib/interval-task.js';
import { AdjustableClock } from './lib/adjustable-clock.js';
import { systemClock } from './modules/common/common.service.js';
import { createLogger } from './lib/logger.js';

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
  const demo = process.argv.includes('--demo');
  let config: AppConfig;
  try {
    config = loadConfig({
      WEB_DIST_DIR: path.join(repoRoot, 'web', 'dist'),
      ADMIN_DIST_DIR: path.join(repoRoot, 'admin', 'dist'),
      ...process.env,
    });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  let database: Database;
  try {
    database = await openDatabase(config.database);
    await database.migrate();
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) fail(error.message);
    fail(`database start-up failed (${describeDatabase(config)}): ${error instanceof Error ? error.message : String(error)}`);
  }

  const logger = createLogger(config.logLevel);
  const clock = config.testClockControl ? new AdjustableClock() : systemClock;
  if (clock instanceof AdjustableClock)
    logger.warn('TEST_CLOCK_CONTROL is on: POST /api/test/clock can move this server’s clock');
  const services = createServices(database, config, logger, clock);
  await services.settings.ensureDefaults();
  const firstOperator = await services.operators.ensureFirstOperator();
  if (demo) await seedDemo(services);

  const app = await buildApp({ config, database, services, logger, clock: clock instanceof AdjustableClock ? clock : undefined });
  const jobs = new JobRunner({ database, logger: app.log, timeZone: config.platformTimeZone });
  for (const handler of jobHandlers(services)) jobs.register(handler);
  const payoutTracker = new IntervalTask(
    () => services.withdraw.trackPayouts(),
    config.chains.bsc?.pollMs ?? 5000,
    (error) => app.log.warn({ err: error }, 'withdrawal payout tracking failed'),
  );
  if (config.jobsEnabled) {
    await jobs.start();
    for (const watcher of services.depositWatchers) watcher.start();
    payoutTracker.start();
  }

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
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
});
