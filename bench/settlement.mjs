// `npm run bench` (second part): the daily settlement on PostgreSQL — BENCH_ORDERS custody orders
// (1,000,000 by default), BENCH_MACHINES mining machines (100,000) and an AI dividend pool paid for one
// day by the real settlement (`server/dist/settle.js`), beside the time, in the same run and database,
// of plain set-based INSERT … SELECT of the same accrual, output and dividend share rows plus the
// UPDATE of the same orders and machines (the limit). Goal: settlement ≤ 2× the limit.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { benchMembers, startApiServer, transferLoad } from './api.mjs';
import { startCluster } from './cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const orderCount = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const machineCount = Number(process.env.BENCH_MACHINES ?? 100_000);
const ordersPerMember = 100;
const memberCount = Math.ceil(orderCount / ordersPerMember);
// Past days: the settlement runs only days that have ended, in order (decision 017).
const DAY = '2026-01-02';
const NEXT_DAY = '2026-01-03';
const loadSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const loadClients = 8;

const cluster = await startCluster();
process.on('exit', () => cluster.stop());
const admin = new pg.Client({ connectionString: cluster.url('postgres') });
await admin.connect();
await admin.query('create database custos_settle');
await admin.end();
const databaseUrl = cluster.url('custos_settle');
const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' };
const settleJs = path.join(root, 'server', 'dist', 'settle.js');

function settle(day) {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [settleJs, ...(day ? ['--day', day] : [])], { env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) =>
      code === 0
        ? resolve({ ms: performance.now() - startedAt, output: output.trim() })
        : reject(new Error(`settle failed: ${output}`)),
    );
  });
}

function p99(sorted) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))];
}

// Migrations (and an empty day, yesterday's, to time the process start-up alone).
const empty = await settle();
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();

