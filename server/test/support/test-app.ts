import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type AppConfig } from '../../src/config.js';
import { createServices, type Services } from '../../src/container.js';
import { createLogger } from '../../src/lib/logger.js';
import { systemClock, type Clock } from '../../src/lib/clock.js';
import { createSmtpTransport, type MailTransport, type OutgoingMail } from '../../src/modules/mail/mail.transport.js';
import type { ChannelOptions } from '../../src/modules/notifications/member-events.service.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  config: AppConfig;
  testDatabase: TestDatabase;
  /** The clock the services read (authenticator codes are computed against it). */
  clock: Clock;
  /**
   * Every mail as the transport was given it (codes in clear), oldest first: what a member's inbox
   * would hold. The outbox table keeps codes masked, so tests read codes here.
   */
  mailbox: OutgoingMail[];
  close(): Promise<void>;
}

/** The real app on a fresh test database, driven through `app.inject`. */
export async function createTestApp(
  env: NodeJS.ProcessEnv = {},
  options: {
    clock?: Clock;
    /** As `--demo` does on the command line. */ demo?: boolean;
    channelOptions?: Partial<ChannelOptions>;
  } = {},
): Promise<TestApp> {
  const testDatabase = await createTestDatabase();
  const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }), demo: options.demo ?? false };
  const mailbox: OutgoingMail[] = [];
  // What the app would use (SMTP when SMTP_URL is set, else the 'log' kind, whose mails end as
  // 'logged'), keeping a copy of each mail it delivered.
  const inner = config.mail.smtpUrl ? createSmtpTransport(config.mail.smtpUrl, config.mail.from) : undefined;
  const mailTransport: MailTransport = {
    kind: inner ? inner.kind : 'log',
    async send(mail) {
      await inner?.send(mail);
      mailbox.push(mail);
    },
    close() {
      inner?.close();
    },
  };
  const services = createServices(testDatabase.database, config, createLogger('silent'), options.clock, {
    mailTransport,
    ...(options.channelOptions ? { channelOptions: options.channelOptions } : {}),
  });
  await services.settings.ensureDefaults();
  const app = await buildApp({
    config,
    database: testDatabase.database,
    services,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
  });
  await app.ready();
  return {
    app,
    services,
    config,
    testDatabase,
    clock: options.clock ?? systemClock,
    mailbox,
    async close() {
      await services.mail.flush();
      // Every integration test file ends with the ledger checker: any test that broke an invariant fails here.
      const report = await services.ledger.verify();
      if (!report.clean) {
        await app.close();
        await testDatabase.dispose();
        throw new Error(`ledger invariants broken:\n${report.problems.map((p) => `${p.check}: ${p.detail}`).join('\n')}`);
      }
      await app.close();
      await testDatabase.dispose();
    },
  };
}
