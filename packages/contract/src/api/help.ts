import { z } from 'zod';
import { LOCALES } from '../locales.js';
import { ValidationReason, requiredText, stringTypeError } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';
import { ARTICLE_BODY_MAX_LENGTH, ARTICLE_STATUSES, CONTENT_TITLE_MAX_LENGTH, localeSchema, translationsOf } from './content.js';

/**
 * The help centre (second1, issue 13, decision 028): categories and articles, each with a version
 * per language; members read their language's, or the platform default's, and search them.
 */

export const HELP_CATEGORY_NAME_MAX_LENGTH = 60;
/** A search is 1–50 characters once trimmed; it answers at most HELP_SEARCH_LIMIT articles. */
export const HELP_QUERY_MAX_LENGTH = 50;
export const HELP_SEARCH_LIMIT = 50;

const sortOrder = z
  .number({ error: ValidationReason.invalid })
  .int({ error: ValidationReason.invalid })
  .min(0, { error: ValidationReason.invalid })
  .max(9999, { error: ValidationReason.invalid })
  .default(0);

// ── Member calls (public: help has no member data) ─────────────────────────────────────────────

/** GET /api/common/help_categories: categories with at least one article showing, in order. */
export const helpCategoryItem = z.object({
  id: z.string(),
  name: z.string(),
  locale: z.enum(LOCALES),
  articleCount: z.number().int().nonnegative(),
});
export type HelpCategoryItem = z.infer<typeof helpCategoryItem>;
export const helpCategoriesResponse = z.array(helpCategoryItem);

/** GET /api/common/help_list?categoryId=: the category's published articles, in order. */
export const helpListQuery = z.object({ categoryId: z.uuid({ error: ValidationReason.invalid }) });
export const helpArticleSummary = z.object({
  id: z.string(),
  categoryId: z.string(),
  title: z.string(),
  locale: z.enum(LOCALES),
});
export type HelpArticleSummary = z.infer<typeof helpArticleSummary>;
export const helpListResponse = z.array(helpArticleSummary);

/** GET /api/common/help_search?q=: articles whose title or text (as the member reads it) contains q. */
export const helpSearchQuery = z.object({
  q: z
    .string({ error: stringTypeError })
    .trim()
    .min(1, { error: ValidationReason.required })
    .max(HELP_QUERY_MAX_LENGTH, { error: ValidationReason.tooLong }),
});
export const helpSearchItem = helpArticleSummary.extend({ snippet: z.string() });
export type HelpSearchItem = z.infer<typeof helpSearchItem>;
export const helpSearchResponse = z.array(helpSearchItem);

/** GET /api/common/help_detail?id=: one published article with its sanitised HTML. */
export const helpDetailQuery = z.object({ id: z.uuid({ error: ValidationReason.invalid }) });
export const helpDetail = helpArticleSummary.extend({
  categoryName: z.string(),
  bodyHtml: z.string(),
  updatedAt: z.iso.datetime(),
});
export type HelpDetail = z.infer<typeof helpDetail>;

// ── Console ─────────────────────────────────────────────────────────────────────────────────────

export const helpCategoryRequest = z.object({
  sortOrder,
  translations: translationsOf(z.object({ locale: localeSchema, name: requiredText(HELP_CATEGORY_NAME_MAX_LENGTH) })),
});
export type HelpCategoryRequest = z.input<typeof helpCategoryRequest>;

export const adminHelpCategory = z.object({
  id: z.string(),
  sortOrder: z.number().int(),
  translations: z.array(z.object({ locale: z.enum(LOCALES), name: z.string() })),
  articleCount: z.number().int().nonnegative(),
  updatedAt: z.iso.datetime(),
});
export type AdminHelpCategory = z.infer<typeof adminHelpCategory>;
export const adminHelpCategoriesResponse = z.array(adminHelpCategory);

export const helpArticleRequest = z.object({
  categoryId: z.uuid({ error: ValidationReason.invalid }),
  status: z.enum(ARTICLE_STATUSES, { error: ValidationReason.invalid }),
  sortOrder,
  translations: translationsOf(
    z.object({
      locale: localeSchema,
      title: requiredText(CONTENT_TITLE_MAX_LENGTH),
      bodyHtml: z
        .string({ error: stringTypeError })
        .max(ARTICLE_BODY_MAX_LENGTH, { error: ValidationReason.tooLong })
        .refine((value) => value.trim() !== '', { error: ValidationReason.required }),
    }),
  ),
});
export type HelpArticleRequest = z.input<typeof helpArticleRequest>;

export const adminHelpArticle = z.object({
  id: z.string(),
  categoryId: z.string(),
  status: z.enum(ARTICLE_STATUSES),
  sortOrder: z.number().int(),
  publishedAt: z.iso.datetime().nullable(),
  translations: z.array(z.object({ locale: z.enum(LOCALES), title: z.string(), bodyHtml: z.string() })),
  updatedAt: z.iso.datetime(),
});
export type AdminHelpArticle = z.infer<typeof adminHelpArticle>;
export const adminHelpArticlesQuery = pageQuery.extend({ categoryId: z.uuid().optional() });
export const adminHelpArticlesResponse = pageOf(adminHelpArticle);
