import type { z } from 'zod';
import {
  HELP_SEARCH_LIMIT,
  type AdminHelpArticle,
  type AdminHelpCategory,
  type ArticleStatus,
  type HelpArticleSummary,
  type HelpCategoryItem,
  type HelpDetail,
  type HelpSearchItem,
  type Locale,
  type helpArticleRequest,
  type helpCategoryRequest,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { Clock } from '../../lib/clock.js';
import type { RateLimitRule, RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { HelpArticleRow, HelpArticleTranslationRow, HelpRepository } from './help.repository.js';
import { auditedDelete, auditedSave, iso, localise, pickTranslation } from './localised.js';
import { plainText, sanitizedBodies } from './sanitize.js';

type CategoryInput = z.output<typeof helpCategoryRequest>;
type ArticleInput = z.output<typeof helpArticleRequest>;

/** A search reads many rows: at most this many per address a minute. */
export const HELP_SEARCH_PER_IP: RateLimitRule = { name: 'help-search:ip', maxAttempts: 60, windowS: 60 };

/** Around the first match: what a search result shows of an article's text. */
const SNIPPET_CONTEXT = 40;
export function snippetOf(text: string, query: string): string {
  const at = text.toLocaleLowerCase().indexOf(query.toLocaleLowerCase());
  if (at < 0) return text.slice(0, SNIPPET_CONTEXT * 2);
  const start = Math.max(0, at - SNIPPET_CONTEXT);
  const end = Math.min(text.length, at + query.length + SNIPPET_CONTEXT);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

function articleSnapshot(before: HelpArticleRow) {
  return {
    categoryId: before.categoryId,
    status: before.status,
    sortOrder: before.sortOrder,
    publishedAt: iso(before.publishedAt),
  };
}

/**
 * The help centre (second1, decision 028): categories and articles per language with the platform
 * default as fallback, draft → published, searched in the version the member reads. Operators with
 * `content.manage` write them, audited; bodies are sanitised on save with news's allow-list.
 */
export class HelpService {
  constructor(
    private readonly db: Db,
    private readonly repository: HelpRepository,
    private readonly audit: AuditRepository,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly rateLimits: RateLimitService,
  ) {}

  private async locales(locale: Locale) {
    const { defaultLocale } = await this.settings.get('site');
    return { defaultLocale, both: [...new Set([locale, defaultLocale])] };
  }

  // ── Members ─────────────────────────────────────────────────────────────────────────────────

  /** Categories in order that have an article the member can read, named in their language (or the default). */
  async categories(locale: Locale): Promise<HelpCategoryItem[]> {
    const { defaultLocale, both } = await this.locales(locale);
    const counts = await this.repository.articleCounts(both);
    const rows = (await this.repository.allCategories()).filter((row) => (counts.get(row.id) ?? 0) > 0);
    const translations = await this.repository.categoryTranslations(rows.map((row) => row.id));
    return localise(rows, translations, (entry) => entry.categoryId, locale, defaultLocale).map(({ row, translation }) => ({
      id: row.id,
      name: translation.name,
      locale: translation.locale as Locale,
      articleCount: counts.get(row.id) ?? 0,
    }));
  }

  private summaries(rows: HelpArticleRow[], translations: HelpArticleTranslationRow[], locale: Locale, defaultLocale: Locale) {
    return localise(rows, translations, (entry) => entry.articleId, locale, defaultLocale).map(
      ({ row, translation }): HelpArticleSummary => ({
        id: row.id,
        categoryId: row.categoryId,
        title: translation.title,
        locale: translation.locale as Locale,
      }),
    );
  }

  async list(locale: Locale, categoryId: string): Promise<HelpArticleSummary[]> {
    const { defaultLocale, both } = await this.locales(locale);
    const rows = await this.repository.visibleArticles(categoryId, both);
    return this.summaries(rows, await this.repository.articleTranslations(rows.map((row) => row.id)), locale, defaultLocale);
  }

  async search(locale: Locale, query: string, origin: RequestOrigin): Promise<HelpSearchItem[]> {
    await this.rateLimits.consume(HELP_SEARCH_PER_IP, origin.ip);
    const { defaultLocale } = await this.locales(locale);
    const rows = await this.repository.search(query, locale, defaultLocale, HELP_SEARCH_LIMIT);
    return rows.map(({ article, translation }) => ({
      id: article.id,
      categoryId: article.categoryId,
      title: translation.title,
      locale: translation.locale as Locale,
      snippet: snippetOf(translation.bodyText, query),
    }));
  }

  async detail(locale: Locale, id: string): Promise<HelpDetail> {
    const { defaultLocale, both } = await this.locales(locale);
    const row = await this.repository.visibleArticle(id, both);
    if (!row) throw AppError.notFound();
    const translation = pickTranslation(await this.repository.articleTranslations([id]), locale, defaultLocale);
    if (!translation) throw AppError.notFound();
    const category = pickTranslation(await this.repository.categoryTranslations([row.categoryId]), locale, defaultLocale);
    return {
      id: row.id,
      categoryId: row.categoryId,
      categoryName: category?.name ?? '',
      title: translation.title,
      locale: translation.locale as Locale,
      bodyHtml: translation.bodyHtml,
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  // ── Console: categories ─────────────────────────────────────────────────────────────────────

  async listCategories(): Promise<AdminHelpCategory[]> {
    const rows = await this.repository.allCategories();
    const translations = await this.repository.categoryTranslations(rows.map((row) => row.id));
    const counts = await this.repository.articleCounts(null);
    return rows.map((row) => ({
      id: row.id,
      sortOrder: row.sortOrder,
      translations: translations
        .filter((entry) => entry.categoryId === row.id)
        .map(({ locale, name }) => ({ locale: locale as Locale, name })),
      articleCount: counts.get(row.id) ?? 0,
      updatedAt: row.updatedAt.toISOString(),
    }));
  }

  async saveCategory(operatorId: string, id: string | null, input: CategoryInput, origin: RequestOrigin): Promise<string> {
    return auditedSave(this.db, this.audit, id, {
      operatorId,
      origin,
      targetType: 'help_category',
      lock: (tx) => this.repository.lockCategory(tx, id!),
      snapshot: async (tx, before) => ({ ...before, translations: await this.repository.categoryTranslations([before.id], tx) }),
      save: (tx) => this.repository.saveCategory(tx, id, { sortOrder: input.sortOrder }, input.translations),
      action: (before) => (before ? 'content.help_category_updated' : 'content.help_category_created'),
      after: input,
    });
  }

  /** A category with articles is not deleted (its articles would have nowhere to be). */
  async deleteCategory(operatorId: string, id: string, origin: RequestOrigin): Promise<void> {
    await auditedDelete(this.db, this.audit, id, {
      operatorId,
      origin,
      targetType: 'help_category',
      lock: (tx) => this.repository.lockCategory(tx, id),
      snapshot: async (tx, before) => {
        if ((await this.repository.articleCounts(null, tx)).get(id)) throw AppError.badRequest('help.category_not_empty');
        return { ...before, translations: await this.repository.categoryTranslations([id], tx) };
      },
      remove: (tx) => this.repository.deleteCategory(tx, id),
      action: 'content.help_category_deleted',
    });
  }

  // ── Console: articles ───────────────────────────────────────────────────────────────────────

  async listArticles(categoryId: string | undefined, page: number, pageSize: number) {
    const { rows, total } = await this.repository.articlesForConsole(categoryId, pageSize, (page - 1) * pageSize);
    const translations = await this.repository.articleTranslations(rows.map((row) => row.id));
    const items = rows.map((row): AdminHelpArticle => ({
      id: row.id,
      categoryId: row.categoryId,
      status: row.status as ArticleStatus,
      sortOrder: row.sortOrder,
      publishedAt: iso(row.publishedAt),
      translations: translations
        .filter((entry) => entry.articleId === row.id)
        .map(({ locale, title, bodyHtml }) => ({ locale: locale as Locale, title, bodyHtml })),
      updatedAt: row.updatedAt.toISOString(),
    }));
    return { items, total, page, pageSize };
  }

  async saveArticle(operatorId: string, id: string | null, input: ArticleInput, origin: RequestOrigin): Promise<string> {
    if (!(await this.repository.category(input.categoryId))) throw AppError.badRequest('help.category_missing');
    const translations = sanitizedBodies(input.translations).map((translation) => ({
      ...translation,
      bodyText: plainText(translation.bodyHtml),
    }));
    const after: Record<string, unknown> = {};
    return auditedSave(this.db, this.audit, id, {
      operatorId,
      origin,
      targetType: 'help_article',
      lock: (tx) => this.repository.lockArticle(tx, id!),
      snapshot: async (_tx, before) => articleSnapshot(before),
      save: (tx, before) => {
        // Published once: keeps the time it was first published; back to draft clears it.
        const publishedAt = input.status === 'published' ? (before?.publishedAt ?? this.clock.now()) : null;
        const row = { categoryId: input.categoryId, status: input.status, sortOrder: input.sortOrder, publishedAt };
        Object.assign(after, {
          ...row,
          publishedAt: iso(publishedAt),
          titles: Object.fromEntries(translations.map((translation) => [translation.locale, translation.title])),
        });
        return this.repository.saveArticle(tx, id, row, translations);
      },
      action: (before) =>
        !before
          ? 'content.help_article_created'
          : before.status !== 'published' && input.status === 'published'
            ? 'content.help_article_published'
            : 'content.help_article_updated',
      after,
    });
  }

  async deleteArticle(operatorId: string, id: string, origin: RequestOrigin): Promise<void> {
    await auditedDelete(this.db, this.audit, id, {
      operatorId,
      origin,
      targetType: 'help_article',
      lock: (tx) => this.repository.lockArticle(tx, id),
      snapshot: async (_tx, before) => articleSnapshot(before),
      remove: (tx) => this.repository.deleteArticle(tx, id),
      action: 'content.help_article_deleted',
    });
  }
}
