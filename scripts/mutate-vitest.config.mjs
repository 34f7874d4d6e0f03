// The vitest configuration Stryker runs (decision 056): the server:pglite project of the root
// vitest.config.ts alone (embedded PGlite, no cluster), one worker, so a mutant run is one process.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export default defineConfig({
  root,
  test: {
    name: 'server:pglite',
    allowOnly: false,
    include: ['server/test/**/*.test.ts'],
    exclude: ['server/test/**/*.pg.test.ts'],
    env: { TEST_DATABASE: 'pglite' },
    globalSetup: ['server/test/support/pglite-template.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
