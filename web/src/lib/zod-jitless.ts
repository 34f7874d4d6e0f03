import { config } from 'zod/v4/core';

// Zod compiles its object parsers with `new Function` and probes for that when the first schema is
// built; under this app's Content-Security-Policy (no 'unsafe-eval') the probe is refused and
// reported as a policy violation. `jitless` (zod's own setting) skips both. The entry imports this
// module first and the build puts it at the head of the `start` file (web/build/chunks.ts), so it
// runs before any module that builds a schema (decision 041; it was a blocking classic script).
config({ jitless: true });
