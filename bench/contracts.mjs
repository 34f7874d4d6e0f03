// `npm run bench` (contracts part, decision 034): BENCH_CONTRACTS_ORDERS open contract orders (10,000)
// across 5 forex products, each with a take-profit and a stop-loss somewhere in the range the prices
// will sweep, held by BENCH_CONTRACTS_MEMBERS members (500), on one built server instance on
// PostgreSQL 15; then a tick stream of BENCH_CONTRACTS_TICKS_PER_S (200) bid/ask ticks a second through
// the console's manual-quote call for BENCH_CONTRACTS_SECONDS (30), while BENCH_CONTRACTS_OPENERS (8)
// members keep opening orders.
//  - tick-to-trigger p99: from a tick's arrival at the server (its stored observation time) to the
//    close of an order its price reached (the order's close time), both on the server's clock
//    (goal ≤ 100 ms);
//  - opening p99 while the ticks run, against the same members' opening p99 measured in the same run
//    before the stream (the limit on this machine), as a ratio.
//
//  - second by second: the closes and the slowest trigger (where a tail comes from).
// BENCH_CONTRACTS_PATH picks the price path (`climb`, the default, or `spike`, below). Diagnosis:
// BENCH_PG_OPTIONS goes to postgres (e.g. `-c shared_preload_libraries=pg_stat_statements`), and with
// BENCH_PG_STATEMENTS=1 the run ends with the statements that took the database longest in the stream.
//
//   npm run build -w server && BENCH_CONTRACTS_ORDERS=1000 BENCH_CONTRACTS_SECONDS=5 node bench/contracts.mjs
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startApiServer } from './api.mjs';
import { startCluster } from './cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const orderCount = Number(process.env.BENCH_CONTRACTS_ORDERS ?? 10_000);
const memberCount = Number(process.env.BENCH_CONTRACTS_MEMBERS ?? Math.max(1, Math.ceil(orderCount / 20)));
const ticksPerS = Number(process.env.BENCH_CONTRACTS_TICKS_PER_S ?? 200);
const seconds = Number(process.env.BENCH_CONTRACTS_SECONDS ?? 30);
const openers = Number(process.env.BENCH_CONTRACTS_OPENERS ?? 8);
const AMPLITUDE_POINTS = 200;
// The price path of each product, in points from its base, by the product's tick number:
//  - `climb` (the default): a steady rise across the run to AMPLITUDE + 10 points, so each order's
//    take-profit (buys) or stop-loss (sells) is reached at a steady pace: the whole book in the run;
//  - `spike`: a sine of ±AMPLITUDE points with a period of 600 ticks (15 s at 200 ticks/s), whose
//    first quarter reaches every order's target: the whole book closes within about 4 s.
const pathName = process.env.BENCH_CONTRACTS_PATH ?? 'climb';
const stepsPerProduct = Math.max(1, Math.floor((seconds * ticksPerS) / 5));
const pricePath =
  pathName === 'spike'
    ? (step) => AMPLITUDE_POINTS * Math.sin((2 * Math.PI * step) / 600)
    : (step) => ((AMPLITUDE_POINTS + 10) * Math.min(step, stepsPerProduct)) / stepsPerProduct;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const loadAtStart = load();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The five products: a base price in points of their digits. */
const PRODUCTS = [
  { symbol: 'EUR/USD', digits: 5, base: 108_500, size: '100000' },
  { symbol: 'GBP/USD', digits: 5, base: 126_500, size: '100000' },
  { symbol: 'USD/JPY', digits: 3, base: 150_120, size: '100000' },
  { symbol: 'XAU/USD', digits: 2, base: 267_120, size: '100' },
  { symbol: 'AUD/USD', digits: 5, base: 65_500, size: '100000' },
];
const priceOf = (points, digits) => {
  const text = String(points).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
};

// Commit times of rows: when a close's settlement committed (decision 046).
const cluster = await startCluster(`-c track_commit_timestamp=on ${process.env.BENCH_PG_OPTIONS ?? ''}`);
process.on('exit', () => cluster.stop());
const admin = new pg.Client({ connectionString: cluster.url('postgres') });
await admin.connect();
await admin.query('create database custos_contracts');
await admin.end();
const databaseUrl = process.env.BENCH_PG_SOCKET
  ? `postgres://postgres@/custos_contracts?host=${encodeURIComponent(cluster.base)}&port=${cluster.port}`
  : cluster.url('custos_contracts');
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
if (process.env.BENCH_PG_STATEMENTS) await db.query('create extension if not exists pg_stat_statements');

