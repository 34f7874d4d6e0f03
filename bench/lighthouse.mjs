// `npm run bench` (first-load part, decision 036): Lighthouse 12 (mobile, its default simulated
// throttling: a mid-range phone on slow 4G) drives the machine's Chromium against the built server
// started here in production mode on a fresh embedded database, on two pages a member meets first:
//  - log-in: a visitor's first visit (empty caches);
//  - Home: a member who has just registered and logged in, opening the app (empty caches, their
//    session in local storage as the app keeps it).
// For each: performance and accessibility scores, LCP, TBT, CLS, and the JavaScript the page loaded
// (bytes on the wire, compressed), against the goals below. Never downloads a browser.
//
//   CHROMIUM_PATH=/usr/bin/chromium BENCH_LIGHTHOUSE_RUNS=3 node bench/lighthouse.mjs
//   (the median run of each page is reported; BENCH_LIGHTHOUSE_JSON=DIR keeps the reports)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const reportDir = process.env.BENCH_LIGHTHOUSE_JSON;
const GOALS = { performance: 95, accessibility: 95, lcpMs: 2000, tbtMs: 150, cls: 0.05, initialJsKB: 170 };
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A real SMTP server keeping the registration codes (the code is in each mail's subject). */
async function startMailCatcher() {
  const codes = new Map();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = (/^Subject:\s*(.*(?:\r\n[ \t].*)*)/im.exec(raw)?.[1] ?? '').replace(
          /=\?[^?]+\?([BbQq])\?([^?]*)\?=/g,
          (_whole, encoding, text) =>
            encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : text.replace(/_/g, ' '),
        );
        const code = /\b(\d{6})\b/.exec(subject)?.[1];
        for (const rcpt of session.envelope.rcptTo) if (code) codes.set(rcpt.address, code);
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    async codeFor(email) {
      const deadline = Date.now() + 30_000;
      while (!codes.has(email)) {
        if (Date.now() > deadline) throw new Error(`no registration code mailed to ${email}`);
        await sleep(100);
      }
      return codes.get(email);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The built server (as `npm start` runs it) on a free port, a fresh embedded database, no chain. */
async function startServer(smtpUrl) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'custos-bench-lighthouse-'));
  const port = await new Promise((resolve) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('BSC_') || key.startsWith('TRON_')) delete env[key];
  Object.assign(env, {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    SMTP_URL: smtpUrl,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  });
  delete env.TEST_CLOCK_CONTROL;
  const child = spawn(process.execPath, [path.join(root, 'server', 'dist', 'main.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk.toString()));
  child.stderr.on('data', (chunk) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not start in time:\n${output}`);
    }
    const invitationCode = /Platform invitation code .*: (\S+)/.exec(output)?.[1];
    const healthy = await fetch(`${baseUrl}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy && invitationCode) return { baseUrl, invitationCode, stop };
    await sleep(200);
  }
}

async function call(baseUrl, apiPath, body) {
  const response = await fetch(`${baseUrl}${apiPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', lang: 'en' },
    body: JSON.stringify(body),
  });
  const envelope = await response.json();
  if (envelope.code !== 200) throw new Error(`${apiPath}: ${envelope.message}`);
  return envelope.data;
}

/** A member registered and logged in through the API, as the app does it: their session token. */
async function freshMember(baseUrl, invitationCode, mail) {
  const email = `lighthouse.${Date.now().toString(36)}@example.com`;
  const password = 'lighthouse-password';
  await call(baseUrl, '/api/auth/send_register_code', { email, invitationCode });
  const code = await mail.codeFor(email);
  await call(baseUrl, '/api/auth/register', { email, code, invitationCode, password, confirmPassword: password });
  const { token } = await call(baseUrl, '/api/auth/login', { email, password });
  return token;
}

/** One Lighthouse run of `url` in a fresh Chromium profile; `storage` goes into local storage first. */
async function audit(baseUrl, url, storage) {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    let page;
    if (storage) {
      // Written on a file of the same origin that is not the app, so nothing of the app is cached
      // or registered before the measured load.
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      page = await browser.newPage();
      await page.goto(`${baseUrl}/favicon.svg`);
      await page.evaluate((entries) => {
        for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
      }, storage);
    }
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        // Keeps the session just written (the HTTP cache is still emptied before the load).
        disableStorageReset: Boolean(storage),
      },
      undefined,
      page,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

/** The bytes of a script's body as the server sends it to Chromium (its brotli copy, when the build wrote one). */
function compressedBodyBytes(url) {
  const file = path.join(root, 'web', 'dist', new URL(url).pathname);
  if (existsSync(`${file}.br`)) return statSync(`${file}.br`).size;
  return existsSync(file) ? statSync(file).size : 0;
}

function figures(lhr) {
  const scripts = lhr.audits['network-requests'].details.items.filter(
    (item) => item.resourceType === 'Script' && (item.sessionTargetType ?? 'page') === 'page',
  );
  const failed = Object.values(lhr.audits).filter(
    (entry) =>
      entry.score !== null && entry.score < 1 && lhr.categories.accessibility.auditRefs.some((ref) => ref.id === entry.id),
  );
  return {
    performance: Math.round(lhr.categories.performance.score * 100),
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    fcpMs: lhr.audits['first-contentful-paint'].numericValue,
    lcpMs: lhr.audits['largest-contentful-paint'].numericValue,
    tbtMs: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    initialJsKB: scripts.reduce((sum, item) => sum + item.transferSize, 0) / 1000,
    initialJsBodyKB: scripts.reduce((sum, item) => sum + compressedBodyBytes(item.url), 0) / 1000,
    scriptCount: scripts.length,
    totalKB: lhr.audits['total-byte-weight'].numericValue / 1000,
    accessibilityFailures: failed.map((entry) => entry.id),
    runtimeError: lhr.runtimeError?.message,
  };
}

function median(list, key) {
  const sorted = [...list].sort((a, b) => a[key] - b[key]);
  return sorted[Math.floor(sorted.length / 2)];
}

const loadAtStart = load();
const mail = await startMailCatcher();
const server = await startServer(mail.url);
const results = [];
try {
  const token = await freshMember(server.baseUrl, server.invitationCode, mail);
  const pages = [
    // A first visit: nothing stored, the app in its default language.
    { name: 'log-in', url: `${server.baseUrl}/#/pages/login/login`, storage: null },
    {
      name: 'Home (logged in)',
      url: `${server.baseUrl}/#/pages/index/index`,
      storage: { 'custos.locale': 'en', Authorization: token },
    },
  ];
  if (reportDir) mkdirSync(reportDir, { recursive: true });
  for (const target of pages) {
    const measured = [];
    for (let run = 0; run < runs; run += 1) {
      let lhr = await audit(server.baseUrl, target.url, target.storage);
      // Lighthouse sometimes loses the trace's navigation start (NO_NAVSTART) and scores the run 0:
      // that run measured nothing, so it is run again (at most twice) and the failure reported.
      for (let again = 0; lhr.runtimeError && again < 2; again += 1) {
        console.log(`${target.name}: run ${run + 1} failed (${lhr.runtimeError.code}); running it again`);
        lhr = await audit(server.baseUrl, target.url, target.storage);
      }
      if (reportDir) writeFileSync(path.join(reportDir, `${target.name.split(' ')[0]}-${run + 1}.json`), JSON.stringify(lhr));
      measured.push(figures(lhr));
    }
    // The run with the median performance score stands for the page.
    results.push({ page: target.name, runs: measured, ...median(measured, 'performance') });
  }
} finally {
  await server.stop();
  await mail.close();
}

const meets = (row) =>
  row.performance >= GOALS.performance &&
  row.accessibility >= GOALS.accessibility &&
  row.lcpMs <= GOALS.lcpMs &&
  row.tbtMs <= GOALS.tbtMs &&
  row.cls <= GOALS.cls &&
  row.initialJsKB <= GOALS.initialJsKB;

console.log(`\nFirst load, Lighthouse 12 mobile, simulated throttling (median of ${runs} runs each)`);
console.log(`load average at start ${loadAtStart}, at end ${load()}`);
console.log(
  '| page | performance | accessibility | FCP s | LCP s | TBT ms | CLS | initial JS KB on the wire (bodies alone) | all bytes KB | goal met |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
);
for (const row of results) {
  console.log(
    `| ${row.page} | ${row.performance} | ${row.accessibility} | ${(row.fcpMs / 1000).toFixed(2)} | ${(row.lcpMs / 1000).toFixed(2)} | ${Math.round(row.tbtMs)} | ${row.cls.toFixed(3)} | ${row.initialJsKB.toFixed(1)} (${row.initialJsBodyKB.toFixed(1)}, ${row.scriptCount} files) | ${row.totalKB.toFixed(1)} | ${meets(row) ? 'yes' : 'no'} |`,
  );
}
for (const row of results) {
  console.log(
    `${row.page}: performance per run ${row.runs.map((run) => run.performance).join(', ')}; accessibility audits not passed: ${row.accessibilityFailures.join(', ') || 'none'}${row.runtimeError ? `; error: ${row.runtimeError}` : ''}`,
  );
}
console.log(
  `goals: performance ≥ ${GOALS.performance}, accessibility ≥ ${GOALS.accessibility}, LCP ≤ ${GOALS.lcpMs / 1000} s, TBT ≤ ${GOALS.tbtMs} ms, CLS ≤ ${GOALS.cls}, initial JS ≤ ${GOALS.initialJsKB} KB`,
);
