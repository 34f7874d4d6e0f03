import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { APP_VERSION_CODE } from '@custos/contract';
import { storedZip } from '../lib/stored-zip.js';
import type { DemoContext } from './context.js';

/** The demo's release: the next version after the built-in one, as a hot bundle. */
export const DEMO_RELEASE = { versionCode: APP_VERSION_CODE + 1, versionName: '1.0.20' } as const;

function filesUnder(root: string, directory = root): { name: string; content: Buffer }[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) return filesUnder(root, full);
    return [{ name: path.relative(root, full).split(path.sep).join('/'), content: readFileSync(full) }];
  });
}

/**
 * The hot bundle: the member app's own build (the WEB_DIST_DIR the server serves, `web/dist` under
 * `npm start`) when there is one, so the demo's release is the app itself; else a one-page bundle
 * that says which version it is (a device would roll it back: it never reports healthy).
 */
function demoBundle(dist: string | undefined): Buffer {
  if (dist && existsSync(path.join(dist, 'index.html'))) return storedZip(filesUnder(path.resolve(dist)));
  return storedZip([
    {
      name: 'index.html',
      content: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Custos ${DEMO_RELEASE.versionName}</title></head><body><h1>Custos ${DEMO_RELEASE.versionName}</h1></body></html>`,
    },
  ]);
}

/**
 * Demo app release (decision 037): a hot bundle 1.0.20 uploaded, released and published to every
 * member through the console's own service calls (audited). Nothing is added when a release exists,
 * nor when the server has no release key: no app applies an unsigned bundle (decision 057).
 */
export async function seedReleases(demo: DemoContext): Promise<void> {
  const { services, operatorId, origin } = demo;
  if (!services.releases.signsHotBundles) return;
  if ((await services.releases.list()).items.length > 0) return;
  const content = demoBundle(demo.webDistDir);
  const sha256 = createHash('sha256').update(content).digest('hex');
  const uploaded = await services.releases.upload(operatorId, { kind: 'hot', sha256, content }, origin);
  const { id } = await services.releases.create(
    operatorId,
    {
      packageId: uploaded.id,
      ...DEMO_RELEASE,
      notes: 'Demo release: faster start-up and the new in-app update.',
    },
    origin,
  );
  await services.releases.publish(operatorId, id, 100, origin);
}
