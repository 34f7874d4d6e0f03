// The downloads bench's server (run by bench/downloads.mjs under tsx, which loads the server's TypeScript): the real app on a fresh
// embedded database in a temporary folder, with one member session and one published 30 MB package.
// Prints one JSON line ({ baseUrl, token, packageUrl, sizeBytes }) once it listens.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { createServices } from '../server/src/container.js';
import { openPglite } from '../server/src/db/client.js';
import { createLogger } from '../server/src/lib/logger.js';
import { storedZip } from '../server/src/lib/stored-zip.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'custos-bench-downloads-'));
const config = {
  ...loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: path.join(work, 'data'),
    STORAGE_DIR: path.join(work, 'storage'),
    TRUST_PROXY: 'loopback',
    JOBS_ENABLED: 'false',
    HOST: '127.0.0.1',
    PORT: '0',
  }),
  demo: false,
};
// In memory: the embedded database's own disk writes are not what this bench measures.
const database = await openPglite(undefined);
await database.migrate();
const mails = [];
const mailTransport = { kind: 'log', send: (mail) => void mails.push(mail), close: () => undefined };
const services = createServices(database, config, createLogger('silent'), undefined, { mailTransport });
await services.settings.ensureDefaults();
await services.operators.ensureFirstOperator();
const app = await buildApp({ config, database, services, logger: createLogger('silent') });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

async function call(pathName, body) {
  const response = await fetch(`${baseUrl}${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.99.0.1' },
    body: JSON.stringify(body),
  });
  return response.json();
}
const email = 'bench-downloads@example.com';
const invitationCode = (await services.settings.get('registration')).rootInviteCode;
await call('/api/auth/send_register_code', { email, invitationCode });
await services.mail.flush();
const code = /\b(\d{6})\b/.exec(mails.at(-1)?.subject ?? '')?.[1] ?? '';
const password = 'bench-password';
const registered = await call('/api/auth/register', { email, code, invitationCode, password, confirmPassword: password });
if (registered.code !== 200 || !registered.data.token) throw new Error('the bench member could not register');

// The package goes in as an upload would (the store, then its rows), without an operator session.
const apk = storedZip([
  { name: 'AndroidManifest.xml', content: Buffer.from([0x03, 0x00, 0x08, 0x00]) },
  { name: 'classes.dex', content: 'dex\n035\0bench' },
  { name: 'assets/payload.bin', content: randomBytes(30 * 1024 * 1024) },
]);
const stored = await services.storage.files.put(apk);
if (stored.sha256 !== createHash('sha256').update(apk).digest('hex')) throw new Error('stored file has another SHA-256');
const { rows } = await database.sql.executeSql(
  `with operator as (select id from operators order by created_at limit 1),
        pkg as (insert into app_release_packages (kind, size_bytes, sha256, uploaded_by)
                select 'full', $1, $2, id from operator returning id, uploaded_by)
   insert into app_releases (package_id, kind, version_code, version_name, notes, status, rollout_percent, created_by, published_at)
   select id, 'full', 99001, '9.9.1', 'bench', 'published', 100, uploaded_by, now() from pkg returning package_id`,
  [apk.length, stored.sha256],
);
const packageId = rows[0].package_id;
process.stdout.write(
  `${JSON.stringify({ baseUrl, token: registered.data.token, packageUrl: `/api/common/app_package/${packageId}.apk`, sizeBytes: apk.length })}\n`,
);
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
