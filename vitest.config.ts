import { defineConfig } from 'vitest/config';

const serverTests = ['server/test/**/*.test.ts'];

export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-results.json' }]],
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
      { test: { name: 'web', include: ['web/src/**/*.test.ts'] } },
      { test: { name: 'admin', include: ['admin/src/**/*.test.ts'] } },
      // A local Hardhat node per test file (see devchain/devchain.mjs).
      { test: { name: 'devchain', environment: 'node', include: ['devchain/**/*.test.ts'], testTimeout: 120_000 } },
      {
        test: {
          name: 'server:pglite',
          include: serverTests,
          // Races and crashes need a real server with real connections.
          exclude: ['server/test/**/*.pg.test.ts'],
          env: { TEST_DATABASE: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server:postgres',
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
