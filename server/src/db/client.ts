import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { AppConfig } from '../config.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** The drizzle database both drivers produce; repositories depend on this, never on a driver. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle, usable wherever a `Db` is. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Plain SQL access for libraries that bring their own queries (pg-boss). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number }>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlExecutor;
  /** For pg-boss on PostgreSQL: its own pool from this URL. */
  connectionString: string | undefined;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * LISTEN on `channel` for as long as the returned function is not called. `onNotify` gets each
   * payload, or null after the listening connection was lost and made again (anything sent in
   * between was missed, so the listener should look for itself).
   */
  listen(channel: string, onNotify: (payload: string | null) => void): Promise<() => Promise<void>>;
}

export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** The migrations folder, found from wherever this code runs (source, tests or the bundle). */
export function migrationsFolder(): string {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    const candidate = path.join(directory, 'drizzle');
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    directory = path.dirname(directory);
  }
  throw new Error('migrations folder (drizzle/meta/_journal.json) not found');
}

/** Serialises migrations across server instances starting at once. */
const MIGRATION_LOCK_ID = 7_302_014_001;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The embedded database in `dataDir`, or in memory. `loadDataDir` (in memory only) starts it from a
 * dump of another one's data directory (`dumpDataDir`) instead of a fresh cluster: the tests open a
 * migrated copy per file in a fraction of the time a fresh cluster and its migrations take.
 */
export async function openPglite(dataDir: string | undefined, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  let client: PGlite;
  try {
    client =
      options.loadDataDir && !dataDir
        ? await PGlite.create({ loadDataDir: options.loadDataDir })
        : await PGlite.create(dataDir ?? 'memory://');
  } catch (error) {
    throw new DatabaseUnavailableError(`cannot open the embedded database in ${dataDir ?? 'memory'}: ${describe(error)}`);
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    connectionString: undefined,
    sql: {
      // Parameterless text may hold several statements: run it with the simple protocol, as pg does.
      async executeSql(text, values) {
        if (!values || values.length === 0) {
          const results = await client.exec(text);
          const last = results.at(-1);
          return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
        }
        const result = await client.query(text, values);
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
      },
    },
    async migrate() {
      await migratePglite(drizzlePglite(client), { migrationsFolder: migrationsFolder() });
    },
    async ping() {
      await client.query('select 1');
    },
    async close() {
      if (!client.closed) await client.close();
    },
    async listen(channel, onNotify) {
      // One process holds the embedded database, so its own NOTIFY reaches its own LISTEN.
      const unlisten = await client.listen(channel, (payload) => onNotify(payload));
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
  };
}

export async function openPostgres(
  url: string,
  poolSize: number,
  { genericPlans = false }: { genericPlans?: boolean } = {},
): Promise<Database> {
  // JIT off for the server's sessions (decision 038): its statements are short index lookups whose
  // generic plans can still be estimated above jit_above_cost, and compiling them took 200–300 ms
  // each time (the team members list at a million members), a hundred times the query itself.
  // Generic plans where asked (decision 046): the watcher's walk statement took 2 ms to plan, each
  // time, on every tick, because PostgreSQL kept costing its generic plan above the custom one.
  const options = genericPlans ? '-c jit=off -c plan_cache_mode=force_generic_plan' : '-c jit=off';
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 10_000, options });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(`cannot reach PostgreSQL at ${redact(url)}: ${describe(error)}`);
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    connectionString: url,
    sql: {
      async executeSql(text, values) {
        const result = await pool.query(text, values);
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      },
    },
    async migrate() {
      const lockClient = await pool.connect();
      try {
        await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg(pool), { migrationsFolder: migrationsFolder() });
      } finally {
        await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
        lockClient.release();
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
    listen(channel, onNotify) {
      return listenOnPostgres(url, channel, onNotify);
    },
  };
}

const LISTEN_RETRY_MIN_MS = 500;
const LISTEN_RETRY_MAX_MS = 15_000;

/**
 * LISTEN needs a connection of its own that stays open (a pooled one would be handed to queries).
 * When it drops, it is made again with growing pauses, and the listener is told it may have missed
 * notifications.
 */
async function listenOnPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string | null) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retryMs = LISTEN_RETRY_MIN_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  const quoted = `"${channel.replace(/"/g, '""')}"`;

  const connect = async (reconnecting: boolean): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    next.on('error', () => undefined);
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    next.on('end', () => {
      if (stopped || client !== next) return;
      client = null;
      scheduleRetry();
    });
    await next.connect();
    await next.query(`listen ${quoted}`);
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    retryMs = LISTEN_RETRY_MIN_MS;
    if (reconnecting) onNotify(null);
  };
  const scheduleRetry = () => {
    if (stopped) return;
    retryTimer = setTimeout(() => {
      connect(true).catch(() => scheduleRetry());
    }, retryMs);
    retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
  };

  await connect(false);
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    const current = client;
    client = null;
    await current?.end().catch(() => undefined);
  };
}

