// StrykerJS (decision 056). Run it through `npm run mutate -- <module>` (scripts/mutate.mjs), which
// adds the module's files, its test files and its incremental file.
const moduleName = process.env.STRYKER_MODULE ?? 'all';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'scripts/mutate-vitest.config.mjs', related: false },
  appendPlugins: ['./scripts/mutate-ignorers.mjs'],
  ignorers: ['SqlText', 'LogText'],
  coverageAnalysis: 'perTest',
  incremental: true,
  // Two cores, shared: one test runner (a second one only fights the first for the CPU).
  concurrency: 1,
  // A busy machine makes honest runs slow: a mutant is a timeout only well past the dry run's time.
  timeoutMS: 30_000,
  timeoutFactor: 3,
  dryRunTimeoutMinutes: 30,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `.tmp/stryker/${moduleName}.html` },
  jsonReporter: { fileName: `.tmp/stryker/${moduleName}.json` },
  // The sandbox holds the server and what it imports; the apps, e2e, benchmarks and docs are not needed.
  ignorePatterns: ['/web', '/admin', '/e2e', '/bench', '/devchain', '/docs', '/data', '/.tmp', '/stryker'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  thresholds: { high: 90, low: 80, break: null },
};
