// `npm run bench` (team part, decision 020): a referral tree of BENCH_TEAM_MEMBERS members (chains up
// to BENCH_TEAM_MAX_DEPTH deep) on PostgreSQL 15, then
//  - the team page (/api/user/team_info) and members list (/api/user/team) through the real API, 8
//    clients, for members at several depths: p99 (goal ≤ 20 ms);
//  - the module's full recompute of team figures (TeamRepository.differences()) beside a recursive
//    CTE over the same tree computing the same sums, in the same run (goal ≤ 1×).
// The tree is written with the team triggers disabled, set-based (generate_series), and the team
// tables are then filled by the module's own backfill (the statements of server/drizzle/0025_team.sql),
// so they hold exactly what the migration builds; the recompute then must find no difference.
//
//   BENCH_TEAM_MEMBERS=100000 BENCH_TEAM_SECONDS=5 node bench/team.mjs
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import pg from 'pg';
import { startApiServer } from './api.mjs';
import { startCluster } from './cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const memberCount = Number(process.env.BENCH_TEAM_MEMBERS ?? 200_000);
const maxDepth = Number(process.env.BENCH_TEAM_MAX_DEPTH ?? 500);
// Depths below the spine follow 1 + (maxDepth − 1)·U^k: mostly shallow, a long thin tail; k = 9
// gives a mean depth of about 50 (the closure table holds one row per member and ancestor).
const depthSkew = Number(process.env.BENCH_TEAM_DEPTH_SKEW ?? 9);
const secondsPerCase = Number(process.env.BENCH_TEAM_SECONDS ?? 5);
const clients = 8;
const probeDepths = [0, 1, 10, 50, 100, 250, maxDepth - 1];

function p99(sorted) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))];
}
const seconds = (ms) => (ms / 1000).toFixed(1);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const loadAtStart = load();

const cluster = await startCluster();
process.on('exit', () => cluster.stop());
const admin = new pg.Client({ connectionString: cluster.url('postgres') });
await admin.connect();
await admin.query('create database custos_team');
await admin.end();
const databaseUrl = cluster.url('custos_team');

// Migrations: the settlement process migrates, then finds no day to run.
await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, [path.join(root, 'server', 'dist', 'settle.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migration failed (${code})`))));
});
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();

// ── The tree ─────────────────────────────────────────────────────────────────────────────────────
process.stdout.write(`seeding ${memberCount.toLocaleString('en')} members, chains up to ${maxDepth} deep…\n`);
const seedStarted = performance.now();
await db.query('select setseed(0.2026)');
// Members 1…maxDepth form a spine (member g at depth g − 1), so every depth exists; every other
// member gets a random depth and a parent picked among the members one level up. Accounts join in
// order of depth, so every inviter joined before its members.
await db.query(
  `create unlogged table bench_plan as
   select g, case when g <= $2 then g - 1 else 1 + floor(($2 - 1) * power(random(), $3))::int end as depth,
     gen_random_uuid() as member_id, gen_random_uuid() as account_id
   from generate_series(1, $1) g`,
  [memberCount, maxDepth, depthSkew],
);
await db.query(
  `create unlogged table bench_ranked as
   select g, depth, member_id, account_id, row_number() over (partition by depth order by g) as rn,
     count(*) over (partition by depth) as per_depth, row_number() over (order by depth, g) as joined
   from bench_plan`,
);
await db.query('create index on bench_ranked (depth, rn)');
await db.query(
  `create unlogged table bench_tree as
   select r.g, r.depth, r.member_id, r.account_id, r.joined, p.account_id as inviter_account_id
   from bench_ranked r
   left join (select distinct depth, per_depth from bench_ranked) up on up.depth = r.depth - 1
   left join bench_ranked p on p.depth = r.depth - 1 and p.rn = 1 + (r.g::bigint * 2654435761) % up.per_depth`,
);
await db.query('alter table accounts disable trigger team_account_joined');
await db.query('alter table hosting_orders disable trigger team_orders_inserted');
await db.query(
  `insert into members (id, email, password_hash, created_at)
   select member_id, 'team-' || g || '@example.com', 'x', timestamptz '2026-01-01' + joined * interval '1 ms' from bench_tree`,
);
await db.query(
  `insert into accounts (id, member_id, kind, inviter_account_id, invite_code, nickname, created_at)
   select account_id, member_id, 'main', inviter_account_id, 'T' || lpad(g::text, 11, '0'), 'member ' || g,
     timestamptz '2026-01-01' + joined * interval '1 ms'
   from bench_tree order by joined`,
);
// Own custody: every third member holds one active 30-day order (about half of them ≥ 500 USDT, valid).
await db.query(
  `insert into hosting_orders (id, member_id, account_id, plan_id, plan_name, amount, period_days, daily_rate, early_penalty_rate, start_date, end_date)
   select gen_random_uuid(), t.member_id, t.account_id, p.id, p.name, 100 + (t.g * 7919) % 900, p.period_days, p.daily_rate,
     p.early_penalty_rate, date '2026-01-01' + (t.g % 20), date '2026-01-01' + (t.g % 20) + p.period_days
   from bench_tree t cross join (select * from hosting_plans where period_days = 30 limit 1) p where t.g % 3 = 0`,
);
const seedMs = performance.now() - seedStarted;

