import type { SqlExecutor } from '../../db/client.js';
import type { FileStore } from './file-store.js';

/** The tables whose bytes moved into the file store (decision 053, migration 0043). */
const TABLES_WITH_FILES = ['app_release_packages', 'document_versions', 'content_images'] as const;

/**
 * Moves bytes that a database from before migration 0043 still holds into the store, one row at a
 * time: the file is written (and checked against the row's SHA-256) before the row's copy is
 * emptied, so a crash at any point loses nothing and a second run carries on. Runs before the
 * migrations (which refuse while any bytes remain); on a migrated or new database it does nothing.
 * Answers how many files it moved.
 */
export async function moveStoredBytesOut(sql: SqlExecutor, files: FileStore): Promise<number> {
  let moved = 0;
  for (const table of TABLES_WITH_FILES) {
    const { rows: columns } = await sql.executeSql(
      `select is_nullable from information_schema.columns
        where table_schema = current_schema() and table_name = $1 and column_name = 'content'`,
      [table],
    );
    if (columns.length === 0) continue;
    if ((columns[0] as { is_nullable: string }).is_nullable === 'NO') {
      await sql.executeSql(`alter table "${table}" alter column "content" drop not null`);
    }
    const { rows: pending } = await sql.executeSql(`select id from "${table}" where content is not null`);
    for (const { id } of pending as { id: string }[]) {
      const { rows } = await sql.executeSql(`select content, sha256, size_bytes from "${table}" where id = $1`, [id]);
      const row = rows[0] as { content: Uint8Array | null; sha256: string; size_bytes: number } | undefined;
      if (!row?.content) continue;
      const stored = await files.put(Buffer.from(row.content));
      if (stored.sha256 !== row.sha256 || stored.sizeBytes !== Number(row.size_bytes)) {
        throw new Error(`${table} ${id}: its bytes do not match its SHA-256 or size; left in the database`);
      }
      await sql.executeSql(`update "${table}" set content = null where id = $1`, [id]);
      moved += 1;
    }
  }
  return moved;
}
