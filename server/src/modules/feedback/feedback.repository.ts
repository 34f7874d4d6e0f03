import { and, asc, count, desc, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { feedback, feedbackImages, members, uploads } from '../../db/schema.js';

export type FeedbackRow = typeof feedback.$inferSelect;
export interface FeedbackWithImages extends FeedbackRow {
  imageIds: string[];
}

export class FeedbackRepository {
  constructor(private readonly db: Db) {}

  /**
   * How many of these uploads the member may attach: their own feedback images that no feedback
   * carries yet (so nobody attaches another's image, an identity document, or one image twice).
   */
  async countAttachable(memberId: string, uploadIds: string[], tx: Db | Tx = this.db): Promise<number> {
    if (uploadIds.length === 0) return 0;
    const [row] = await tx
      .select({ value: count() })
      .from(uploads)
      .where(
        and(
          eq(uploads.ownerMemberId, memberId),
          eq(uploads.purpose, 'feedback'),
          inArray(uploads.id, uploadIds),
          notExists(
            tx.select({ id: feedbackImages.uploadId }).from(feedbackImages).where(eq(feedbackImages.uploadId, uploads.id)),
          ),
        ),
      );
    return Number(row?.value ?? 0);
  }

  async insert(
    tx: Tx,
    row: { memberId: string; title: string; content: string; orderNo: string | null },
    imageIds: string[],
  ): Promise<FeedbackRow> {
    const [inserted] = await tx.insert(feedback).values(row).returning();
    if (imageIds.length > 0) {
      await tx
        .insert(feedbackImages)
        .values(imageIds.map((uploadId, position) => ({ feedbackId: inserted!.id, uploadId, position })));
    }
    return inserted!;
  }

  private async withImages(rows: FeedbackRow[]): Promise<FeedbackWithImages[]> {
    if (rows.length === 0) return [];
    const images = await this.db
      .select()
      .from(feedbackImages)
      .where(
        inArray(
          feedbackImages.feedbackId,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(asc(feedbackImages.position));
    return rows.map((row) => ({
      ...row,
      imageIds: images.filter((image) => image.feedbackId === row.id).map((image) => image.uploadId),
    }));
  }

  async listForMember(memberId: string, limit: number, offset: number) {
    const where = eq(feedback.memberId, memberId);
    const rows = await this.db
      .select()
      .from(feedback)
      .where(where)
      .orderBy(desc(feedback.createdAt), desc(feedback.id))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ value: count() }).from(feedback).where(where);
    return { items: await this.withImages(rows), total: Number(total?.value ?? 0) };
  }

  async findWithImages(id: string): Promise<FeedbackWithImages | null> {
    const rows = await this.db.select().from(feedback).where(eq(feedback.id, id));
    return (await this.withImages(rows))[0] ?? null;
  }

  /** The queue: awaiting replies oldest first (the longest wait on top), replied ones newest first. */
  async listByStatus(status: string, limit: number, offset: number) {
    const where = eq(feedback.status, status);
    const rows = await this.db
      .select({ feedback, email: members.email })
      .from(feedback)
      .innerJoin(members, eq(members.id, feedback.memberId))
      .where(where)
      .orderBy(status === 'awaiting_reply' ? asc(feedback.createdAt) : desc(feedback.repliedAt))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ value: count() }).from(feedback).where(where);
    const withImages = await this.withImages(rows.map((row) => row.feedback));
    return {
      items: withImages.map((item, index) => ({ ...item, email: rows[index]!.email })),
      total: Number(total?.value ?? 0),
    };
  }

  async lock(tx: Tx, id: string): Promise<FeedbackRow | null> {
    const rows = await tx.select().from(feedback).where(eq(feedback.id, id)).for('update');
    return rows[0] ?? null;
  }

  async reply(tx: Tx, id: string, reply: string, operatorId: string): Promise<void> {
    await tx
      .update(feedback)
      .set({ status: 'replied', reply, repliedBy: operatorId, repliedAt: sql`now()` })
      .where(eq(feedback.id, id));
  }

  /** A feedback's image, for operators: only images some feedback carries. */
  async imageOf(feedbackId: string, uploadId: string) {
    const rows = await this.db
      .select({ contentType: uploads.contentType, content: uploads.content })
      .from(feedbackImages)
      .innerJoin(uploads, eq(uploads.id, feedbackImages.uploadId))
      .where(and(eq(feedbackImages.feedbackId, feedbackId), eq(feedbackImages.uploadId, uploadId)));
    return rows[0] ?? null;
  }
}
