// `npm test`: the one command that says whether main is good. Lint, formatting and types first
// (cheap), then unit and integration tests on PGlite and PostgreSQL 15, then a build and the
// end-to-end tests in Chromium. Ends with one line counting every test; anything failed or skipped
// (a stray `.only` included) fails the run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarise } from './test-summary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, '.tmp');
rmSync(path.join(resultsDir, 'vitest-results.json'), { force: true });
rmSync(path.join(resultsDir, 'playwright-results.json'), { force: true });
mkdirSync(resultsDir, { recursive: true });

const steps = [
  ['lint', ['run', 'lint']],
  ['format', ['run', 'format:check']],
  ['types', ['run', 'typecheck']],
  ['unit and integration tests', ['run', 'test:unit']],
  ['build', ['run', 'build']],
  ['end-to-end tests', ['test', '-w', 'e2e']],
];

const failed = [];
const ran = new Set();
for (const [name, args] of steps) {
  const startedAt = Date.now();
  process.stdout.write(`\n=== ${name} ===\n`);
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  ran.add(name);
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(0);
  process.stdout.write(`=== ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} (${seconds} s) ===\n`);
  if (result.status !== 0) {
    failed.push(name);
    // Without a build there is nothing for the browser to test.
    if (name === 'build') break;
  }
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
