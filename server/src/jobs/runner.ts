import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';

/**
 * A named background job. Handlers must be safe to run again (pg-boss retries, and a crash can
 * repeat a job that had already done part of its work).
 */
export interface JobHandler<Data extends object = Record<string, never>> {
  name: string;
  /** Cron (5 fields) in the platform time zone; absent for jobs that are only sent. */
  schedule?: string;
  retryLimit?: number;
  run(data: Data): Promise<void>;
}

export interface JobRunnerOptions {
  database: Database;
  logger: FastifyBaseLogger;
  timeZone: string;
  pollingIntervalS?: number;
}

/** pg-boss on the same database as the data, on PGlite and PostgreSQL alike. */
export class JobRunner {
  private readonly boss: PgBoss;
  private readonly handlers = new Map<string, JobHandler<object>>();
  private started = false;

  constructor(private readonly options: JobRunnerOptions) {
    const { database } = options;
    this.boss =
      database.kind === 'postgres' && database.connectionString
        ? new PgBoss({ connectionString: database.connectionString, schema: 'pgboss', max: 4 })
        : new PgBoss({ db: database.sql, schema: 'pgboss' });
    this.boss.on('error', (error) => options.logger.error({ err: error }, 'job runner error'));
  }

  register<Data extends object>(handler: JobHandler<Data>): this {
    if (this.started) throw new Error('register jobs before start()');
    if (this.handlers.has(handler.name)) throw new Error(`job ${handler.name} registered twice`);
    this.handlers.set(handler.name, handler);
    return this;
  }

  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const handler of this.handlers.values()) {
      await this.boss.createQueue(handler.name, { name: handler.name, retryLimit: handler.retryLimit ?? 3, retryBackoff: true });
      await this.boss.work(handler.name, { pollingIntervalSeconds: this.options.pollingIntervalS ?? 2 }, async (jobs) => {
        for (const job of jobs) {
          const startedAt = Date.now();
          await handler.run(job.data as object);
          this.options.logger.info({ job: handler.name, jobId: job.id, durationMs: Date.now() - startedAt }, 'job done');
        }
      });
      if (handler.schedule) await this.boss.schedule(handler.name, handler.schedule, {}, { tz: this.options.timeZone });
    }
  }

  /**
   * Queues a run now. With `once`, sends with the same key inside the same time slot collapse into
   * one job (null for the repeats); handlers stay idempotent regardless. `startAfterS` delays the run.
   */
  async send(
    name: string,
    data: object = {},
    once?: { key: string; slotS: number },
    startAfterS?: number,
  ): Promise<string | null> {
    if (!this.handlers.has(name)) throw new Error(`unknown job ${name}`);
    return this.boss.send(name, data, {
      ...(once ? { singletonKey: once.key, singletonSeconds: once.slotS } : {}),
      ...(startAfterS ? { startAfter: startAfterS } : {}),
    });
  }

  /** Waits for running jobs to finish (up to the grace period), then stops polling. */
  async stop(graceMs: number): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: Math.max(graceMs, 1000) });
  }

  /** For tests and the console: how many jobs of a queue are in each state. */
  async countJobs(name: string): Promise<{ created: number; completed: number; failed: number }> {
    const rows = (
      await this.options.database.sql.executeSql(
        `select state::text as state, count(*)::int as n from pgboss.job where name = $1 group by state`,
        [name],
      )
    ).rows as { state: string; n: number }[];
    const byState = Object.fromEntries(rows.map((row) => [row.state, Number(row.n)]));
    return { created: byState.created ?? 0, completed: byState.completed ?? 0, failed: byState.failed ?? 0 };
  }
}
