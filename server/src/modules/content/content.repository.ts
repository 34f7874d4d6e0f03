import { and, asc, count, desc, eq, exists, gt, inArray, isNull, lte, notExists, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import {
  articleReads,
  articleTranslations,
  articles,
  bannerTranslations,
  banners,
  contentImages,
  noticeTranslations,
  notices,
} from '../../db/schema.js';

export type BannerRow = typeof banners.$inferSelect;
export type BannerTranslationRow = typeof bannerTranslations.$inferSelect;
export type NoticeRow = typeof notices.$inferSelect;
export type NoticeTranslationRow = typeof noticeTranslations.$inferSelect;
export type ArticleRow = typeof articles.$inferSelect;
export type ArticleTranslationRow = typeof articleTranslations.$inferSelect;

export interface Scheduled {
  sortOrder: number;
  startsAt: Date | null;
  endsAt: Date | null;
}

/** Showing at `now`: started (or no start) and not ended (or no end). */
function showingAt(table: typeof banners | typeof notices, now: Date) {
  return and(or(isNull(table.startsAt), lte(table.startsAt, now)), or(isNull(table.endsAt), gt(table.endsAt, now)));
}

export class ContentRepository {
  constructor(private readonly db: Db) {}

  // ── Images ──────────────────────────────────────────────────────────────────────────────────

  async insertImage(row: typeof contentImages.$inferInsert, tx: Db | Tx = this.db): Promise<string> {
    const [inserted] = await tx.insert(contentImages).values(row).returning({ id: contentImages.id });
    return inserted!.id;
  }

  async image(id: string) {
    const rows = await this.db
      .select({ contentType: contentImages.contentType, sha256: contentImages.sha256, sizeBytes: contentImages.sizeBytes })
      .from(contentImages)
      .where(eq(contentImages.id, id));
    return rows[0] ?? null;
  }

  /** Whether every id is a content image (so content never names a member's private upload). */
  async imagesExist(ids: string[], tx: Db | Tx = this.db): Promise<boolean> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return true;
    const [row] = await tx.select({ value: count() }).from(contentImages).where(inArray(contentImages.id, unique));
    return Number(row?.value ?? 0) === unique.length;
  }

  // ── Banners ─────────────────────────────────────────────────────────────────────────────────

  async bannerTranslations(ids: string[], tx: Db | Tx = this.db): Promise<BannerTranslationRow[]> {
    if (ids.length === 0) return [];
    return tx
      .select()
      .from(bannerTranslations)
      .where(inArray(bannerTranslations.bannerId, ids))
      .orderBy(asc(bannerTranslations.locale));
  }

  async allBanners(): Promise<BannerRow[]> {
    return this.db.select().from(banners).orderBy(asc(banners.sortOrder), desc(banners.createdAt));
  }

  async bannersShowing(now: Date): Promise<BannerRow[]> {
    return this.db
      .select()
      .from(banners)
      .where(showingAt(banners, now))
      .orderBy(asc(banners.sortOrder), desc(banners.createdAt), asc(banners.id));
  }

  async lockBanner(tx: Tx, id: string): Promise<BannerRow | null> {
    const rows = await tx.select().from(banners).where(eq(banners.id, id)).for('update');
    return rows[0] ?? null;
  }

  async saveBanner(
    tx: Tx,
    id: string | null,
    row: Scheduled & { link: string | null },
    translations: { locale: string; title: string; imageId: string }[],
  ): Promise<string> {
    let bannerId = id;
    if (bannerId) {
      await tx
        .update(banners)
        .set({ ...row, updatedAt: sql`now()` })
        .where(eq(banners.id, bannerId));
      await tx.delete(bannerTranslations).where(eq(bannerTranslations.bannerId, bannerId));
    } else {
      const [inserted] = await tx.insert(banners).values(row).returning({ id: banners.id });
      bannerId = inserted!.id;
    }
    await tx.insert(bannerTranslations).values(translations.map((translation) => ({ ...translation, bannerId: bannerId })));
    return bannerId;
  }

  async deleteBanner(tx: Tx, id: string): Promise<void> {
    await tx.delete(banners).where(eq(banners.id, id));
  }

  // ── Notices ─────────────────────────────────────────────────────────────────────────────────

  async noticeTranslations(ids: string[], tx: Db | Tx = this.db): Promise<NoticeTranslationRow[]> {
    if (ids.length === 0) return [];
    return tx
      .select()
      .from(noticeTranslations)
      .where(inArray(noticeTranslations.noticeId, ids))
      .orderBy(asc(noticeTranslations.locale));
  }

  async allNotices(): Promise<NoticeRow[]> {
    return this.db.select().from(notices).orderBy(asc(notices.sortOrder), desc(notices.createdAt));
  }

  async noticesShowing(now: Date): Promise<NoticeRow[]> {
    return this.db
      .select()
      .from(notices)
      .where(showingAt(notices, now))
      .orderBy(asc(notices.sortOrder), desc(notices.createdAt), asc(notices.id));
  }

  async lockNotice(tx: Tx, id: string): Promise<NoticeRow | null> {
    const rows = await tx.select().from(notices).where(eq(notices.id, id)).for('update');
    return rows[0] ?? null;
  }

  async saveNotice(tx: Tx, id: string | null, row: Scheduled, translations: { locale: string; text: string }[]): Promise<string> {
    let noticeId = id;
    if (noticeId) {
      await tx
        .update(notices)
        .set({ ...row, updatedAt: sql`now()` })
        .where(eq(notices.id, noticeId));
      await tx.delete(noticeTranslations).where(eq(noticeTranslations.noticeId, noticeId));
    } else {
      const [inserted] = await tx.insert(notices).values(row).returning({ id: notices.id });
      noticeId = inserted!.id;
    }
    await tx.insert(noticeTranslations).values(translations.map((translation) => ({ ...translation, noticeId: noticeId })));
    return noticeId;
  }

  async deleteNotice(tx: Tx, id: string): Promise<void> {
    await tx.delete(notices).where(eq(notices.id, id));
  }

  // ── Articles ────────────────────────────────────────────────────────────────────────────────

  async articleTranslations(ids: string[], tx: Db | Tx = this.db): Promise<ArticleTranslationRow[]> {
    if (ids.length === 0) return [];
    return tx
      .select()
      .from(articleTranslations)
      .where(inArray(articleTranslations.articleId, ids))
      .orderBy(asc(articleTranslations.locale));
  }

  async articlesForConsole(type: string | undefined, limit: number, offset: number) {
    const where = type ? eq(articles.type, type) : undefined;
    const rows = await this.db
      .select()
      .from(articles)
      .where(where)
      .orderBy(desc(articles.updatedAt), desc(articles.id))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ value: count() }).from(articles).where(where);
    return { rows, total: Number(total?.value ?? 0) };
  }

  async lockArticle(tx: Tx, id: string): Promise<ArticleRow | null> {
    const rows = await tx.select().from(articles).where(eq(articles.id, id)).for('update');
    return rows[0] ?? null;
  }

  async saveArticle(
    tx: Tx,
    id: string | null,
    row: { type: string; status: string; publishAt: Date | null; coverImageId: string | null },
    translations: { locale: string; title: string; summary: string; bodyHtml: string }[],
  ): Promise<string> {
    let articleId = id;
    if (articleId) {
      await tx
        .update(articles)
        .set({ ...row, updatedAt: sql`now()` })
        .where(eq(articles.id, articleId));
      await tx.delete(articleTranslations).where(eq(articleTranslations.articleId, articleId));
    } else {
      const [inserted] = await tx.insert(articles).values(row).returning({ id: articles.id });
      articleId = inserted!.id;
    }
    await tx.insert(articleTranslations).values(translations.map((translation) => ({ ...translation, articleId: articleId })));
    return articleId;
  }

  async deleteArticle(tx: Tx, id: string): Promise<void> {
    await tx.delete(articles).where(eq(articles.id, id));
  }

  /** Published and due at `now`, with a version in one of `locales` (the member's, the default). */
  private isVisible(now: Date, locales: string[]) {
    return and(
      eq(articles.status, 'published'),
      lte(articles.publishAt, now),
      exists(
        this.db
          .select({ one: sql`1` })
          .from(articleTranslations)
          .where(and(eq(articleTranslations.articleId, articles.id), inArray(articleTranslations.locale, locales))),
      ),
    );
  }

  async visibleArticles(type: string, now: Date, locales: string[], limit: number, offset: number) {
    const where = and(eq(articles.type, type), this.isVisible(now, locales));
    const rows = await this.db
      .select()
      .from(articles)
      .where(where)
      .orderBy(desc(articles.publishAt), desc(articles.id))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ value: count() }).from(articles).where(where);
    return { rows, total: Number(total?.value ?? 0) };
  }

  async visibleArticle(id: string, now: Date, locales: string[]): Promise<ArticleRow | null> {
    const rows = await this.db
      .select()
      .from(articles)
      .where(and(eq(articles.id, id), this.isVisible(now, locales)));
    return rows[0] ?? null;
  }

  /** Which of these articles the member has opened. */
  async readIds(memberId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: articleReads.articleId })
      .from(articleReads)
      .where(and(eq(articleReads.memberId, memberId), inArray(articleReads.articleId, ids)));
    return new Set(rows.map((row) => row.id));
  }

  async markRead(memberId: string, articleId: string): Promise<void> {
    await this.db.insert(articleReads).values({ memberId, articleId }).onConflictDoNothing();
  }

  /** Announcements the member can see and has not opened. */
  async unreadAnnouncements(memberId: string, now: Date, locales: string[]): Promise<number> {
    const [row] = await this.db
      .select({ value: count() })
      .from(articles)
      .where(
        and(
          eq(articles.type, 'announcement'),
          this.isVisible(now, locales),
          notExists(
            this.db
              .select({ one: sql`1` })
              .from(articleReads)
              .where(and(eq(articleReads.articleId, articles.id), eq(articleReads.memberId, memberId))),
          ),
        ),
      );
    return Number(row?.value ?? 0);
  }
}
