// `npm run bench`: ledger throughput through the HTTP API with real sessions, beside the raw-SQL
// limit measured with pgbench on the same PostgreSQL in the same run (machines are noisy, so only
// the ratio means something). Not part of `npm test`. Needs `npm run build` and PostgreSQL 15.
//
//   BENCH_SECONDS=10 npm run bench
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { benchMembers, startApiServer } from './api.mjs';
import { asOwner, chownToPostgres, freePort, startCluster } from './cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
// BENCH_PG_STATS=1 prints the statements the API runs issued (pg_stat_statements), busiest first.
const pgStats = process.env.BENCH_PG_STATS === '1';
const concurrencies = (process.env.BENCH_CLIENTS ?? '8,32').split(',').map(Number);
function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

// ── A PostgreSQL 15 cluster with default durability ─────────────────────────────────────────────
const cluster = await startCluster(
  pgStats ? '-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_planning=on' : '',
);
const { base, port: pgPort } = cluster;
const admin = new pg.Client({ connectionString: cluster.url('postgres') });
await admin.connect();
await admin.query('create database custos_bench');
await admin.end();
// BENCH_PG_SOCKET=1: the API, the floor and pgbench all reach PostgreSQL over its Unix socket
// instead of loopback TCP (as a server on the database's own machine may).
const overSocket = process.env.BENCH_PG_SOCKET === '1';
const databaseUrl = overSocket
  ? `postgres://postgres@/custos_bench?host=${encodeURIComponent(base)}&port=${pgPort}`
  : cluster.url('custos_bench');

// ── The built server on it ──────────────────────────────────────────────────────────────────────
// BENCH_SERVER_ARGS passes node flags to the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
const server = await startApiServer(databaseUrl, (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean));
process.on('exit', () => {
  server.stop();
  cluster.stop();
});
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();

const { api, makeMember } = benchMembers(server.baseUrl, db);

const clientCount = Math.max(...concurrencies);
process.stdout.write(`preparing ${clientCount} members…\n`);
const members = [];
for (let index = 0; index < clientCount; index += 1) members.push(await makeMember(index));

// ── API load ────────────────────────────────────────────────────────────────────────────────────
const operations = {
  transfer: (member) => ({
    path: '/api/account/transfer',
    body: {
      toAccountId: member.subId,
      asset: 'USDT',
      amount: '0.0001',
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
    },
  }),
  exchange: (_member) => ({
    path: '/api/exchange/exchange',
    body: {
      direction: 'rab_to_usdt',
      amount: '20',
      quotedPrice: '0.5',
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
    },
  }),
};

/** CPU seconds used so far by the server, by every PostgreSQL process and by this load generator. */
function cpuSeconds() {
  const ticksPerSecond = 100;
  const ticksOf = (pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  };
  // Living backends, plus what the postmaster has reaped of those that ended (a pool closing idle
  // connections would otherwise take their CPU out of the sum).
  let postgresTicks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      postgresTicks += ticksOf(entry);
      if (fields[1] !== undefined && readFileSync(`/proc/${fields[1]}/comm`, 'utf8').trim() !== 'postgres') {
        postgresTicks += Number(fields[13]) + Number(fields[14]);
      }
    } catch {
      // gone meanwhile
    }
  }
  const own = process.cpuUsage();
  return {
    server: ticksOf(server.pid) / ticksPerSecond,
    postgres: postgresTicks / ticksPerSecond,
    client: (own.user + own.system) / 1e6,
  };
}

async function runApi(operation, clients) {
  const latencies = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  // One warm-up call per member (the first trading-password check of a session runs argon2id).
  await Promise.all(
    members
      .slice(0, clients)
      .map((member) => api(operations[operation](member).path, operations[operation](member).body, member.token, member.address)),
  );
  const startedAt = performance.now();
  const cpuBefore = cpuSeconds();
  await Promise.all(
    members.slice(0, clients).map(async (member) => {
      while (performance.now() < deadline) {
        const { path: target, body } = operations[operation](member);
        const begin = performance.now();
        const result = await api(target, body, member.token, member.address);
        latencies.push(performance.now() - begin);
        if (result.code !== 200) failures += 1;
      }
    }),
  );
  const elapsedS = (performance.now() - startedAt) / 1000;
  const cpuAfter = cpuSeconds();
  latencies.sort((a, b) => a - b);
  // CPU milliseconds per operation in each process: on a small machine they share the same cores.
  const cpuMsPerOp = Object.fromEntries(
    Object.keys(cpuAfter).map((key) => [key, ((cpuAfter[key] - cpuBefore[key]) * 1000) / Math.max(1, latencies.length)]),
  );
  return {
    perSecond: latencies.length / elapsedS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures,
    cpuMsPerOp,
  };
}

