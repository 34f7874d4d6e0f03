// `npm run bench`: ledger throughput through the HTTP API with real sessions, beside the raw-SQL
// limit measured with pgbench on the same PostgreSQL in the same run (machines are noisy, so only
// the ratio means something). Not part of `npm test`. Needs `npm run build` and PostgreSQL 15.
//
//   BENCH_SECONDS=10 npm run bench
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
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
const databaseUrl = cluster.url('custos_bench');

// ── The built server on it ──────────────────────────────────────────────────────────────────────
const apiPort = await freePort();
const baseUrl = `http://127.0.0.1:${apiPort}`;
// BENCH_SERVER_ARGS passes node flags to the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
const serverNodeArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const server = spawn(process.execPath, [...serverNodeArgs, path.join(root, 'server', 'dist', 'main.js')], {
  cwd: root,
  env: {
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '40',
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'error',
    NODE_ENV: 'production',
    JOBS_ENABLED: 'false',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const cleanup = () => {
  server.kill('SIGTERM');
  cluster.stop();
};
process.on('exit', cleanup);
for (let attempt = 0; ; attempt += 1) {
  const healthy = await fetch(`${baseUrl}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (healthy) break;
  if (attempt > 300) throw new Error('server did not start');
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();

// Each member calls from its own address, as behind the platform's load balancer (TRUST_PROXY), so
// per-address rate limits see 32 people, not one.
// node:http with a keep-alive agent: global fetch costs the load generator about four times the CPU,
// which on a small machine is taken from the server under test.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function api(pathName, body, token, address = '10.0.0.1') {
  const payload = body ? JSON.stringify(body) : undefined;
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}${pathName}`,
      {
        agent,
        method: body ? 'POST' : 'GET',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': address,
          ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: token } : {}),
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error);
          }
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** A member with a trading password, a sub-account and plenty of USDT and RAB (credited in SQL). */
async function makeMember(index) {
  const email = `bench-${index}@example.com`;
  const address = `10.0.1.${index + 1}`;
  const { rows: settings } = await db.query(`select value from platform_settings where key = 'registration'`);
  const invitationCode = settings[0].value.rootInviteCode;
  await api('/api/auth/send_register_code', { email, invitationCode }, undefined, address);
  let code;
  for (let attempt = 0; !code && attempt < 50; attempt += 1) {
    const { rows } = await db.query('select subject from mail_outbox where recipient = $1 order by created_at desc limit 1', [
      email,
    ]);
    code = /\b(\d{6})\b/.exec(rows[0]?.subject ?? '')?.[1];
    if (!code) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const registered = await api(
    '/api/auth/register',
    { email, code, invitationCode, password: 'bench-password', confirmPassword: 'bench-password' },
    undefined,
    address,
  );
  const token = registered.data.token;
  await api('/api/user/set_trade_password', { password: 'trade-pass-1', confirmPassword: 'trade-pass-1' }, token, address);
  const subId = (await api('/api/account/create_sub', { nickname: 'Sub' }, token, address)).data.id;
  const mainId = (await api('/api/account/list', undefined, token, address)).data.find((a) => a.current).id;
  for (const asset of ['USDT', 'RAB']) {
    await db.query('begin');
    const { rows } = await db.query(
      `insert into journal_entries (idempotency_key, kind) values ($1, 'bench_fund') returning id`,
      [`bench-fund:${mainId}:${asset}`],
    );
    const { rows: accounts } = await db.query(
      `select id from ledger_accounts where (owner_account_id = $1 and asset = $2 and purpose = 'available') or (platform_code = 'adjustments' and asset = $2) order by platform_code nulls first`,
      [mainId, asset],
    );
    await db.query(`update ledger_accounts set balance = balance + 1000000 where id = $1`, [accounts[0].id]);
    await db.query(`update ledger_accounts set balance = balance - 1000000 where id = $1`, [accounts[1].id]);
    await db.query(
      `insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type) values
       ($1, $2, $4, 1000000, 1000000, 'adjustment_credit'), ($1, $3, $4, -1000000, (select balance from ledger_accounts where id = $3), 'adjustment_credit')`,
      [rows[0].id, accounts[0].id, accounts[1].id, asset],
    );
    await db.query('commit');
  }
  return { token, mainId, subId, address };
}

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
  let postgresTicks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') postgresTicks += ticksOf(entry);
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

function runPgbench(clients) {
  const logDir = mkdtempSync(path.join(base, 'pgbench-'));
  chownToPostgres(logDir);
  const output = asOwner(
    'pgbench',
    [
      '-n',
      '-h',
      '127.0.0.1',
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
      script,
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

const rows = [];
for (const clients of concurrencies) {
  const raw = runPgbench(clients);
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
process.stdout.write('\nCPU ms per API operation (server | PostgreSQL | this load generator), cores shared:\n');
for (const row of rows) {
  const cpu = row.api.cpuMsPerOp;
  process.stdout.write(
    `${row.operation} × ${row.clients}: ${fmt(cpu.server, 2)} | ${fmt(cpu.postgres, 2)} | ${fmt(cpu.client, 2)}\n`,
  );
}
process.stdout.write(`\nchecker after the API runs: ${checkerLine.trim() || '(see above)'}\n`);
await db.end();
cleanup();
process.exit(0);
