// Downloads bench (decision 053): a logged-in `user/info` call's latency while 12 clients (each
// its own address) download a 30 MB package at once, against the same call on an idle server.
// Reported as medians and their ratio. Run: `node bench/downloads.mjs` (no build needed: the
// server runs from source under tsx, on an embedded database in a temporary folder).
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PARALLEL_DOWNLOADS = Number(process.env.BENCH_DOWNLOADS ?? 12);
const SAMPLES = Number(process.env.BENCH_DOWNLOAD_SAMPLES ?? 20);

const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'downloads-server.mjs')], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const first = await new Promise((resolve, reject) => {
  readline.createInterface({ input: child.stdout }).once('line', resolve);
  child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
});
const { baseUrl, token, packageUrl, sizeBytes } = JSON.parse(first);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function get(pathName, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}${pathName}`, { agent, headers }, (response) => {
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () => resolve({ status: response.statusCode, bytes }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

async function userInfoMs() {
  const startedAt = performance.now();
  const answer = await get('/api/user/info', {
    connection: 'close',
    authorization: `Bearer ${token}`,
    'x-forwarded-for': '10.98.0.1',
  });
  if (answer.status !== 200) throw new Error(`user/info answered ${answer.status}`);
  return performance.now() - startedAt;
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  for (let index = 0; index < 50; index += 1) await userInfoMs(); // warm-up (JIT, the session cache)
  const idle = [];
  for (let index = 0; index < SAMPLES; index += 1) idle.push(await userInfoMs());

  let finished = 0;
  const downloads = Array.from({ length: PARALLEL_DOWNLOADS }, (_, index) =>
    get(packageUrl, { 'x-forwarded-for': `10.97.0.${index + 1}` }).then((answer) => {
      finished += 1;
      if (answer.status !== 200 || answer.bytes !== sizeBytes) throw new Error(`a download answered ${answer.status}`);
      return answer;
    }),
  );
  const loaded = [];
  // Samples only while every download is still running (a sample taken after they ended would flatter).
  while (finished === 0 && loaded.length < SAMPLES) loaded.push(await userInfoMs());
  const downloadsStartedAt = performance.now();
  await Promise.all(downloads);
  const idleMs = median(idle);
  const loadedMs = median(loaded);
  console.log(
    JSON.stringify({
      parallelDownloads: PARALLEL_DOWNLOADS,
      packageBytes: sizeBytes,
      idleUserInfoMedianMs: Number(idleMs.toFixed(2)),
      loadedUserInfoMedianMs: Number(loadedMs.toFixed(2)),
      loadedUserInfoMaxMs: Number(Math.max(...loaded).toFixed(2)),
      loadedSamples: loaded.length,
      ratio: Number((loadedMs / idleMs).toFixed(2)),
      downloadsTailMs: Math.round(performance.now() - downloadsStartedAt),
    }),
  );
} finally {
  agent.destroy();
  child.kill('SIGTERM');
}
