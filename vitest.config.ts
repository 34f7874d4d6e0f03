import { defineConfig } from 'vitest/config';

const serverTests = ['server/test/**/*.test.ts'];
// A stray `.only` fails the run everywhere, not just in CI (scripts/test.mjs also fails on skips).
// Each project sets it: an inline project does not take the root's test options.
const allowOnly = false;
// Server test files share their worker's modules (not one fresh module graph per file): every file
// builds its own app, database and members, and the server keeps no state in its modules beyond
// caches, so isolation bought nothing but re-importing the whole server ~500 times a run (half the
// step's CPU time). A file that needs a fresh module graph must say so with its own project.
const isolate = false;

export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-results.json' }]],
    projects: [
      { test: { allowOnly, name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
      { test: { allowOnly, name: 'web', include: ['web/src/**/*.test.ts'], setupFiles: ['web/src/test-setup.ts'] } },
      { test: { allowOnly, name: 'admin', include: ['admin/src/**/*.test.ts'] } },
      // The test runner's own logic (how a run is counted).
      { test: { allowOnly, name: 'scripts', environment: 'node', include: ['scripts/**/*.test.mjs'] } },
      // A local Hardhat node per test file (see devchain/devchain.mjs).
      { test: { allowOnly, name: 'devchain', environment: 'node', include: ['devchain/**/*.test.ts'], testTimeout: 120_000 } },
      {
        test: {
          allowOnly,
          name: 'server:pglite',
          isolate,
          include: serverTests,
          // Races and crashes need a real server with real connections.
          exclude: ['server/test/**/*.pg.test.ts'],
          env: { TEST_DATABASE: 'pglite' },
          globalSetup: ['server/test/support/pglite-template.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          allowOnly,
          name: 'server:postgres',
          isolate,
          include: serverTests,
          env: { TEST_DATABASE: 'postgres' },
          globalSetup: ['server/test/support/postgres-cluster.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