// Members, sessions and 100,000 USDT each in SQL (one balanced entry): registering them would only time argon2.
const { rows: members } = await db.query(
  `with m as (
     insert into members (email, password_hash) select 'contracts-' || g || '@example.com', 'x' from generate_series(1, $1) g returning id
   )
   insert into accounts (member_id, kind, invite_code, nickname)
   select id, 'main', 'K' || lpad((row_number() over ())::text, 11, '0'), 'fx' from m returning member_id, id as account_id`,
  [memberCount],
);
for (const member of members) member.token = randomBytes(32).toString('base64url');
await db.query(
  `insert into member_sessions (member_id, account_id, token_hash, idle_expires_at, absolute_expires_at)
   select *, now() + interval '1 day', now() + interval '1 day' from unnest($1::uuid[], $2::uuid[], $3::text[])`,
  [
    members.map((member) => member.member_id),
    members.map((member) => member.account_id),
    members.map((member) => sha256(member.token)),
  ],
);
await db.query('begin');
await db.query(
  `with e as (insert into journal_entries (idempotency_key, kind) values ('bench-contracts-fund', 'bench_fund') returning id),
   m as (update ledger_accounts set balance = balance + 100000
         where owner_account_id = any($1::uuid[]) and asset = 'USDT' and purpose = 'available' returning id, balance),
   p as (insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
         select e.id, m.id, 'USDT', 100000, m.balance, 'adjustment_credit' from e, m),
   a as (update ledger_accounts set balance = balance - 100000 * $2::numeric
         where platform_code = 'adjustments' and asset = 'USDT' returning id, balance)
   insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
   select e.id, a.id, 'USDT', -100000 * $2::numeric, a.balance, 'adjustment_credit' from e, a`,
  [members.map((member) => member.account_id), memberCount],
);
await db.query('commit');
// An operator session for the manual-quote calls (the tick stream), as a logged-in finance operator has.
const operatorToken = randomBytes(32).toString('base64url');
await db.query(
  `with o as (insert into operators (username, password_hash, role, must_change_password, totp_secret)
              values ('bench-quotes', 'x', 'super_admin', false, 'BENCHBENCHBENCHBENCH') returning id)
   insert into operator_sessions (operator_id, token_hash, expires_at) select id, $1, now() + interval '1 day' from o`,
  [sha256(operatorToken)],
);
const sessions = JSON.stringify([0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, open: '00:00', close: '24:00' })));
for (const [index, product] of PRODUCTS.entries()) {
  const { rows } = await db.query(
    `insert into market_products (symbol, display_name, sort_order, source) values ($1, $1, $2, 'manual') returning id`,
    [product.symbol, 100 + index],
  );
  product.id = rows[0].id;
  await db.query(
    `insert into contract_products (product_id, digits, contract_size, leverages, min_lots, lot_step, max_lots, sessions)
     values ($1, $2, $3, '{100}', 0.01, 0.01, 50, $4::jsonb)`,
    [product.id, product.digits, product.size, sessions],
  );
  await db.query(`insert into contract_watch (product_id) values ($1)`, [product.id]);
}
// Room for 20+ open orders per member and a stale limit the stream never reaches.
await db.query(
  `insert into platform_settings (key, value) values ('contracts', $1::jsonb)
   on conflict (key) do update set value = excluded.value`,
  [
    JSON.stringify({
      enabled: true,
      stopOutLevelPct: '50',
      marginCallLevelPct: '100',
      priceStaleAfterS: 600,
      maxOpenOrders: 1000,
    }),
  ],
);

