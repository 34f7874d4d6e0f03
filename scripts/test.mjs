// `npm test`: the one command that says whether main is good. Lint, formatting and types first
// (cheap), then unit and integration tests on PGlite and PostgreSQL 15, then a build and the
// end-to-end tests in Chromium. Ends with one line counting every test.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
for (const [name, args] of steps) {
  const startedAt = Date.now();
  process.stdout.write(`\n=== ${name} ===\n`);
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
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
const passed = (vitest?.numPassedTests ?? 0) + (playwright?.stats?.expected ?? 0);
const failedTests = (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0) + (playwright?.stats?.flaky ?? 0);
const skipped = (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0) + (playwright?.stats?.skipped ?? 0);

process.stdout.write('\n');
if (failed.length > 0) process.stdout.write(`failed steps: ${failed.join(', ')}\n`);
process.stdout.write(`${passed} passed, ${failedTests} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed.length > 0 || failedTests > 0 || passed === 0 ? 1 : 0);
