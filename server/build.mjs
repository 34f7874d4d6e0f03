// Bundles the server into dist/main.js and the ledger checker into dist/ledger-verify.js. Dependencies
// stay in node_modules (PGlite and argon2 load files of their own); the workspace contract package,
// which ships TypeScript, is bundled in.
import { build } from 'esbuild';

await build({
  entryPoints: {
    main: 'src/main.ts',
    'ledger-verify': 'src/ledger-verify.ts',
    sweep: 'src/sweep.ts',
    settle: 'src/settle.ts',
    'contracts-replay': 'src/contracts-replay.ts',
    'contracts-watcher': 'src/contracts-watcher.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  alias: { '@custos/contract': '../packages/contract/src/index.ts' },
  logLevel: 'warning',
});
