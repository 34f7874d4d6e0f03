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
//
// A million members take about 45 minutes to seed here. BENCH_TEAM_DIR=/var/tmp/custos-team keeps the
// seeded cluster in that folder; a later run with the same folder starts it again and skips the seed.
// BENCH_TEAM_PHASES (default recompute,earnings,api) picks what is measured; the earnings step writes
// its day's rows, so it runs only on a fresh seed.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
const keepIn = process.env.BENCH_TEAM_DIR ? path.resolve(process.env.BENCH_TEAM_DIR) : undefined;
const phases = new Set((process.env.BENCH_TEAM_PHASES ?? 'recompute,earnings,api').split(',').map((phase) => phase.trim()));

function p99(sorted) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))];
}
const seconds = (ms) => (ms / 1000).toFixed(1);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const loadAtStart = load();

const cluster = await startCluster('', { keepIn });
process.on('exit', () => cluster.stop());
const seededMarker = keepIn ? path.join(keepIn, 'seeded') : null;
const reused = cluster.existed && seededMarker !== null && existsSync(seededMarker);
if (cluster.existed && !reused) throw new Error(`${keepIn} holds a cluster whose seed did not finish: remove the folder`);
if (reused && phases.has('earnings')) {
  process.stdout.write('the earnings step needs a fresh seed (it writes its day): skipped on a kept cluster\n');
  phases.delete('earnings');
}
const databaseUrl = cluster.url('custos_team');
let seedMs = Number.NaN;
let backfillMs = Number.NaN;
if (!reused) {
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  await admin.query('create database custos_team');
  await admin.end();

  // Migrations: the settlement process migrates, then finds no day to run.
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'server', 'dist', 'settle.js')], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migration failed (${code})`))));
  });
}
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();

if (!reused) {
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
   select gen_random_uuid(), t.member_id, t.account_id, p.id, p.name, 100 + (t.g::bigint * 7919) % 900, p.period_days, p.daily_rate,
     p.early_penalty_rate, date '2026-01-01' + (t.g % 20), date '2026-01-01' + (t.g % 20) + p.period_days
   from bench_tree t cross join (select * from hosting_plans where period_days = 30 limit 1) p where t.g % 3 = 0`,
  );
  seedMs = performance.now() - seedStarted;

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
  backfillMs = performance.now() - backfillStarted;
  await db.query('alter table accounts enable trigger team_account_joined');
  await db.query('alter table hosting_orders enable trigger team_orders_inserted');
  await db.query('drop table bench_plan, bench_ranked');
  await db.query('vacuum analyze');
  if (seededMarker) writeFileSync(seededMarker, `${memberCount} members, ${maxDepth} deep, seeded ${new Date().toISOString()}\n`);
} else {
  process.stdout.write(`started the kept cluster in ${keepIn} (${readFileSync(seededMarker, 'utf8').trim()})\n`);
}
const { rows: shape } = await db.query(
  `select (select count(*) from team_nodes)::int as nodes, (select count(*) from team_closure)::bigint::text as closure,
     (select max(depth) from team_nodes)::int as max_depth, (select round(avg(depth), 1) from team_nodes)::text as mean_depth,
     pg_size_pretty(pg_total_relation_size('team_closure')) as closure_size`,
);
process.stdout.write(
  `${reused ? 'kept' : `seeded in ${seconds(seedMs)} s, backfill ${seconds(backfillMs)} s`}: ${shape[0].nodes} nodes, ${shape[0].closure} closure rows (${shape[0].closure_size}), depth max ${shape[0].max_depth}, mean ${shape[0].mean_depth}\n`,
);

