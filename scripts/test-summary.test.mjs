import { describe, expect, it } from 'vitest';
import { summarise } from './test-summary.mjs';

// Trimmed from real reports: Vitest 4's JSON reporter and Playwright's.
function vitestFile(name, status, assertions, message = '') {
  return { name: `/repo/${name}`, status, message, assertionResults: assertions.map((s) => ({ status: s })) };
}

function vitestReport(files) {
  const all = files.flatMap((file) => file.assertionResults);
  return {
    numPassedTests: all.filter((a) => a.status === 'passed').length,
    numFailedTests: all.filter((a) => a.status === 'failed').length,
    numPendingTests: all.filter((a) => a.status === 'skipped' || a.status === 'pending').length,
    numTodoTests: all.filter((a) => a.status === 'todo').length,
    testResults: files,
  };
}

function playwrightReport(tests, stats) {
  return {
    suites: [{ title: 'a.spec.ts', specs: [], suites: [{ title: 'group', specs: [{ tests }], suites: [] }] }],
    stats: { expected: 0, skipped: 0, unexpected: 0, flaky: 0, ...stats },
  };
}

describe('the closing count of npm test', () => {
  it('passes a run where everything passed', () => {
    const summary = summarise(
      vitestReport([vitestFile('a.test.ts', 'passed', ['passed', 'passed'])]),
      playwrightReport([{ status: 'expected', results: [{ status: 'passed' }] }], { expected: 1 }),
    );
    expect(summary).toMatchObject({ passed: 3, failed: 0, skipped: 0, ok: true, line: '3 passed, 0 failed, 0 skipped' });
  });

  it('counts a file whose afterAll failed (the ledger checker) although all its tests passed', () => {
    const summary = summarise(
      vitestReport([
        vitestFile('ledger.test.ts', 'failed', ['passed', 'passed'], 'the ledger has 1 problem'),
        vitestFile('b.test.ts', 'passed', ['passed']),
      ]),
      null,
    );
    expect(summary).toMatchObject({ passed: 3, failed: 1, ok: false, failedFiles: ['/repo/ledger.test.ts'] });
    expect(summary.line).toBe('3 passed, 1 failed (1 of them outside any test: a hook such as afterAll), 0 skipped');
  });

  it('does not count a file twice when a test in it failed', () => {
    const summary = summarise(vitestReport([vitestFile('a.test.ts', 'failed', ['passed', 'failed'])]), null);
    expect(summary).toMatchObject({ passed: 1, failed: 1, failedFiles: [], ok: false });
  });

  it('fails a run with skipped, pending or todo tests (a stray .only skips the rest)', () => {
    const summary = summarise(vitestReport([vitestFile('a.test.ts', 'passed', ['passed', 'skipped', 'todo'])]), null);
    expect(summary).toMatchObject({ passed: 1, failed: 0, skipped: 2, ok: false });
  });

  it('fails a file whose beforeAll failed: its tests are skipped and the file counts as failed', () => {
    const summary = summarise(
      vitestReport([vitestFile('a.test.ts', 'failed', ['skipped', 'skipped'], 'Hook timed out in 60000ms.')]),
      null,
    );
    expect(summary).toMatchObject({ passed: 0, failed: 1, skipped: 2, ok: false });
  });

  it('counts Playwright tests that did not run, flaky and failed ones', () => {
    const summary = summarise(
      vitestReport([vitestFile('a.test.ts', 'passed', ['passed'])]),
      playwrightReport(
        [
          { status: 'expected', results: [{ status: 'passed' }] },
          { status: 'unexpected', results: [{ status: 'failed' }] },
          { status: 'flaky', results: [{ status: 'failed' }, { status: 'passed' }] },
          // "did not run": no result at all, not counted in stats.skipped by every version
          { status: 'skipped', results: [] },
        ],
        { expected: 1, unexpected: 1, flaky: 1, skipped: 0 },
      ),
    );
    expect(summary).toMatchObject({ passed: 2, failed: 2, skipped: 1, ok: false });
  });

  it('does not pass a run in which nothing was counted', () => {
    expect(summarise(null, null)).toMatchObject({ passed: 0, failed: 0, skipped: 0, ok: false });
  });
});
