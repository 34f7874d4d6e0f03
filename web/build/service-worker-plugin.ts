import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

/*
 * Builds the member app's service worker (src/sw/service-worker.ts) to /sw.js, beside the page it
 * serves, and writes into it what it keeps: every script and style sheet of this build, the page,
 * and the public files the shell shows (manifest, icons, favicon, the zod setting). The build's id
 * is a hash of those files' contents, so any change to the app is a new worker, which the browser
 * installs and the page offers to the member (decision 036).
 */

const WORKER_SOURCE = 'src/sw/service-worker.ts';
const WORKER_FILE = 'sw.js';
/** The string the worker parses as its manifest, in whatever quotes the minifier chose. */
const MANIFEST_MARKER = /(["'`])__CUSTOS_SW_MANIFEST__\1/;
/** Public files the shell needs (the platform avatars are fetched when shown). */
const PUBLIC_SHELL = /^(?:favicon\.svg|manifest\.webmanifest|icons\/.+\.png)$/;

function publicFiles(directory: string, prefix = ''): string[] {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    return statSync(full).isDirectory() ? publicFiles(full, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

function contentOf(bundle: Rollup.OutputBundle, fileName: string): string | Uint8Array {
  const item = bundle[fileName];
  if (!item) throw new Error(`${fileName} is not in the bundle`);
  return item.type === 'chunk' ? item.code : item.source;
}

export function serviceWorker(): Plugin {
  let root = '';
  let publicDir = '';
  return {
    name: 'custos-service-worker',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      publicDir = config.publicDir;
    },
    buildStart() {
      this.emitFile({ type: 'chunk', id: path.resolve(root, WORKER_SOURCE), fileName: WORKER_FILE });
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const worker = bundle[WORKER_FILE];
        if (!worker || worker.type !== 'chunk') throw new Error(`${WORKER_FILE} was not built`);
        // A classic worker script: it must not import anything (no shared chunk, no module syntax).
        if (worker.imports.length > 0 || worker.dynamicImports.length > 0 || /^\s*import[\s{]/m.test(worker.code)) {
          throw new Error(`${WORKER_FILE} imports ${[...worker.imports, ...worker.dynamicImports].join(', ')}`);
        }
        if (!MANIFEST_MARKER.test(worker.code)) throw new Error(`${WORKER_FILE} lost its manifest marker`);
        const built = Object.keys(bundle).filter(
          (name) => name !== WORKER_FILE && (name === 'index.html' || /\.(?:js|css)$/.test(name)),
        );
        const shellFiles = publicFiles(publicDir).filter((name) => PUBLIC_SHELL.test(name));
        const files = [...built, ...shellFiles].sort();
        const hash = createHash('sha256');
        for (const name of files) {
          hash.update(name);
          hash.update(name in bundle ? contentOf(bundle, name) : readFileSync(path.join(publicDir, name)));
        }
        const manifest = { id: hash.digest('hex').slice(0, 16), files };
        worker.code = worker.code.replace(MANIFEST_MARKER, () => JSON.stringify(JSON.stringify(manifest)));
      },
    },
  };
}