/** Hides the password of a connection URL in messages. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured DATABASE_URL';
  }
}

/**
 * `genericPlans`: the pool's sessions run prepared statements on their generic plan, planned once
 * per connection (the contracts watcher's, decision 046; PGlite has one session and ignores it).
 */
export function openDatabase(config: AppConfig['database'], options: { genericPlans?: boolean } = {}): Promise<Database> {
  return config.kind === 'pglite' ? openPglite(config.dataDir) : openPostgres(config.url, config.poolSize, options);
}

// ── Raw statements on PostgreSQL: named (prepared once per connection) ─────────────────────────
// PostgreSQL parses and plans an unnamed statement every time; on the ledger's hot path that took
// longer than running it (decision 012). A text used a few times is sent by name instead, so each
// connection parses it once. Texts with a variable number of values differ, so one-off texts stay
// unnamed and the names are capped: each connection holds at most that many plans.
const NAME_AFTER_USES = 3;
const NAMED_STATEMENTS_MAX = 500;
const COUNTED_TEXTS_MAX = 5_000;
const statementNames = new Map<string, string>();
const usesOfUnnamed = new Map<string, number>();
let namesGiven = 0;

function statementName(text: string): string | undefined {
  const known = statementNames.get(text);
  if (known !== undefined || statementNames.size >= NAMED_STATEMENTS_MAX) return known;
  const uses = (usesOfUnnamed.get(text) ?? 0) + 1;
  if (uses < NAME_AFTER_USES) {
    if (usesOfUnnamed.size >= COUNTED_TEXTS_MAX) usesOfUnnamed.clear();
    usesOfUnnamed.set(text, uses);
    return undefined;
  }
  usesOfUnnamed.delete(text);
  // Never reused: a name dropped below must not come back for another text on a connection that knows it.
  namesGiven += 1;
  const name = `custos_${namesGiven.toString(36)}`;
  statementNames.set(text, name);
  return name;
}

/**
 * A connection's prepared statement can go stale: another server instance migrated a table so the
 * plan's result type changed (0A000), or the statement is gone (26000). The text is given a fresh
 * name, which every connection prepares anew.
 */
function isStalePreparedStatement(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '26000' || (code === '0A000' && typeof message === 'string' && message.includes('cached plan'));
}

// Dates and intervals stay text, exactly as drizzle's own node-postgres queries return them.
const TEXT_TYPE_IDS = new Set<number>([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1115,
  1182,
  1185,
  1187,
  1231,
]);
const asText = (value: string): string => value;
const pgTypes = {
  getTypeParser: (typeId: number): ((value: string) => unknown) =>
    TEXT_TYPE_IDS.has(typeId) ? asText : (pg.types.getTypeParser(typeId) as (value: string) => unknown),
};

interface DrizzleInternals {
  session?: { client?: unknown };
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
}

/** The pg pool or pooled client behind a drizzle handle on PostgreSQL; none on PGlite. */
function pgClientOf(db: Db | Tx): pg.Pool | pg.ClientBase | null {
  const client = (db as unknown as DrizzleInternals).session?.client;
  return client instanceof pg.Pool || client instanceof pg.Client ? client : null;
}

async function runRaw<Row>(db: Db | Tx, query: SQL): Promise<{ rows: Row[]; rowCount: number }> {
  const client = pgClientOf(db);
  if (!client) {
    const result = (await db.execute<Row & Record<string, unknown>>(query)) as {
      rows: Row[];
      rowCount?: number | null;
      affectedRows?: number;
    };
    return { rows: result.rows, rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length };
  }
  const { sql: text, params } = (db as unknown as DrizzleInternals).dialect.sqlToQuery(query);
  const send = (name: string | undefined) =>
    client.query<Row & pg.QueryResultRow>({ name, text, values: params, types: pgTypes });
  const name = statementName(text);
  let result: pg.QueryResult<Row & pg.QueryResultRow>;
  try {
    result = await send(name);
  } catch (error) {
    if (name === undefined || !isStalePreparedStatement(error)) throw error;
    if (statementNames.get(text) === name) statementNames.delete(text);
    // Inside a transaction the failed statement has aborted it: the caller's retry will find the
    // fresh name. Outside one, the same call is simply sent again, unnamed.
    if (!(client instanceof pg.Pool)) throw error;
    result = await send(undefined);
  }
  return { rows: result.rows, rowCount: result.rowCount ?? 0 };
}

/** Rows of a raw SQL statement; both drivers answer `{ rows }`. */
export async function queryRows<Row>(db: Db | Tx, query: SQL): Promise<Row[]> {
  return (await runRaw<Row>(db, query)).rows;
}

/** Runs a raw SQL statement for its effect; answers how many rows it changed. */
export async function runStatement(db: Db | Tx, query: SQL): Promise<number> {
  return (await runRaw(db, query)).rowCount;
}
