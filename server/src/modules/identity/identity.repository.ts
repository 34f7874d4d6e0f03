import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { accounts, feedbackImages, identityVerifications, members, uploads } from '../../db/schema.js';

export type IdentityRow = typeof identityVerifications.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;

export class IdentityRepository {
  constructor(private readonly db: Db) {}

  /** Holds the member's row for the rest of the transaction, so their uploads are counted one at a time. */
  async lockMember(memberId: string, tx: Tx): Promise<void> {
    await tx.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for('update');
  }

  /**
   * An upload nothing points at: not part of any submission, feedback or chat message, and not the avatar of any
   * account. (Avatars name uploads as "upload:<id>".)
   */
  private unused() {
    return sql`not exists (select 1 from ${identityVerifications} v
                 where v.front_upload_id = ${uploads.id} or v.back_upload_id = ${uploads.id} or v.selfie_upload_id = ${uploads.id})
           and not exists (select 1 from ${accounts} a where a.avatar = 'upload:' || ${uploads.id}::text)
           and not exists (select 1 from ${feedbackImages} f where f.upload_id = ${uploads.id})
           and not exists (select 1 from chat_messages c where c.upload_id = ${uploads.id})`;
  }

  /** Removes the member's uploads that nothing points at and that are older than `ageS`. */
  async deleteUnusedUploads(memberId: string, ageS: number, tx: Tx): Promise<number> {
    const rows = await tx
      .delete(uploads)
      .where(
        and(
          eq(uploads.ownerMemberId, memberId),
          sql`${uploads.createdAt} < now() - make_interval(secs => ${ageS})`,
          this.unused(),
        ),
      )
      .returning({ id: uploads.id });
    return rows.length;
  }

  /** How many of the member's uploads nothing points at, and their bytes. */
  async unusedUploads(memberId: string, tx: Tx): Promise<{ count: number; bytes: number }> {
    const [row] = await tx
      .select({ count: count(), bytes: sql<string>`coalesce(sum(${uploads.sizeBytes}), 0)::text` })
      .from(uploads)
      .where(and(eq(uploads.ownerMemberId, memberId), this.unused()));
    return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  async insertUpload(
    row: {
      ownerMemberId: string;
      purpose: string;
      contentType: string;
      sizeBytes: number;
      sha256: string;
      content: Buffer;
    },
    tx: Db | Tx = this.db,
  ): Promise<string> {
    const [inserted] = await tx.insert(uploads).values(row).returning({ id: uploads.id });
    return inserted!.id;
  }

  async findUpload(id: string): Promise<UploadRow | null> {
    const rows = await this.db.select().from(uploads).where(eq(uploads.id, id));
    return rows[0] ?? null;
  }

  /**
   * How many of these identity uploads belong to the member (so nobody can submit someone else's
   * images, or an avatar as a document).
   */
  async countOwnedUploads(memberId: string, ids: string[]): Promise<number> {
    const [row] = await this.db
      .select({ value: count() })
      .from(uploads)
      .where(and(eq(uploads.ownerMemberId, memberId), eq(uploads.purpose, 'identity'), inArray(uploads.id, ids)));
    return Number(row?.value ?? 0);
  }

  async latestFor(memberId: string): Promise<IdentityRow | null> {
    const rows = await this.db
      .select()
      .from(identityVerifications)
      .where(eq(identityVerifications.memberId, memberId))
      .orderBy(desc(identityVerifications.submittedAt))
      .limit(1);
    return rows[0] ?? null;
  }

  async insertSubmission(row: {
    memberId: string;
    documentType: string;
    idNumber: string;
    realName: string;
    frontUploadId: string;
    backUploadId: string;
    selfieUploadId: string;
  }): Promise<IdentityRow | null> {
    const rows = await this.db.insert(identityVerifications).values(row).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }

  /** Whether any submission of the member uses the upload (reviewers may see those images). */
  async uploadInSubmission(uploadId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: identityVerifications.id })
      .from(identityVerifications)
      .where(
        sql`${identityVerifications.frontUploadId} = ${uploadId} or ${identityVerifications.backUploadId} = ${uploadId} or ${identityVerifications.selfieUploadId} = ${uploadId}`,
      )
      .limit(1);
    return rows.length > 0;
  }

  async listByStatus(status: string, limit: number, offset: number) {
    const where = eq(identityVerifications.status, status);
    const items = await this.db
      .select({ verification: identityVerifications, email: members.email })
      .from(identityVerifications)
      .innerJoin(members, eq(members.id, identityVerifications.memberId))
      .where(where)
      .orderBy(status === 'pending' ? identityVerifications.submittedAt : desc(identityVerifications.submittedAt))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ value: count() }).from(identityVerifications).where(where);
    return { items, total: Number(total?.value ?? 0) };
  }

  async lockForReview(id: string, tx: Tx): Promise<IdentityRow | null> {
    const rows = await tx.select().from(identityVerifications).where(eq(identityVerifications.id, id)).for('update');
    return rows[0] ?? null;
  }

  async review(
    id: string,
    outcome: { status: 'approved' | 'failed'; failReason: string | null; reviewerId: string },
    tx: Tx,
  ): Promise<void> {
    await tx
      .update(identityVerifications)
      .set({ ...outcome, reviewedAt: sql`now()` })
      .where(eq(identityVerifications.id, id));
  }
}
