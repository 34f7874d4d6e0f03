import { and, asc, count, desc, eq, exists, inArray, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { helpArticleTranslations, helpArticles, helpCategories, helpCategoryTranslations } from '../../db/schema.js';

export type HelpCategoryRow = typeof helpCategories.$inferSelect;
export type HelpCategoryTranslationRow = typeof helpCategoryTranslations.$inferSelect;
export type HelpArticleRow = typeof helpArticles.$inferSelect;
export type HelpArticleTranslationRow = typeof helpArticleTranslations.$inferSelect;

/** `%`, `_` and `\` typed by a member match themselves, not any text. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The help centre's categories and articles (decision 028); only this file writes their SQL. */
export class HelpRepository {
  constructor(private readonly db: Db) {}

  // ── Categories ──────────────────────────────────────────────────────────────────────────────

  async categoryTranslations(ids: string[], tx: Db | Tx = this.db): Promise<HelpCategoryTranslationRow[]> {
    if (ids.length === 0) return [];
    return tx
      .select()
      .from(helpCategoryTranslations)
      .where(inArray(helpCategoryTranslations.categoryId, ids))
      .orderBy(asc(helpCategoryTranslations.locale));
  }

  async allCategories(): Promise<HelpCategoryRow[]> {
    return this.db.select().from(helpCategories).orderBy(asc(helpCategories.sortOrder), asc(helpCategories.createdAt));
  }

  async category(id: string): Promise<HelpCategoryRow | null> {
    const rows = await this.db.select().from(helpCategories).where(eq(helpCategories.id, id));
    return rows[0] ?? null;
  }

  async lockCategory(tx: Tx, id: string): Promise<HelpCategoryRow | null> {
    const rows = await tx.select().from(helpCategories).where(eq(helpCategories.id, id)).for('update');
    return rows[0] ?? null;
  }

  async saveCategory(
    tx: Tx,
    id: string | null,
    row: { sortOrder: number },
    translations: { locale: string; name: string }[],
  ): Promise<string> {
    let categoryId = id;
    if (categoryId) {
      await tx
        .update(helpCategories)
        .set({ ...row, updatedAt: sql`now()` })
        .where(eq(helpCategories.id, categoryId));
      await tx.delete(helpCategoryTranslations).where(eq(helpCategoryTranslations.categoryId, categoryId));
    } else {
      const [inserted] = await tx.insert(helpCategories).values(row).returning({ id: helpCategories.id });
      categoryId = inserted!.id;
    }
    await tx
      .insert(helpCategoryTranslations)
      .values(translations.map((translation) => ({ ...translation, categoryId: categoryId })));
    return categoryId;
  }

  async deleteCategory(tx: Tx, id: string): Promise<void> {
    await tx.delete(helpCategories).where(eq(helpCategories.id, id));
  }

  /** Articles per category (all, for the console; or published and readable in `locales`). */
  async articleCounts(locales: string[] | null, tx: Db | Tx = this.db): Promise<Map<string, number>> {
    const rows = await tx
      .select({ categoryId: helpArticles.categoryId, value: count() })
      .from(helpArticles)
      .where(locales ? this.isVisible(locales) : undefined)
      .groupBy(helpArticles.categoryId);
    return new Map(rows.map((row) => [row.categoryId, Number(row.value)]));
  }

  // ── Articles ────────────────────────────────────────────────────────────────────────────────

  async articleTranslations(ids: string[], tx: Db | Tx = this.db): Promise<HelpArticleTranslationRow[]> {
    if (ids.length === 0) return [];
    return tx
      .select()
      .from(helpArticleTranslations)
      .where(inArray(helpArticleTranslations.articleId, ids))
      .orderBy(asc(helpArticleTranslations.locale));
  }

  async articlesForConsole(categoryId: string | undefined, limit: number, offset: number) {
    const where = categoryId ? eq(helpArticles.categoryId, categoryId) : undefined;
    const rows = await this.db
      .select()
      .from(helpArticles)
      .where(where)
      .orderBy(asc(helpArticles.categoryId), asc(helpArticles.sortOrder), desc(helpArticles.updatedAt))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ value: count() }).from(helpArticles).where(where);
    return { rows, total: Number(total?.value ?? 0) };
  }

  async lockArticle(tx: Tx, id: string): Promise<HelpArticleRow | null> {
    const rows = await tx.select().from(helpArticles).where(eq(helpArticles.id, id)).for('update');
    return rows[0] ?? null;
  }

  async saveArticle(
    tx: Tx,
    id: string | null,
    row: { categoryId: string; status: string; sortOrder: number; publishedAt: Date | null },
    translations: { locale: string; title: string; bodyHtml: string; bodyText: string }[],
  ): Promise<string> {
    let articleId = id;
    if (articleId) {
      await tx
        .update(helpArticles)
        .set({ ...row, updatedAt: sql`now()` })
        .where(eq(helpArticles.id, articleId));
      await tx.delete(helpArticleTranslations).where(eq(helpArticleTranslations.articleId, articleId));
    } else {
      const [inserted] = await tx.insert(helpArticles).values(row).returning({ id: helpArticles.id });
      articleId = inserted!.id;
    }
    await tx
      .insert(helpArticleTranslations)
      .values(translations.map((translation) => ({ ...translation, articleId: articleId })));
    return articleId;
  }

  async deleteArticle(tx: Tx, id: string): Promise<void> {
    await tx.delete(helpArticles).where(eq(helpArticles.id, id));
  }

  /** Published, with a version in one of `locales` (the member's, the default). */
  private isVisible(locales: string[]): SQL | undefined {
    return and(
      eq(helpArticles.status, 'published'),
      exists(
        this.db
          .select({ one: sql`1` })
          .from(helpArticleTranslations)
          .where(and(eq(helpArticleTranslations.articleId, helpArticles.id), inArray(helpArticleTranslations.locale, locales))),
      ),
    );
  }

  async visibleArticles(categoryId: string, locales: string[]): Promise<HelpArticleRow[]> {
    return this.db
      .select()
      .from(helpArticles)
      .where(and(eq(helpArticles.categoryId, categoryId), this.isVisible(locales)))
      .orderBy(asc(helpArticles.sortOrder), asc(helpArticles.publishedAt), asc(helpArticles.id));
  }

  async visibleArticle(id: string, locales: string[]): Promise<HelpArticleRow | null> {
    const rows = await this.db
      .select()
      .from(helpArticles)
      .where(and(eq(helpArticles.id, id), this.isVisible(locales)));
    return rows[0] ?? null;
  }

  /**
   * Published articles whose version as the member reads it — their language's, or the default
   * language's when there is none in theirs — has `text` in its title or plain text, case
   * insensitively; titles matching first, then the category order and the article order.
   */
  async search(text: string, locale: string, defaultLocale: string, limit: number) {
    const pattern = likePattern(text);
    const shown = or(
      eq(helpArticleTranslations.locale, locale),
      and(
        eq(helpArticleTranslations.locale, defaultLocale),
        notExists(
          this.db
            .select({ one: sql`1` })
            .from(sql`help_article_translations as own`)
            .where(sql`own.article_id = ${helpArticles.id} and own.locale = ${locale}`),
        ),
      ),
    );
    const titleMatches = sql`${helpArticleTranslations.title} ilike ${pattern}`;
    return this.db
      .select({ article: helpArticles, translation: helpArticleTranslations })
      .from(helpArticles)
      .innerJoin(helpArticleTranslations, eq(helpArticleTranslations.articleId, helpArticles.id))
      .innerJoin(helpCategories, eq(helpCategories.id, helpArticles.categoryId))
      .where(
        and(
          eq(helpArticles.status, 'published'),
          shown,
          or(titleMatches, sql`${helpArticleTranslations.bodyText} ilike ${pattern}`),
        ),
      )
      .orderBy(
        sql`case when ${titleMatches} then 0 else 1 end`,
        asc(helpCategories.sortOrder),
        asc(helpArticles.sortOrder),
        asc(helpArticles.id),
      )
      .limit(limit);
  }
}
