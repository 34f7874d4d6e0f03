// `npm run mutate -- <module> [more Stryker options]`: mutation testing of one money module
// (decision 056). One module at a time keeps a run tractable on two cores; each module has its own
// incremental file under stryker/incremental/, committed, so a rerun only tests mutants whose code or
// covering tests changed. Not part of `npm test`: a full module takes minutes to hours.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutationModules } from './mutate-modules.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...rest] = process.argv.slice(2);
const chosen = name === undefined ? undefined : mutationModules[name];
if (chosen === undefined) {
  process.stderr.write(
    `usage: npm run mutate -- <module> [stryker options]\nmodules: ${Object.keys(mutationModules).join(', ')}\n`,
  );
  process.exit(2);
}

const args = [
  'stryker',
  'run',
  'stryker.config.mjs',
  '--mutate',
  chosen.mutate.join(','),
  '--testFiles',
  chosen.testFiles.join(','),
  '--incrementalFile',
  `stryker/incremental/${name}.json`,
  ...rest,
];
const result = spawnSync('npx', args, {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, STRYKER_MODULE: name },
});
process.exit(result.status ?? 1);
