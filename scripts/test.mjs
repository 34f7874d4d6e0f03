// `npm test`: the one command that says whether main is good. Lint, formatting and types first
// (cheap), then unit and integration tests on PGlite and PostgreSQL 15, then a build and the
// end-to-end tests in Chromium. Ends with one line counting every test; anything failed or skipped
// (a stray `.only` included) fails the run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarise } from './test-summary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, '.tmp');
rmSync(path.join(resultsDir, 'vitest-results.json'), { force: true });
rmSync(path.join(resultsDir, 'playwright-results.json'), { force: true });
mkdirSync(resultsDir, { recursive: true });

// The checks read the tree and write nothing, so they run side by side (two cores: the type-aware
// lint and the type check take about the same time); each one's output is printed whole when it ends,
// not interleaved. The tests and the build run one after the other: each needs the whole machine.
const checks = [
  ['lint', ['run', 'lint']],
  ['format', ['run', 'format:check']],
  ['types', ['run', 'typecheck']],
];
const steps = [
  ['unit and integration tests', ['run', 'test:unit']],
  ['build', ['run', 'build']],
  ['end-to-end tests', ['test', '-w', 'e2e']],
];

const failed = [];
const ran = new Set();
const seconds = (startedAt) => ((Date.now() - startedAt) / 1000).toFixed(0);
const report = (name, status, startedAt) => {
  process.stdout.write(`=== ${name}: ${status === 0 ? 'ok' : 'FAILED'} (${seconds(startedAt)} s) ===\n`);
  if (status !== 0) failed.push(name);
};

function runCaptured(name, args) {
  const startedAt = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => {
      process.stdout.write(`\n=== ${name} ===\n`);
      process.stdout.write(Buffer.concat(output));
      report(name, status, startedAt);
      resolve();
    });
  });
}

const checksStartedAt = Date.now();
await Promise.all(checks.map(([name, args]) => runCaptured(name, args)));
process.stdout.write(`=== checks side by side: ${seconds(checksStartedAt)} s ===\n`);

for (const [name, args] of steps) {
  const startedAt = Date.now();
  process.stdout.write(`\n=== ${name} ===\n`);
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  ran.add(name);
  report(name, result.status, startedAt);
  // Without a build there is nothing for the browser to test.
  if (result.status !== 0 && name === 'build') break;
}

function readJson(file) {
  const target = path.join(resultsDir, file);
  return existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')) : null;
}

const vitest = readJson('vitest-results.json');
const playwright = readJson('playwright-results.json');
// A test step that ran but left no report cannot be counted: that is a failure, not zero tests.
if (ran.has('unit and integration tests') && !vitest) failed.push('no Vitest report');
if (ran.has('end-to-end tests') && !playwright) failed.push('no Playwright report');
const summary = summarise(vitest, playwright);

process.stdout.write('\n');
if (failed.length > 0) process.stdout.write(`failed steps: ${failed.join(', ')}\n`);
for (const file of summary.failedFiles) process.stdout.write(`failed outside any test: ${path.relative(root, file)}\n`);
process.stdout.write(`${summary.line}\n`);
process.exit(failed.length > 0 || !summary.ok ? 1 : 0);
