import { defineConfig } from 'vitest/config';

/** The console's unit tests (pure helpers; screens are covered end to end). */
export default defineConfig({
  test: { name: 'admin', include: ['src/**/*.test.ts'] },
});