// ── Recompute (the module's code) beside a recursive CTE of the same sums ────────────────────────
const bundle = path.join(root, 'server', 'dist', 'bench-team.mjs');
await build({
  stdin: {
    contents: `export { TeamRepository } from './src/modules/team/team.repository.ts';
               export { TeamEarningsRepository } from './src/modules/team-earnings/team-earnings.repository.ts';
               export { HostingRepository } from './src/modules/hosting/hosting.repository.ts';
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
const { TeamRepository, TeamEarningsRepository, HostingRepository, openPostgres } = await import(pathToFileURL(bundle).href);
let differences = [];
let recomputeMs = Number.NaN;
let cteMs = Number.NaN;
let cte = [{ nodes: 0 }];
if (phases.has('recompute')) {
  const database = await openPostgres(databaseUrl, 2);
  const repository = new TeamRepository(database.db);
  const recomputeStarted = performance.now();
  differences = await repository.differences();
  recomputeMs = performance.now() - recomputeStarted;
  await database.close();
  const cteStarted = performance.now();
  const { rows: cteRows } = await db.query(
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
  cteMs = performance.now() - cteStarted;
  cte = cteRows;
}

// ── The day's team earnings (decision 024) beside set-based SQL of the same sums ─────────────────
// Day EARN_DAY: every order started before it earns its interest (written as the custody step writes
// hosting_accruals); the orders starting on it are the day's new performance. The module's step runs
// the repository's statements in one transaction with the seeded level table; the limit is one
// read-only statement computing the same levels and the same sums per type.
let earnMs = Number.NaN;
let limitEarnMs = Number.NaN;
let earnSame = true;
let earnSums = { step: [], limit: [] };
if (phases.has('earnings')) {
  const EARN_DAY = '2026-01-20';
  const { rows: benchEntry } = await db.query(
    `insert into journal_entries (idempotency_key, kind) values ('bench-team-accruals', 'bench') returning id`,
  );
  await db.query(
    `insert into hosting_accruals (order_id, day, amount, entry_id)
   select id, $1::date, trunc(amount * daily_rate, 4), $2 from hosting_orders where start_date < $1::date and end_date >= $1::date`,
    [EARN_DAY, benchEntry[0].id],
  );
  await db.query('analyze hosting_accruals');
  const { rows: versionRows } = await db.query(
    `select id from team_level_versions where effective_from <= $1::date order by effective_from desc limit 1`,
    [EARN_DAY],
  );
  const versionId = versionRows[0].id;
  // The seeded table pays nothing at V0 and asks 3 valid direct members and 10,000 of performance for
  // V1; the bench's table pays at V0 too (direct, indirect, community) and opens V1 to more members, so
  // every type has many earners.
  await db.query(
    `update team_levels set direct_rate_pct = 5, indirect_rate_pct = 2, indirect_generations = 3, community_rate_pct = 0.5
   where version_id = $1 and level = 0`,
    [versionId],
  );
  await db.query(
    `update team_levels set min_own_custody = 100, min_valid_direct = 1, min_team_performance = 1000, dividend_rate_pct = 1
   where version_id = $1 and level = 1`,
    [versionId],
  );
  const earningsDatabase = await openPostgres(databaseUrl, 2);
  const earningsRepository = new TeamEarningsRepository(earningsDatabase.db);
  const hostingRepository = new HostingRepository(earningsDatabase.db);
  const earnStarted = performance.now();
  await earningsDatabase.db.transaction(async (tx) => {
    await earningsRepository.claimDay(tx, EARN_DAY, versionId, 1);
    await earningsRepository.insertDayLevels(tx, EARN_DAY, versionId, hostingRepository.custodyAtDayEnd(EARN_DAY, '0'), '500');
    await earningsRepository.insertItems(tx, EARN_DAY, versionId);
    await earningsRepository.insertPromotions(tx, EARN_DAY, versionId);
    await earningsRepository.insertLevelDividend(tx, EARN_DAY, versionId);
    await earningsRepository.insertEarnings(tx, EARN_DAY, '2026-01-21');
  });
  earnMs = performance.now() - earnStarted;
  await earningsDatabase.close();
  const { rows: stepSums } = await db.query(
    `select type, count(*)::int as members, sum(amount)::text as total from team_earnings where day = $1::date group by type order by type`,
    [EARN_DAY],
  );
  const limitStarted = performance.now();
  const { rows: limitSums } = await db.query(
    `with custody as (
     select o.account_id, sum(o.amount) as custody from hosting_orders o
     where o.start_date <= $1::date and o.end_date > $1::date and (o.redeemed_on is null or o.redeemed_on > $1::date) group by o.account_id
   ), person as (
     select n.seq, n.inviter_seq, sum(c.custody) as own from custody c join accounts a on a.id = c.account_id
       join team_nodes n on n.account_id = coalesce(a.main_account_id, a.id) group by n.seq, n.inviter_seq
   ), perf as (
     select cl.ancestor_seq as seq, sum(p.own) as perf from person p join team_closure cl on cl.descendant_seq = p.seq group by cl.ancestor_seq
   ), vdir as (
     select inviter_seq as seq, count(*)::int as n from person where own >= 500 and inviter_seq is not null group by inviter_seq
   ), fig as (
     select s.seq, n.inviter_seq, coalesce(p.own, 0) as own, coalesce(v.n, 0) as dir, coalesce(f.perf, 0) as perf
     from (select seq from person union select seq from perf) s join team_nodes n on n.seq = s.seq
       left join person p on p.seq = s.seq left join vdir v on v.seq = s.seq left join perf f on f.seq = s.seq
   ), rules as (
     select l.level, l.min_own_custody as own, l.min_valid_direct as dir, l.min_team_performance as perf,
       case when g.level is null then 0 else l.min_legs end as legs, coalesce(g.min_own_custody, 0) as leg_own,
       coalesce(g.min_valid_direct, 0) as leg_dir, coalesce(g.min_team_performance, 0) as leg_perf,
       l.direct_rate_pct, l.indirect_rate_pct, l.indirect_generations, l.community_rate_pct, l.management_rate_pct,
       l.dividend_rate_pct, l.promotion_bonus
     from team_levels l left join team_levels g on g.version_id = l.version_id and g.level = l.legs_level and l.min_legs > 0
     where l.version_id = $2::uuid
   ), legs as (
     select c.inviter_seq as seq, r.level, count(*)::int as n from fig c
       join rules r on r.legs > 0 and c.own >= r.leg_own and c.dir >= r.leg_dir and c.perf >= r.leg_perf
     where c.inviter_seq is not null group by c.inviter_seq, r.level
   ), lv as (
     select f.seq, max(r.level) as level from fig f join rules r on f.own >= r.own and f.dir >= r.dir and f.perf >= r.perf
       left join legs g on g.seq = f.seq and g.level = r.level where r.legs = 0 or coalesce(g.n, 0) >= r.legs group by f.seq
   ), st as (
     select n.seq, sum(x.amount) as s from hosting_accruals x join hosting_orders o on o.id = x.order_id
       join accounts a on a.id = o.account_id join team_nodes n on n.account_id = coalesce(a.main_account_id, a.id)
     where x.day = $1::date group by n.seq
   ), up as (
     select st.seq as src, st.s, c.ancestor_seq, c.depth, r.*,
       max(r.management_rate_pct) filter (where r.management_rate_pct > 0) over (partition by st.seq order by c.depth
         rows between unbounded preceding and 1 preceding) as below
     from st join team_closure c on c.descendant_seq = st.seq left join lv on lv.seq = c.ancestor_seq
       join rules r on r.level = coalesce(lv.level, 0)
   ), pools as (
     select r.level, trunc((select sum(s) from st) * r.dividend_rate_pct / 100, 4) as pool,
       (select count(*) from lv where lv.level >= r.level) as n
     from rules r where r.level >= 1 and r.dividend_rate_pct > 0
   ), amounts as (
     select 'direct' as type, up.ancestor_seq as seq, trunc(up.s * up.direct_rate_pct / 100, 4) as amount from up where up.depth = 1
     union all
     select 'indirect', up.ancestor_seq, trunc(up.s * up.indirect_rate_pct / 100, 4) from up
       where up.depth between 2 and 1 + up.indirect_generations
     union all
     select 'management', up.ancestor_seq, trunc(up.s * (up.management_rate_pct - coalesce(up.below, 0)) / 100, 4) from up
       where up.management_rate_pct > coalesce(up.below, 0)
     union all
     select 'community', d.account_seq, trunc(d.opened * r.community_rate_pct / 100, 4) from team_performance_days d
       left join lv on lv.seq = d.account_seq join rules r on r.level = coalesce(lv.level, 0) where d.day = $1::date
     union all
     select 'promotion', lv.seq, r.promotion_bonus from lv join rules r on r.level between 1 and lv.level
     union all
     select 'level_dividend', lv.seq, trunc(p.pool / p.n, 4) from pools p join lv on lv.level >= p.level where p.n > 0
   )
   select type, count(distinct seq)::int as members, sum(amount)::text as total from amounts where amount > 0 group by type order by type`,
    [EARN_DAY, versionId],
  );
  limitEarnMs = performance.now() - limitStarted;
  earnSame = JSON.stringify(stepSums) === JSON.stringify(limitSums);
  earnSums = { step: stepSums, limit: limitSums };
}

// ── The team page and members list through the API ───────────────────────────────────────────────
// The member with the largest team at each probed depth; its session is written as the server writes
// one (the token's SHA-256), since logging a thousand members in would only time argon2.
const results = [];
if (phases.has('api')) {
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
  const server = await startApiServer(databaseUrl, (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean));
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
  // Warm-up: each case as the top member asks it (full pages), so the figures are the steady state's,
  // not the new server's first seconds (V8 still compiling the paths that list rows, the pool's
  // connections being opened and preparing their statements): warmed on a leaf's empty lists only,
  // the first cases measured ran about twice as slow as the same cases later in the run.
  for (const [, pathName] of cases) await measure(pathName, probes[0].token);
  for (const probe of probes) {
    for (const [name, pathName] of cases) {
      const result = await measure(pathName, probe.token);
      results.push({ probe, name, ...result });
    }
  }
  server.stop();
}
await db.end();

process.stdout.write(
  `\nTeam benchmark (${shape[0].nodes.toLocaleString('en')} members, closure table ${Number(shape[0].closure).toLocaleString('en')} rows / ${shape[0].closure_size}, depth max ${shape[0].max_depth} mean ${shape[0].mean_depth}; PostgreSQL 15 on this machine; load average ${loadAtStart} at start, ${load()} at end)\n`,
);
process.stdout.write(
  reused
    ? `a kept cluster (${keepIn}): no seed this run\n`
    : `seed (set-based, triggers off) ${seconds(seedMs)} s; the migration's backfill ${seconds(backfillMs)} s\n`,
);
if (results.length > 0) {
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
}
process.stdout.write(`\nwhat | seconds\n---|---\n`);
if (phases.has('recompute')) {
  process.stdout.write(
    `limit: recursive CTE over the tree, the same sums (${cte[0].nodes} nodes with a team) | ${seconds(cteMs)}\n`,
  );
  process.stdout.write(
    `recompute of team figures (TeamRepository.differences(), ${differences.length} differences) | ${seconds(recomputeMs)}\n`,
  );
  process.stdout.write(`recompute ÷ limit | ${(recomputeMs / cteMs).toFixed(2)} (goal ≤ 1)\n`);
}
if (phases.has('earnings')) {
  process.stdout.write(
    `limit: one set-based statement, the day's team earnings sums (${earnSums.limit.map((row) => `${row.type} ${row.total} to ${row.members}`).join(', ')}) | ${seconds(limitEarnMs)}\n`,
  );
  process.stdout.write(
    `the day's team earnings step (levels, items, promotions, level dividend, to-arrive rows; ${earnSame ? 'the same sums' : `DIFFERENT sums: ${JSON.stringify(earnSums.step)}`}) | ${seconds(earnMs)}\n`,
  );
  process.stdout.write(`team earnings step ÷ limit | ${(earnMs / limitEarnMs).toFixed(2)} (goal ≤ 2)\n`);
}
process.exit(differences.length === 0 && earnSame && results.every((result) => result.failures === 0) ? 0 : 1);
