// Zod compiles its object parsers with `new Function` and probes for that when the first schema is
// built; under this app's Content-Security-Policy (no 'unsafe-eval') the probe is refused and
// reported as a policy violation. `jitless` (zod's own setting, shared by every copy of zod through
// this global) skips both. A classic script runs before the bundle's module scripts, whichever
// chunk zod and the schemas end up in.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
