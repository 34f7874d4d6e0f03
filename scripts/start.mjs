// `npm start [-- --demo]`: builds whatever is missing or older than its sources, then serves the API,
// the member app at / and the console at /admin/ on one port.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtimeMs(entries) {
  let newest = 0;
  const visit = (target) => {
    if (!existsSync(target)) return;
    const stats = statSync(target);
    if (stats.isDirectory()) {
      for (const name of readdirSync(target)) if (name !== 'node_modules' && name !== 'dist') visit(path.join(target, name));
    } else {
      newest = Math.max(newest, stats.mtimeMs);
    }
  };
  for (const entry of entries) visit(path.join(root, entry));
  return newest;
}

const contract = ['packages/contract/src'];
const builds = [
  {
    workspace: 'web',
    output: 'web/dist/index.html',
    sources: [
      'web/src',
      'web/index.html',
      'web/vite.config.ts',
      'web/build',
      'web/public',
      'scripts/vite-precompress.mjs',
      ...contract,
    ],
  },
  {
    workspace: 'admin',
    output: 'admin/dist/index.html',
    sources: ['admin/src', 'admin/index.html', 'admin/vite.config.ts', 'scripts/vite-precompress.mjs', ...contract],
  },
  { workspace: 'server', output: 'server/dist/main.js', sources: ['server/src', 'server/build.mjs', ...contract] },
];

for (const build of builds) {
  const output = path.join(root, build.output);
  if (existsSync(output) && statSync(output).mtimeMs >= newestMtimeMs(build.sources)) continue;
  process.stdout.write(`Building ${build.workspace}…\n`);
  const result = spawnSync('npm', ['run', 'build', '-w', build.workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`custos: building ${build.workspace} failed\n`);
    process.exit(result.status ?? 1);
  }
}

/** Whether a JSON-RPC node answers at `url` (a dev chain left in .env.devchain may have stopped since). */
async function answers(url) {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    return typeof (await response.json()).result === 'string';
  } catch {
    return false;
  }
}

// With --demo and a running dev chain (`npm run devchain` writes devchain/.env.devchain), deposits and
// BEP20 payouts work on it; variables already set win. Without one, the server starts a chain of its
// own for the demo (decision 019).
const env = { ...process.env };
const devchainEnv = path.join(root, 'devchain', '.env.devchain');
if (process.argv.includes('--demo') && existsSync(devchainEnv) && !env.BSC_RPC_URL) {
  const fileEnv = {};
  for (const line of readFileSync(devchainEnv, 'utf8').split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) fileEnv[match[1]] = match[2];
  }
  if (fileEnv.BSC_RPC_URL && (await answers(fileEnv.BSC_RPC_URL))) {
    for (const [key, value] of Object.entries(fileEnv)) env[key] ??= value;
    env.BSC_START_BLOCK ??= '0';
    process.stdout.write(`Using the dev chain at ${env.BSC_RPC_URL} (devchain/.env.devchain)\n`);
  }
}

const server = spawn(
  process.execPath,
  ['--enable-source-maps', path.join(root, 'server/dist/main.js'), ...process.argv.slice(2)],
  {
    cwd: root,
    env,
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