// ── The raw-SQL limit: the same guarded debit, credit and journal inserts, by pgbench ─────────────
if (pgStats) await db.query('create extension if not exists pg_stat_statements; select pg_stat_statements_reset()');
await db.query('create table bench_pairs (n int primary key, src uuid not null, dst uuid not null)');
for (let index = 0; index < members.length; index += 1) {
  const { rows } = await db.query(
    `select (select id from ledger_accounts where owner_account_id = $1 and asset = 'USDT' and purpose = 'available') as src,
            (select id from ledger_accounts where owner_account_id = $2 and asset = 'USDT' and purpose = 'available') as dst`,
    [members[index].mainId, members[index].subId],
  );
  await db.query('insert into bench_pairs values ($1, $2, $3)', [index, rows[0].src, rows[0].dst]);
}
const script = path.join(base, 'transfer.sql');
writeFileSync(
  script,
  `-- One statement: guarded debit, credit, the entry and its two postings with their balances after.
WITH debit AS (
  UPDATE ledger_accounts SET balance = balance - 0.0001, updated_at = now()
  WHERE id = (SELECT src FROM bench_pairs WHERE n = :client_id) AND balance >= 0.0001 RETURNING id, balance
), credit AS (
  UPDATE ledger_accounts SET balance = balance + 0.0001, updated_at = now()
  WHERE id = (SELECT dst FROM bench_pairs WHERE n = :client_id) RETURNING id, balance
), entry AS (
  INSERT INTO journal_entries (idempotency_key, kind) VALUES ('pgbench:' || gen_random_uuid(), 'transfer') RETURNING id
)
INSERT INTO postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
SELECT entry.id, debit.id, 'USDT', -0.0001, debit.balance, 'transfer_out' FROM entry, debit
UNION ALL
SELECT entry.id, credit.id, 'USDT', 0.0001, credit.balance, 'transfer_in' FROM entry, credit;
`,
);
chownToPostgres(script);
// The same work as a pgbench transaction of separate statements (the form of pgbench's own TPC-B
// script, and of the API's transaction): printed beside, the single statement above stays the limit.
const transactionScript = path.join(base, 'transfer-transaction.sql');
writeFileSync(
  transactionScript,
  `BEGIN;
UPDATE ledger_accounts SET balance = balance - 0.0001, updated_at = now()
  WHERE id = (SELECT src FROM bench_pairs WHERE n = :client_id) AND balance >= 0.0001 RETURNING id AS src_id, balance AS src_balance \\gset
UPDATE ledger_accounts SET balance = balance + 0.0001, updated_at = now()
  WHERE id = (SELECT dst FROM bench_pairs WHERE n = :client_id) RETURNING id AS dst_id, balance AS dst_balance \\gset
INSERT INTO journal_entries (idempotency_key, kind) VALUES ('pgbench-tx:' || gen_random_uuid(), 'transfer') RETURNING id AS entry_id \\gset
INSERT INTO postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
  VALUES (:entry_id, :src_id, 'USDT', -0.0001, :src_balance, 'transfer_out'), (:entry_id, :dst_id, 'USDT', 0.0001, :dst_balance, 'transfer_in');
END;
`,
);
chownToPostgres(transactionScript);

function runPgbench(clients, scriptPath = script) {
  const logDir = mkdtempSync(path.join(base, 'pgbench-'));
  chownToPostgres(logDir);
  const output = asOwner(
    'pgbench',
    [
      '-n',
      '-h',
      overSocket ? base : '127.0.0.1',
      '-p',
      String(pgPort),
      '-U',
      'postgres',
      '-c',
      String(clients),
      '-j',
      '2',
      '-T',
      String(seconds),
      '-M',
      'prepared',
      '-f',
      scriptPath,
      '-l',
      '--log-prefix',
      path.join(logDir, 'log'),
      'custos_bench',
    ],
    { cwd: logDir },
  );
  const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? 0);
  const latencies = [];
  for (const file of readdirSync(logDir)) {
    for (const line of readFileSync(path.join(logDir, file), 'utf8').split('\n')) {
      const micros = Number(line.split(' ')[2]);
      if (Number.isFinite(micros) && line) latencies.push(micros / 1000);
    }
  }
  latencies.sort((a, b) => a - b);
  return { perSecond: tps, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

// ── The HTTP floor: the same statement behind the cheapest possible HTTP server (floor-server.mjs) ──
const floorPort = await freePort();
const floorServer = spawn(process.execPath, [path.join(root, 'bench', 'floor-server.mjs'), databaseUrl, String(floorPort)], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
process.on('exit', () => floorServer.kill('SIGTERM'));
await new Promise((resolve, reject) => {
  floorServer.stdout.on('data', (chunk) => {
    if (String(chunk).includes('floor ready')) resolve();
  });
  floorServer.on('exit', () => reject(new Error('the floor server stopped')));
});
const floor = benchMembers(`http://127.0.0.1:${floorPort}`, db);

async function runFloor(clients) {
  const latencies = [];
  let failures = 0;
  const startedAt = performance.now();
  const deadline = startedAt + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, pair) => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        const result = await floor.api('/', { pair, amount: '0.0001', idempotencyKey: randomUUID() });
        latencies.push(performance.now() - begin);
        if (result.code !== 200) failures += 1;
      }
    }),
  );
  const elapsedS = (performance.now() - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / elapsedS, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures };
}