process.stdout.write(`seeding ${memberCount} members with ${ordersPerMember} custody orders each…\n`);
const seedStarted = performance.now();
await db.query(
  `insert into members (email, password_hash) select 'settle-seed-' || g || '@example.com', 'x' from generate_series(1, $1) g`,
  [memberCount],
);
await db.query(
  `insert into accounts (member_id, kind, invite_code, nickname)
   select id, 'main', 'B' || lpad((row_number() over ())::text, 11, '0'), 'bench' from members`,
);
await db.query(
  `insert into hosting_orders (id, member_id, account_id, plan_id, plan_name, amount, period_days, daily_rate, early_penalty_rate, start_date, end_date)
   select gen_random_uuid(), a.member_id, a.id, p.id, p.name, 100 + (g * 7919) % 100000, p.period_days, p.daily_rate, p.early_penalty_rate,
     $1::date - 1, $1::date - 1 + p.period_days
   from accounts a cross join generate_series(1, $2) g cross join (select * from hosting_plans where period_days = 30) p
   limit $3`,
  [DAY, ordersPerMember, orderCount],
);
await db.query(
  `insert into member_machines (id, member_id, account_id, product_id, name, hashrate, daily_output, paid_asset, paid_amount,
     start_date, end_date, client_key, request_hash)
   select gen_random_uuid(), a.member_id, a.id, p.id, p.name, p.hashrate, trunc(p.hashrate * p.daily_output_per_t, 4), 'USDT', p.price_usdt,
     $1::date - 1, $1::date - 1 + p.lifetime_days, 'bench-' || a.id || '-' || g, 'bench'
   from accounts a cross join generate_series(1, 10) g cross join (select * from machine_products order by hashrate limit 1) p
   limit $2`,
  [DAY, machineCount],
);
// The orders' start day (nothing due on it) is settled already, so DAY is the next day in order.
await db.query(`insert into settlement_runs (day, status, finished_at) values ($1::date - 1, 'completed', now())`, [DAY]);
// An AI dividend pool for DAY: shared over every member's custody at the end of DAY (decision 021).
await db.query(`insert into dividend_pools (day, amount) values ($1::date, 100000)`, [DAY]);
await db.query('vacuum analyze');
process.stdout.write(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s\n`);

// The limit: the same accrual rows, order updates and dividend shares as plain set-based SQL, then rolled back.
const due = `start_date < '${DAY}'::date and end_date >= '${DAY}'::date and (redeemed_on is null or redeemed_on > '${DAY}'::date)`;
await db.query('begin');
const limitStarted = performance.now();
const { rows: entry } = await db.query(
  `insert into journal_entries (idempotency_key, kind) values ('bench-limit', 'bench') returning id`,
);
await db.query(
  `insert into hosting_accruals (order_id, day, amount, entry_id)
   select id, '${DAY}'::date, trunc(amount * daily_rate, 4), $1 from hosting_orders where ${due}`,
  [entry[0].id],
);
await db.query(
  `update hosting_orders set days_accrued = days_accrued + 1, interest_total = interest_total + trunc(amount * daily_rate, 4) where ${due}`,
);
const running = `status = 'running' and start_date < '${DAY}'::date and end_date >= '${DAY}'::date`;
await db.query(
  `insert into machine_outputs (machine_id, day, amount, entry_id) select id, '${DAY}'::date, daily_output, $1 from member_machines where ${running}`,
  [entry[0].id],
);
await db.query(
  `update member_machines set days_mined = days_mined + 1, output_total = output_total + daily_output where ${running}`,
);
// The dividend: each account's custody held at the end of DAY, pro rata, in one aggregate.
await db.query(
  `with valid as (
     select account_id, sum(amount) as custody from hosting_orders
     where start_date <= '${DAY}'::date and end_date > '${DAY}'::date and redeemed_on is null
     group by account_id having sum(amount) >= 500
   ), total as (select sum(custody) as custody from valid)
   insert into dividend_allocations (day, account_id, custody, amount)
   select '${DAY}'::date, v.account_id, v.custody, trunc(100000 * v.custody / total.custody, 4) from valid v, total`,
);
const limitMs = performance.now() - limitStarted;
await db.query('rollback');
await db.query('vacuum analyze');

const run = await settle(DAY);
const settleMs = run.ms - empty.ms;
const { rows: check } = await db.query(
  `select (select count(*) from hosting_accruals where day = $1)::int as accrued,
          (select coalesce(sum(amount), 0)::text from hosting_accruals where day = $1) as total,
          (select count(*) from machine_outputs where day = $1)::int as mined,
          (select count(*) from dividend_allocations where day = $1)::int as shares`,
  [DAY],
);
// Transfers through the API while the next day settles, against the same load when idle.
const server = await startApiServer(databaseUrl);
process.on('exit', () => server.stop());
const { api, makeMember } = benchMembers(server.baseUrl, db);
const members = [];
for (let index = 0; index < loadClients; index += 1) members.push(await makeMember(index));
await transferLoad(api, members, new Promise((resolve) => setTimeout(resolve, 1000))); // warm-up (first argon2id checks)
const idle = await transferLoad(api, members, new Promise((resolve) => setTimeout(resolve, loadSeconds * 1000)));
const busySettlement = settle(NEXT_DAY);
const busy = await transferLoad(api, members, busySettlement);
const busyRun = await busySettlement;
server.stop();
await db.end();
const verify = spawnSync(process.execPath, [path.join(root, 'server', 'dist', 'ledger-verify.js')], {
  env: { ...env, LOG_LEVEL: 'silent' },
  encoding: 'utf8',
});

process.stdout.write(
  `\nSettlement benchmark (${orderCount.toLocaleString('en')} custody orders and ${machineCount.toLocaleString('en')} machines, one day, PostgreSQL 15 on this machine)\n`,
);
process.stdout.write('what | seconds\n---|---\n');
process.stdout.write(
  `limit: INSERT … SELECT accruals, outputs and dividend shares + UPDATE orders and machines | ${(limitMs / 1000).toFixed(1)}\n`,
);
process.stdout.write(
  `settlement (process start-up of ${(empty.ms / 1000).toFixed(1)} s taken off) | ${(settleMs / 1000).toFixed(1)}\n`,
);
process.stdout.write(`settlement ÷ limit | ${(settleMs / limitMs).toFixed(2)} (goal ≤ 2)\n`);
process.stdout.write(
  `\ntransfers through the API, ${loadClients} clients | p99 ms | count\n---|---|---\nidle (${loadSeconds} s) | ${p99(idle).toFixed(1)} | ${idle.length}\nduring the next day's settlement (${(busyRun.ms / 1000).toFixed(1)} s) | ${p99(busy).toFixed(1)} | ${busy.length}\np99 during ÷ idle | ${(p99(busy) / p99(idle)).toFixed(2)} (goal ≤ 2) |\n`,
);
process.stdout.write(
  `\n${run.output}\naccrued ${check[0].accrued} orders, ${check[0].total} USDT; ${check[0].mined} machines mined; ${check[0].shares} dividend shares\n`,
);
process.stdout.write(
  `checker: ${verify.stdout.split('\n').find((line) => line.includes('clean') || line.includes('problem')) ?? verify.stderr}\n`,
);
process.exit(
  verify.status === 0 && check[0].accrued === orderCount && check[0].mined === machineCount && check[0].shares === memberCount
    ? 0
    : 1,
);