// The module's own backfill, as the migration runs it on existing accounts.
const migration = readFileSync(path.join(root, 'server', 'drizzle', '0025_team.sql'), 'utf8');
const backfill = migration
  .slice(migration.indexOf('-- Backfill'), migration.indexOf('-- The default level table'))
  .split('--> statement-breakpoint')
  .map((statement) => statement.trim())
  .filter(Boolean);
const backfillStarted = performance.now();
await db.query('truncate team_closure, team_performance_days, team_nodes restart identity');
for (const statement of backfill) await db.query(statement);
const backfillMs = performance.now() - backfillStarted;
await db.query('alter table accounts enable trigger team_account_joined');
await db.query('alter table hosting_orders enable trigger team_orders_inserted');
await db.query('drop table bench_plan, bench_ranked');
await db.query('vacuum analyze');
const { rows: shape } = await db.query(
  `select (select count(*) from team_nodes)::int as nodes, (select count(*) from team_closure)::bigint::text as closure,
     (select max(depth) from team_nodes)::int as max_depth, (select round(avg(depth), 1) from team_nodes)::text as mean_depth,
     pg_size_pretty(pg_total_relation_size('team_closure')) as closure_size`,
);
process.stdout.write(
  `seeded in ${seconds(seedMs)} s, backfill ${seconds(backfillMs)} s: ${shape[0].nodes} nodes, ${shape[0].closure} closure rows (${shape[0].closure_size}), depth max ${shape[0].max_depth}, mean ${shape[0].mean_depth}\n`,
);

// ── Recompute (the module's code) beside a recursive CTE of the same sums ────────────────────────
const bundle = path.join(root, 'server', 'dist', 'bench-team.mjs');
await build({
  stdin: {
    contents: `export { TeamRepository } from './src/modules/team/team.repository.ts';
               export { openPostgres } from './src/db/client.ts';`,
    resolveDir: path.join(root, 'server'),
    loader: 'ts',
  },
  outfile: bundle,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  alias: { '@custos/contract': '../packages/contract/src/index.ts' },
  logLevel: 'warning',
});
const { TeamRepository, openPostgres } = await import(pathToFileURL(bundle).href);
const database = await openPostgres(databaseUrl, 2);
const repository = new TeamRepository(database.db);
const recomputeStarted = performance.now();
const differences = await repository.differences();
const recomputeMs = performance.now() - recomputeStarted;
await database.close();
const cteStarted = performance.now();
const { rows: cte } = await db.query(
  `with recursive up (seq, ancestor_seq, depth) as (
     select seq, inviter_seq, 1 from team_nodes where inviter_seq is not null
     union all
     select up.seq, n.inviter_seq, up.depth + 1 from up join team_nodes n on n.seq = up.ancestor_seq where n.inviter_seq is not null
   ), own as (
     select n.seq, coalesce(sum(o.amount) filter (where o.status = 'active'), 0) as own_custody
     from team_nodes n left join hosting_orders o on o.account_id = n.account_id group by n.seq
   ), team as (
     select up.ancestor_seq as seq, sum(own.own_custody) as performance, count(*) filter (where up.depth = 1) as direct,
       count(*) as team, count(*) filter (where up.depth = 1 and own.own_custody >= 500) as valid_direct,
       count(*) filter (where own.own_custody >= 500) as valid_team
     from up join own on own.seq = up.seq group by up.ancestor_seq
   )
   select count(*)::int as nodes, sum(performance)::text as performance, sum(team)::bigint::text as team from team`,
);
const cteMs = performance.now() - cteStarted;