const rows = [];
const floors = [];
for (const clients of concurrencies) {
  const raw = runPgbench(clients);
  raw.transaction = runPgbench(clients, transactionScript);
  floors.push({ clients, floor: await runFloor(clients), raw });
  for (const operation of ['transfer', 'exchange']) {
    const result = await runApi(operation, clients);
    rows.push({ operation, clients, api: result, raw });
  }
}

if (pgStats) {
  const { rows: statements } = await db.query(
    `select calls, round(total_exec_time::numeric, 1) as ms, round(mean_exec_time::numeric, 3) as mean_ms, round(mean_plan_time::numeric, 3) as plan_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 140) as query
     from pg_stat_statements where query not ilike '%pg_stat_statements%' order by calls desc limit 30`,
  );
  for (const statement of statements)
    process.stdout.write(
      `${statement.calls}\t${statement.ms} ms\t${statement.mean_ms}\t${statement.plan_ms}\t${statement.query}\n`,
    );
}

// The ledger stays clean after all of it, API and pgbench entries alike.
const checker = spawnSync(process.execPath, [path.join(root, 'server', 'dist', 'ledger-verify.js')], {
  env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
  encoding: 'utf8',
});
const checkerLine =
  checker.stdout.split('\n').find((line) => line.includes('clean') || line.includes('problem')) ??
  checker.stderr.split('\n').at(-2) ??
  '';

const fmt = (value, digits = 1) => value.toFixed(digits);
process.stdout.write(`\nLedger benchmark (${seconds} s per run, PostgreSQL 15 on this machine, API = HTTP with real sessions)\n`);
process.stdout.write(
  'operation | clients | API ops/s | API p50 ms | API p99 ms | raw SQL tx/s | raw p99 ms | API ÷ raw | failures\n',
);
process.stdout.write('---|---|---|---|---|---|---|---|---\n');
for (const row of rows) {
  process.stdout.write(
    `${row.operation} | ${row.clients} | ${fmt(row.api.perSecond)} | ${fmt(row.api.p50)} | ${fmt(row.api.p99)} | ${fmt(row.raw.perSecond)} | ${fmt(row.raw.p99)} | ${fmt(row.api.perSecond / row.raw.perSecond, 2)} | ${row.api.failures}\n`,
  );
}
process.stdout.write('\nHTTP floor: the same statement behind a bare node:http server (no sessions, validation or logging)\n');
process.stdout.write('clients | floor ops/s | floor p99 ms | raw SQL tx/s | floor ÷ raw | failures\n');
process.stdout.write('---|---|---|---|---|---\n');
for (const row of floors) {
  process.stdout.write(
    `${row.clients} | ${fmt(row.floor.perSecond)} | ${fmt(row.floor.p99)} | ${fmt(row.raw.perSecond)} | ${fmt(row.floor.perSecond / row.raw.perSecond, 2)} | ${row.floor.failures}\n`,
  );
}
process.stdout.write(
  '\nThe same work as a pgbench transaction of separate statements (BEGIN; debit; credit; entry; postings; END)\n',
);
process.stdout.write('clients | transaction tx/s | p99 ms | transfer API ÷ transaction\n');
process.stdout.write('---|---|---|---\n');
for (const row of rows.filter((item) => item.operation === 'transfer')) {
  const transaction = row.raw.transaction;
  process.stdout.write(
    `${row.clients} | ${fmt(transaction.perSecond)} | ${fmt(transaction.p99)} | ${fmt(row.api.perSecond / transaction.perSecond, 2)}\n`,
  );
}
process.stdout.write('\nCPU ms per API operation (server | PostgreSQL | this load generator), cores shared:\n');
for (const row of rows) {
  const cpu = row.api.cpuMsPerOp;
  process.stdout.write(
    `${row.operation} × ${row.clients}: ${fmt(cpu.server, 2)} | ${fmt(cpu.postgres, 2)} | ${fmt(cpu.client, 2)}\n`,
  );
}
process.stdout.write(`\nchecker after the API runs: ${checkerLine.trim() || '(see above)'}\n`);
await db.end();
process.exit(0);
