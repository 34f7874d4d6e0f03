import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, type SqlExecutor } from '../src/db/client.js';
import { LocalFileStore } from '../src/lib/storage/file-store.js';
import { moveStoredBytesOut } from '../src/lib/storage/move-out.js';

/** Decision 053: a database from before migration 0043 has its bytes moved to the file store, losing none. */

let client: PGlite;
let sql: SqlExecutor;
let work: string;
let store: LocalFileStore;

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'custos-move-'));
  // The migrations as they were before 0043.
  const before = path.join(work, 'drizzle');
  cpSync(migrationsFolder(), before, { recursive: true });
  const journalPath = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.tag < '0043');
  writeFileSync(journalPath, JSON.stringify(journal));
  client = await PGlite.create('memory://');
  await migrate(drizzle(client), { migrationsFolder: before });
  sql = {
    async executeSql(text, values) {
      if (!values || values.length === 0) {
        const last = (await client.exec(text)).at(-1);
        return { rows: last?.rows ?? [], rowCount: last?.rows.length ?? 0 };
      }
      const result = await client.query(text, values);
      return { rows: result.rows, rowCount: result.rows.length };
    },
  };
  store = new LocalFileStore(path.join(work, 'storage'));
});
afterAll(async () => {
  await client.close();
  rmSync(work, { recursive: true, force: true });
});

async function readStored(hash: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of store.read(hash)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('moving stored bytes out of the database', () => {
  it('moves every package, document and image into the store, then 0043 drops the columns; a second run moves nothing', async () => {
    const pkg = randomBytes(200_000);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(5000)]);
    const image = randomBytes(3000);
    const operatorId = randomUUID();
    const documentId = randomUUID();
    // The rows as the old code stored them (foreign keys aside: no operator or document is needed for this).
    await client.exec('set session_replication_role = replica');
    await client.query(
      `insert into app_release_packages (kind, size_bytes, sha256, content, uploaded_by) values ('hot', $1, $2, $3, $4)`,
      [pkg.length, sha256(pkg), pkg, operatorId],
    );
    await client.query(
      `insert into document_versions (document_id, locale, version, title, size_bytes, sha256, content, uploaded_by)
       values ($1, 'en', 1, 'Terms', $2, $3, $4, $5)`,
      [documentId, pdf.length, sha256(pdf), pdf, operatorId],
    );
    await client.query(
      `insert into content_images (uploaded_by, content_type, size_bytes, sha256, content) values ($1, 'image/png', $2, $3, $4)`,
      [operatorId, image.length, sha256(image), image],
    );

    // Migrating first is refused, and nothing is lost.
    await expect(migrate(drizzle(client), { migrationsFolder: migrationsFolder() })).rejects.toThrow();
    const kept = await client.query<{ n: number }>(
      `select count(*)::int as n from app_release_packages where content is not null`,
    );
    expect(kept.rows[0]!.n).toBe(1);

    expect(await moveStoredBytesOut(sql, store)).toBe(3);
    for (const content of [pkg, pdf, image]) {
      expect(await store.sizeOf(sha256(content))).toBe(content.length);
      expect((await readStored(sha256(content))).equals(content)).toBe(true);
    }
    expect(await moveStoredBytesOut(sql, store)).toBe(0);

    await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
    const columns = await client.query<{ table_name: string }>(
      `select table_name from information_schema.columns where column_name = 'content'
         and table_name in ('app_release_packages', 'document_versions', 'content_images')`,
    );
    expect(columns.rows).toEqual([]);
    // On the migrated database it finds nothing to do.
    expect(await moveStoredBytesOut(sql, store)).toBe(0);
    const sizes = await client.query<{ size_bytes: number }>(`select size_bytes from app_release_packages`);
    expect(sizes.rows).toEqual([{ size_bytes: pkg.length }]);
  });
});