// ── The team page and members list through the API ───────────────────────────────────────────────
// The member with the largest team at each probed depth; its session is written as the server writes
// one (the token's SHA-256), since logging a thousand members in would only time argon2.
const { rows: probes } = await db.query(
  `select distinct on (n.depth) n.depth, n.team_count, a.member_id, a.id as account_id
   from team_nodes n join accounts a on a.id = n.account_id where n.depth = any($1) order by n.depth, n.team_count desc`,
  [probeDepths],
);
for (const probe of probes) {
  probe.token = randomBytes(32).toString('base64url');
  await db.query(
    `insert into member_sessions (member_id, account_id, token_hash, idle_expires_at, absolute_expires_at)
     values ($1, $2, $3, now() + interval '1 day', now() + interval '1 day')`,
    [probe.member_id, probe.account_id, createHash('sha256').update(probe.token, 'utf8').digest('hex')],
  );
}
const server = await startApiServer(databaseUrl);
process.on('exit', () => server.stop());
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function get(pathName, token, address) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${server.baseUrl}${pathName}`,
      { agent, headers: { authorization: token, 'x-forwarded-for': address } },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}
async function measure(pathName, token) {
  const latencies = [];
  let failures = 0;
  let sample;
  const until = performance.now() + secondsPerCase * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_unused, index) => {
      while (performance.now() < until) {
        const begin = performance.now();
        const body = await get(pathName, token, `10.0.2.${index + 1}`);
        latencies.push(performance.now() - begin);
        if (body.code !== 200) failures += 1;
        sample = body;
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), failures, sample };
}
const cases = [
  ['team page', '/api/user/team_info'],
  ['members list (all generations, page 1)', '/api/user/team?scope=all&page=1&pageSize=20'],
  ['members list (direct, page 1)', '/api/user/team?scope=direct&page=1&pageSize=20'],
];
for (const [, pathName] of cases) await measure(pathName, probes[probes.length - 1].token); // warm-up
const results = [];
for (const probe of probes) {
  for (const [name, pathName] of cases) {
    const result = await measure(pathName, probe.token);
    results.push({ probe, name, ...result });
  }
}
server.stop();
await db.end();

process.stdout.write(
  `\nTeam benchmark (${shape[0].nodes.toLocaleString('en')} members, closure table ${Number(shape[0].closure).toLocaleString('en')} rows / ${shape[0].closure_size}, depth max ${shape[0].max_depth} mean ${shape[0].mean_depth}; PostgreSQL 15 on this machine; load average ${loadAtStart} at start, ${load()} at end)\n`,
);
process.stdout.write(`seed (set-based, triggers off) ${seconds(seedMs)} s; the migration's backfill ${seconds(backfillMs)} s\n`);
process.stdout.write(
  `\nthrough the API, ${clients} clients, ${secondsPerCase} s each | member depth | team size | p99 ms | requests | failures\n---|---|---|---|---|---\n`,
);
for (const result of results) {
  process.stdout.write(
    `${result.name} | ${result.probe.depth} | ${result.probe.team_count} | ${p99(result.latencies).toFixed(1)} | ${result.latencies.length} | ${result.failures}\n`,
  );
}
const worst = Math.max(...results.map((result) => p99(result.latencies)));
process.stdout.write(`worst p99 | | | ${worst.toFixed(1)} (goal ≤ 20) | |\n`);
process.stdout.write(`\nwhat | seconds\n---|---\n`);
process.stdout.write(
  `limit: recursive CTE over the tree, the same sums (${cte[0].nodes} nodes with a team) | ${seconds(cteMs)}\n`,
);
process.stdout.write(
  `recompute of team figures (TeamRepository.differences(), ${differences.length} differences) | ${seconds(recomputeMs)}\n`,
);
process.stdout.write(`recompute ÷ limit | ${(recomputeMs / cteMs).toFixed(2)} (goal ≤ 1)\n`);
process.stdout.write(
  `the day's team earnings step beside set-based SQL | not built yet (issue 12's earnings are not implemented)\n`,
);
process.exit(differences.length === 0 && results.every((result) => result.failures === 0) ? 0 : 1);