const server = await startApiServer(databaseUrl, (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean));
process.on('exit', () => server.stop());
const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
function call(pathName, body, headers) {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${server.baseUrl}${pathName}`,
      {
        agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
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
const quote = (product, points) =>
  call(
    `/api/admin/contracts/products/${product.id}/quote`,
    { bid: priceOf(points, product.digits), ask: priceOf(points + 10, product.digits) },
    { authorization: `Bearer ${operatorToken}`, 'x-forwarded-for': '10.9.0.1' },
  );
const memberHeaders = (index) => ({
  authorization: members[index].token,
  'x-forwarded-for': `10.${1 + (index >> 16)}.${(index >> 8) & 255}.${index & 255}`,
});
for (const product of PRODUCTS) {
  const answer = await quote(product, product.base);
  if (answer.code !== 200) throw new Error(`first quote: ${JSON.stringify(answer)}`);
}

/** Opens one order for member `index`; answers its latency (ms) or throws on a refusal. */
async function openOne(index, body) {
  const begin = performance.now();
  const answer = await call('/api/contracts/open', { idempotencyKey: randomUUID(), ...body }, memberHeaders(index));
  const ms = performance.now() - begin;
  if (answer.code !== 200) throw new Error(`open: ${JSON.stringify(answer)}`);
  return ms;
}

// ── The book: orders with targets spread over the sweep (±AMPLITUDE points around each base) ──
process.stdout.write(`opening ${orderCount.toLocaleString('en')} orders for ${memberCount} members…\n`);
const idleLatencies = [];
let nextOrder = 0;
const seedStarted = performance.now();
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (nextOrder < orderCount) {
      const n = nextOrder;
      nextOrder += 1;
      const product = PRODUCTS[n % PRODUCTS.length];
      const side = n % 2 === 0 ? 'buy' : 'sell';
      const distance = 10 + ((n * 7919) % (AMPLITUDE_POINTS - 20));
      // Buys close at bid (base), sells at ask (base + 10): targets on the right side of those.
      const close = side === 'buy' ? product.base : product.base + 10;
      const takeProfit = side === 'buy' ? close + distance : close - distance;
      const stopLoss = side === 'buy' ? close - distance - 5 : close + distance + 5;
      idleLatencies.push(
        await openOne(n % memberCount, {
          productId: product.id,
          side,
          lots: '0.01',
          leverage: 100,
          takeProfit: priceOf(takeProfit, product.digits),
          stopLoss: priceOf(stopLoss, product.digits),
        }),
      );
    }
  }),
);
const seedMs = performance.now() - seedStarted;

/**
 * Sends ticks at `ticksPerS` from `startedAt` (performance.now()) until `isDone()`, product after
 * product, each at `pointsOf(product, step)`; answers when every call has answered.
 */
async function streamTicks(startedAt, isDone, pointsOf, onAnswer) {
  const inFlight = new Set();
  for (let n = 0; !isDone(); n += 1) {
    const wait = startedAt + n * (1000 / ticksPerS) - performance.now();
    if (wait > 1) await sleep(wait);
    const product = PRODUCTS[n % PRODUCTS.length];
    const begin = performance.now();
    const sent = quote(product, pointsOf(product, Math.floor(n / PRODUCTS.length))).then(
      (answer) => onAnswer(answer.code === 200, performance.now() - begin),
      () => onAnswer(false, 0),
    );
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  }
  await Promise.all(inFlight);
}

// ── Warm-up: the server's and the watcher thread's code compiled on ticks that close orders of their
// own, as on a server that has been running. WARM_UP_ORDERS take-profits 1–8 points from the base, a
// ±9-point swing for WARM_UP_S: it reaches all of them and none of the book's (10 points or more away).
const WARM_UP_S = Number(process.env.BENCH_CONTRACTS_WARM_UP_S ?? 5);
const warmUpOrders = WARM_UP_S > 0 ? PRODUCTS.length * 80 : 0;
for (let n = 0; n < warmUpOrders; n += 1) {
  const product = PRODUCTS[n % PRODUCTS.length];
  const side = n % 2 === 0 ? 'buy' : 'sell';
  const w = 1 + (n % 8);
  await openOne(n % memberCount, {
    productId: product.id,
    side,
    lots: '0.01',
    leverage: 100,
    takeProfit: priceOf(side === 'buy' ? product.base + w : product.base + 10 - w, product.digits),
  });
}
if (WARM_UP_S > 0) {
  const warmUpStarted = performance.now();
  let warmUpErrors = 0;
  await streamTicks(
    warmUpStarted,
    () => performance.now() - warmUpStarted > WARM_UP_S * 1000,
    (product, step) => product.base + Math.round(9 * Math.sin((2 * Math.PI * step) / 40)),
    (accepted) => (warmUpErrors += accepted ? 0 : 1),
  );
  if (warmUpErrors > 0) throw new Error(`warm-up: ${warmUpErrors} ticks refused`);
  // Back at the base, the book's starting price, before the stream.
  for (const product of PRODUCTS) await quote(product, product.base);
  await sleep(500);
}
// As pgbench does before a run: the tables the book and the warm-up just filled are vacuumed and
// analysed, as autovacuum would have done on a server that has been running (its statistics are
// the planner's, and the watcher's plans are generic: decision 046), so it does not start mid-stream.
await db.query('vacuum analyze');

// ── The run: the tick stream and the openers at once ──
const tickLatencies = [];
let ticksSent = 0;
let tickErrors = 0;
const runLatencies = [];
let stop = false;
if (process.env.BENCH_PG_STATEMENTS) await db.query('select pg_stat_statements_reset()');
const runStarted = performance.now();
const runStartedAt = new Date();
const ticker = streamTicks(
  runStarted,
  () => stop,
  (product, step) => {
    ticksSent += 1;
    return product.base + Math.round(pricePath(step) + 3 * Math.sin(step));
  },
  (accepted, ms) => {
    if (accepted) tickLatencies.push(ms);
    else tickErrors += 1;
  },
);
const openersDone = Promise.all(
  Array.from({ length: openers }, async (_, opener) => {
    const index = opener % memberCount;
    const product = PRODUCTS[opener % PRODUCTS.length];
    while (!stop)
      runLatencies.push(
        await openOne(index, { productId: product.id, side: opener % 2 === 0 ? 'buy' : 'sell', lots: '0.01', leverage: 100 }),
      );
  }),
);
await sleep(seconds * 1000);
stop = true;
await Promise.all([ticker, openersDone]);
const runMs = performance.now() - runStarted;
// The watcher finishes what the stream brought (its lag at the end is reported).
const walkWaitStarted = performance.now();
for (;;) {
  const { rows } = await db.query(
    `select count(*)::int as behind from contract_watch w where exists (select 1 from contract_ticks t where t.product_id = w.product_id and t.id > w.watched_tick_id)
       or exists (select 1 from contract_settlements_due)`,
  );
  if (rows[0].behind === 0 || performance.now() - walkWaitStarted > 60_000) break;
  await sleep(100);
}
const walkLagMs = performance.now() - walkWaitStarted;
const { rows: triggered } = await db.query(
  `select extract(epoch from (o.closed_at - t.observed_at)) * 1000 as ms
   from contract_orders o join contract_ticks t on t.id = o.close_tick_id
   where o.close_reason in ('take_profit', 'stop_loss') and t.observed_at >= $1`,
  [runStartedAt],
);
const triggerMs = triggered.map((row) => Number(row.ms)).sort((a, b) => a - b);
// From the close to the commit of its settlement (the balances and the member's event, decision 046).
const { rows: settledRows } = await db.query(
  `select extract(epoch from (pg_xact_commit_timestamp(o.xmin) - o.closed_at)) * 1000 as ms
   from contract_orders o join contract_ticks t on t.id = o.close_tick_id
   where o.close_reason in ('take_profit', 'stop_loss') and t.observed_at >= $1 and not exists (select 1 from contract_settlements_due d where d.order_id = o.id)`,
  [runStartedAt],
);
const settleMs = settledRows.map((row) => Number(row.ms)).sort((a, b) => a - b);
// Second by second of the stream: closes and the slowest trigger (where the tail comes from).
const { rows: bySecond } = await db.query(
  `select floor(extract(epoch from (t.observed_at - first.at)))::int as second, count(*)::int as closes,
     max(extract(epoch from (o.closed_at - t.observed_at)) * 1000)::int as max_ms
   from contract_orders o join contract_ticks t on t.id = o.close_tick_id,
     (select $1::timestamptz as at) first
   where o.close_reason in ('take_profit', 'stop_loss') and t.observed_at >= first.at group by 1 order by 1`,
  [runStartedAt],
);
if (process.env.BENCH_PG_STATEMENTS) {
  const { rows: top } = await db.query(
    `select calls, round(total_exec_time)::int as total_ms, round(mean_exec_time::numeric, 2) as mean_ms, round(max_exec_time::numeric,1) as max_ms, round(total_plan_time)::int as plan_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as q from pg_stat_statements order by total_exec_time desc limit 25`,
  );
  for (const row of top)
    process.stdout.write(`${row.calls}\t${row.total_ms}\t${row.mean_ms}\t${row.max_ms}\t${row.plan_ms}\t${row.q}\n`);
}
const { rows: counts } = await db.query(
  `select count(*) filter (where state = 'open')::int as open, count(*) filter (where state = 'closed')::int as closed from contract_orders`,
);
await db.end();
// The server's last sweeps finish before the checker runs and the cluster stops.
await server.stop();
const checker = spawnSync(process.execPath, [path.join(root, 'server', 'dist', 'ledger-verify.js')], {
  env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  encoding: 'utf8',
});

idleLatencies.sort((a, b) => a - b);
runLatencies.sort((a, b) => a - b);
tickLatencies.sort((a, b) => a - b);
const idleP99 = percentile(idleLatencies, 99);
const runP99 = percentile(runLatencies, 99);
process.stdout.write(
  `\nContracts benchmark (${orderCount.toLocaleString('en')} orders with targets across ${PRODUCTS.length} products, ${memberCount} members, ${ticksPerS} ticks/s for ${seconds} s on the ${pathName} path, ${openers} openers; PostgreSQL 15 on this machine; load average ${loadAtStart} at start, ${load()} at end)\n`,
);
process.stdout.write('what | figure\n---|---\n');
process.stdout.write(
  `book opened by 16 clients before the stream | ${(seedMs / 1000).toFixed(1)} s (${Math.round(orderCount / (seedMs / 1000))} opens/s), open p50 / p99 ${percentile(idleLatencies, 50).toFixed(1)} / ${idleP99.toFixed(1)} ms\n`,
);
process.stdout.write(
  `ticks sent / accepted / refused | ${ticksSent} / ${tickLatencies.length} / ${tickErrors} (${(tickLatencies.length / (runMs / 1000)).toFixed(0)} ticks/s accepted; quote call p99 ${percentile(tickLatencies, 99).toFixed(1)} ms)\n`,
);
process.stdout.write(
  `orders closed by take-profit or stop-loss | ${triggerMs.length} (open ${counts[0].open}, closed ${counts[0].closed}); watcher done ${walkLagMs.toFixed(0)} ms after the stream\n`,
);
process.stdout.write(
  `tick-to-trigger p50 / p99 / max ms | ${percentile(triggerMs, 50).toFixed(1)} / ${percentile(triggerMs, 99).toFixed(1)} (goal ≤ 100) / ${(triggerMs.at(-1) ?? 0).toFixed(1)}\n`,
);
process.stdout.write(
  `close to its settlement committed p50 / p99 / max ms | ${percentile(settleMs, 50).toFixed(1)} / ${percentile(settleMs, 99).toFixed(1)} / ${(settleMs.at(-1) ?? 0).toFixed(1)} (${settleMs.length} settled)\n`,
);
process.stdout.write(
  `closes / slowest trigger ms, second by second | ${bySecond.map((row) => `${row.second}:${row.closes}/${row.max_ms}`).join(' ')}\n`,
);
process.stdout.write(
  `opening p99 during the stream / before it (the limit here) | ${runP99.toFixed(1)} / ${idleP99.toFixed(1)} ms = ${(runP99 / Math.max(idleP99, 0.001)).toFixed(2)}× (${runLatencies.length} opens, ${(runLatencies.length / (runMs / 1000)).toFixed(0)}/s)\n`,
);
process.stdout.write(
  `ledger checker after the run | ${checker.status === 0 ? 'clean' : `NOT clean: ${checker.stdout}${checker.stderr}`}\n`,
);
process.exit(checker.status === 0 && tickErrors === 0 ? 0 : 1);
