// `npm run bench` (live notifications part, decision 022): BENCH_LIVE_CHANNELS open SSE channels
// (GET /api/user/events, one member each, 2,000 by default) on one server instance on PostgreSQL 15,
// then a burst of BENCH_LIVE_EVENTS events (10,000) published as the features publish them: each its
// own transaction that inserts the event and queues its NOTIFY, 8 publishers at once.
//  - delivery p99: from just before the publishing statement to the event's frame read by its
//    channel (goal ≤ 1 s);
//  - the server's memory per open channel: its RSS (from /proc) after opening the channels minus
//    before, divided by the channels (the server's heap is not visible from outside the process).
//
//   BENCH_LIVE_CHANNELS=2000 BENCH_LIVE_EVENTS=10000 node bench/live.mjs
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startApiServer } from './api.mjs';
import { startCluster } from './cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const channelCount = Number(process.env.BENCH_LIVE_CHANNELS ?? 2000);
const eventCount = Number(process.env.BENCH_LIVE_EVENTS ?? 10_000);
const publishers = 8;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const loadAtStart = load();
function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const cluster = await startCluster();
process.on('exit', () => cluster.stop());
const admin = new pg.Client({ connectionString: cluster.url('postgres') });
await admin.connect();
await admin.query('create database custos_live');
await admin.end();
const databaseUrl = cluster.url('custos_live');
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

// Members and their sessions in SQL (a session is the token's SHA-256, as the server writes it):
// logging 2,000 members in would only time argon2.
const { rows: members } = await db.query(
  `with m as (
     insert into members (email, password_hash) select 'live-' || g || '@example.com', 'x' from generate_series(1, $1) g returning id
   )
   insert into accounts (member_id, kind, invite_code, nickname)
   select id, 'main', 'L' || lpad((row_number() over ())::text, 11, '0'), 'live' from m returning member_id, id as account_id`,
  [channelCount],
);
for (const member of members) member.token = randomBytes(32).toString('base64url');
await db.query(
  `insert into member_sessions (member_id, account_id, token_hash, idle_expires_at, absolute_expires_at)
   select * , now() + interval '1 day', now() + interval '1 day' from unnest($1::uuid[], $2::uuid[], $3::text[])`,
  [
    members.map((member) => member.member_id),
    members.map((member) => member.account_id),
    members.map((member) => createHash('sha256').update(member.token, 'utf8').digest('hex')),
  ],
);

const server = await startApiServer(databaseUrl);
process.on('exit', () => server.stop());

const sentAt = new Map();
const receivedAt = new Map();
const sockets = [];
let dropped = 0;
/** Opens one member's channel; resolves once its `ready` frame arrived. */
function openChannel(member, index) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.baseUrl}/api/user/events`, {
      agent: false,
      headers: {
        authorization: member.token,
        accept: 'text/event-stream',
        'x-forwarded-for': `10.${1 + (index >> 16)}.${(index >> 8) & 255}.${index & 255}`,
      },
    });
    request.on('response', (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`channel ${index}: HTTP ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      let buffered = '';
      response.on('data', (text) => {
        buffered += text;
        let end;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const id = /^id: (.*)$/m.exec(block)?.[1];
          if (event === 'ready') resolve();
          else if (event === 'event' && id) receivedAt.set(id, performance.now());
        }
      });
      response.on('end', () => (dropped += 1));
    });
    request.on('error', reject);
    request.end();
    sockets.push(request);
  });
}

// Warm-up: a few channels open and close, so the RSS baseline has the route's code loaded.
for (let index = 0; index < 5; index += 1) await openChannel(members[index], index);
for (const request of sockets.splice(0)) request.destroy();
await sleep(2000);
dropped = 0;
const rssBefore = rssKiB(server.pid);
const openStarted = performance.now();
for (let start = 0; start < members.length; start += 100) {
  await Promise.all(members.slice(start, start + 100).map((member, offset) => openChannel(member, start + offset)));
}
const openMs = performance.now() - openStarted;
await sleep(2000);
const rssOpen = rssKiB(server.pid);

// The burst: event i goes to member i mod channels, each published in its own transaction.
const pool = new pg.Pool({ connectionString: databaseUrl, max: publishers });
let next = 0;
const burstStarted = performance.now();
await Promise.all(
  Array.from({ length: publishers }, async () => {
    const client = await pool.connect();
    try {
      while (next < eventCount) {
        const index = next;
        next += 1;
        const member = members[index % members.length];
        const begin = performance.now();
        const { rows } = await client.query(
          `with e as (
             insert into member_events (member_id, kind, payload) values ($1, 'feedback.replied', $2::jsonb) returning id, member_id
           )
           select id::text as id, pg_notify('custos_member_events', member_id::text) from e`,
          [member.member_id, JSON.stringify({ feedbackId: `bench-${index}`, title: 'Bench' })],
        );
        sentAt.set(rows[0].id, begin);
      }
    } finally {
      client.release();
    }
  }),
);
const publishMs = performance.now() - burstStarted;
for (let waited = 0; receivedAt.size < eventCount && waited < 60_000; waited += 100) await sleep(100);
const deliveredMs = performance.now() - burstStarted;
const rssAfter = rssKiB(server.pid);
const latencies = [...sentAt].filter(([id]) => receivedAt.has(id)).map(([id, begin]) => receivedAt.get(id) - begin);
latencies.sort((a, b) => a - b);
const droppedDuringRun = dropped;
for (const request of sockets) request.destroy();
await pool.end();
await db.end();
server.stop();

process.stdout.write(
  `\nLive notifications benchmark (${channelCount.toLocaleString('en')} open channels on one instance, a burst of ${eventCount.toLocaleString('en')} events, PostgreSQL 15 on this machine; load average ${loadAtStart} at start, ${load()} at end)\n`,
);
process.stdout.write('what | figure\n---|---\n');
process.stdout.write(
  `channels opened (${(openMs / 1000).toFixed(1)} s), closed by the server during the run | ${channelCount - droppedDuringRun} / ${droppedDuringRun}\n`,
);
process.stdout.write(
  `burst published by ${publishers} publishers (one transaction each) | ${(publishMs / 1000).toFixed(1)} s (${Math.round(eventCount / (publishMs / 1000))} events/s)\n`,
);
process.stdout.write(
  `events delivered | ${latencies.length} of ${eventCount}, all within ${(deliveredMs / 1000).toFixed(1)} s of the burst's start\n`,
);
process.stdout.write(
  `delivery p50 / p99 / max ms | ${percentile(latencies, 50).toFixed(0)} / ${percentile(latencies, 99).toFixed(0)} (goal ≤ 1000) / ${(latencies.at(-1) ?? 0).toFixed(0)}\n`,
);
process.stdout.write(
  `server RSS before / with the channels open / after the burst | ${(rssBefore / 1024).toFixed(0)} / ${(rssOpen / 1024).toFixed(0)} / ${(rssAfter / 1024).toFixed(0)} MiB\n`,
);
process.stdout.write(
  `server memory per open channel (RSS delta ÷ channels) | ${((rssOpen - rssBefore) / channelCount).toFixed(1)} KiB\n`,
);
process.exit(latencies.length === eventCount && droppedDuringRun === 0 ? 0 : 1);
