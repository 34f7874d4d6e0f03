// The closing count of `npm test`, from the Vitest and Playwright JSON reports. A run is good only
// with tests passed, none failed and none skipped. A file whose hook failed (the ledger checker runs
// in createTestApp().close(), usually from afterAll) fails without any failed assertion, so such
// files are counted as failures of their own; a `.only`, `.skip` or `.todo` shows up as skipped, and
// a Playwright test that did not run (a crashed worker, an aborted run) as skipped too.

/** Tests of a Playwright JSON report, through its nested suites. */
function playwrightTests(suites = []) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) => spec.tests ?? []),
    ...playwrightTests(suite.suites),
  ]);
}

/**
 * @param {object | null} vitest the Vitest JSON report (null when it was not written)
 * @param {object | null} playwright the Playwright JSON report (null when it was not written)
 * @returns {{ passed: number, failed: number, skipped: number, failedFiles: string[], line: string, ok: boolean }}
 */
export function summarise(vitest, playwright) {
  const failedFiles = (vitest?.testResults ?? [])
    .filter(
      (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((assertion) => assertion.status === 'failed'),
    )
    .map((file) => file.name);
  const pwTests = playwrightTests(playwright?.suites);
  // "did not run" has no result at all; an explicit skip has a result with status skipped.
  const pwNotRun = pwTests.filter((test) => (test.results ?? []).length === 0 || test.status === 'skipped').length;
  const passed = (vitest?.numPassedTests ?? 0) + (playwright?.stats?.expected ?? 0);
  const failed =
    (vitest?.numFailedTests ?? 0) + failedFiles.length + (playwright?.stats?.unexpected ?? 0) + (playwright?.stats?.flaky ?? 0);
  const skipped =
    (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0) + Math.max(playwright?.stats?.skipped ?? 0, pwNotRun);
  const outside = failedFiles.length > 0 ? ` (${failedFiles.length} of them outside any test: a hook such as afterAll)` : '';
  const line = `${passed} passed, ${failed} failed${outside}, ${skipped} skipped`;
  return { passed, failed, skipped, failedFiles, line, ok: passed > 0 && failed === 0 && skipped === 0 };
}
