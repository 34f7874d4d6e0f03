import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { documentVersions, documents } from '../../db/schema.js';

export type DocumentRow = typeof documents.$inferSelect;

/** Every column of a version but its bytes (lists never read the PDFs). */
const versionColumns = {
  id: documentVersions.id,
  documentId: documentVersions.documentId,
  locale: documentVersions.locale,
  version: documentVersions.version,
  title: documentVersions.title,
  published: documentVersions.published,
  sizeBytes: documentVersions.sizeBytes,
  sha256: documentVersions.sha256,
  createdAt: documentVersions.createdAt,
};
export type DocumentVersionInfo = {
  id: string;
  documentId: string;
  locale: string;
  version: number;
  title: string;
  published: boolean;
  sizeBytes: number;
  sha256: string;
  createdAt: Date;
};

/** Platform documents and their versions (decision 028); only this file writes their SQL. */
export class DocumentsRepository {
  constructor(private readonly db: Db) {}

  async all(): Promise<DocumentRow[]> {
    return this.db.select().from(documents).orderBy(asc(documents.kind), asc(documents.createdAt));
  }

  async insert(tx: Tx, row: { kind: string; createdBy: string }): Promise<string> {
    const [inserted] = await tx.insert(documents).values(row).returning({ id: documents.id });
    return inserted!.id;
  }

  async lock(tx: Tx, id: string): Promise<DocumentRow | null> {
    const rows = await tx.select().from(documents).where(eq(documents.id, id)).for('update');
    return rows[0] ?? null;
  }

  async versions(documentIds: string[]): Promise<DocumentVersionInfo[]> {
    if (documentIds.length === 0) return [];
    return this.db
      .select(versionColumns)
      .from(documentVersions)
      .where(inArray(documentVersions.documentId, documentIds))
      .orderBy(asc(documentVersions.locale), desc(documentVersions.version));
  }

  /** The next version number of a document in one language (the document is locked by the caller). */
  async nextVersion(tx: Tx, documentId: string, locale: string): Promise<number> {
    const [row] = await tx
      .select({ value: sql<number>`coalesce(max(${documentVersions.version}), 0)::int` })
      .from(documentVersions)
      .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.locale, locale)));
    return Number(row?.value ?? 0) + 1;
  }

  async insertVersion(tx: Tx, row: typeof documentVersions.$inferInsert): Promise<string> {
    const [inserted] = await tx.insert(documentVersions).values(row).returning({ id: documentVersions.id });
    return inserted!.id;
  }

  async lockVersion(tx: Tx, id: string): Promise<DocumentVersionInfo | null> {
    const rows = await tx.select(versionColumns).from(documentVersions).where(eq(documentVersions.id, id)).for('update');
    return rows[0] ?? null;
  }

  async setPublished(tx: Tx, id: string, published: boolean): Promise<void> {
    await tx.update(documentVersions).set({ published }).where(eq(documentVersions.id, id));
  }

  /** The newest published version of every document in each language (members' view). */
  async newestPublished(documentIds: string[] | null): Promise<DocumentVersionInfo[]> {
    return this.db
      .selectDistinctOn([documentVersions.documentId, documentVersions.locale], versionColumns)
      .from(documentVersions)
      .where(
        and(eq(documentVersions.published, true), documentIds ? inArray(documentVersions.documentId, documentIds) : undefined),
      )
      .orderBy(documentVersions.documentId, documentVersions.locale, desc(documentVersions.version));
  }

  async kinds(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: documents.id, kind: documents.kind })
      .from(documents)
      .where(inArray(documents.id, ids));
    return new Map(rows.map((row) => [row.id, row.kind]));
  }

  /** A published version's stored file (a withdrawn version is no longer served). */
  async publishedFile(versionId: string) {
    const rows = await this.db
      .select({ sha256: documentVersions.sha256, sizeBytes: documentVersions.sizeBytes })
      .from(documentVersions)
      .where(and(eq(documentVersions.id, versionId), eq(documentVersions.published, true)));
    return rows[0] ?? null;
  }
}
