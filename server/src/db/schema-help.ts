import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { operators } from './schema-core.js';

/**
 * The help centre and platform documents (issue 13, decision 028): help categories and articles,
 * each with one version per language, and PDFs the operator uploads, one row per uploaded version.
 */

/** A help centre category, lowest order first. */
export const helpCategories = pgTable('help_categories', {
  id: uuid('id').primaryKey().defaultRandom(),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const helpCategoryTranslations = pgTable(
  'help_category_translations',
  {
    categoryId: uuid('category_id')
      .notNull()
      .references(() => helpCategories.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    name: text('name').notNull(),
  },
  (table) => [primaryKey({ columns: [table.categoryId, table.locale] })],
);

/** A help article: draft → published; members see published ones, lowest order first. */
export const helpArticles = pgTable(
  'help_articles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => helpCategories.id),
    status: text('status').notNull().default('draft'),
    sortOrder: integer('sort_order').notNull().default(0),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('help_articles_status_check', sql`${table.status} in ('draft', 'published')`),
    check('help_articles_published_check', sql`${table.status} = 'draft' or ${table.publishedAt} is not null`),
    index('help_articles_category_idx').on(table.categoryId, table.status, table.sortOrder),
  ],
);

/** An article's version in one language: the body stored sanitised, and its plain text for search. */
export const helpArticleTranslations = pgTable(
  'help_article_translations',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => helpArticles.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    title: text('title').notNull(),
    bodyHtml: text('body_html').notNull(),
    bodyText: text('body_text').notNull(),
  },
  (table) => [primaryKey({ columns: [table.articleId, table.locale] })],
);

/** A platform document (white paper, terms, privacy, other); its content is its versions. */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('documents_kind_check', sql`${table.kind} in ('white_paper', 'terms', 'privacy', 'other')`)],
);

/** One uploaded PDF of a document in one language: version n+1 of that language on every upload. */
export const documentVersions = pgTable(
  'document_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    published: boolean('published').notNull().default(true),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('document_versions_version_unique').on(table.documentId, table.locale, table.version),
    check('document_versions_version_check', sql`${table.version} >= 1`),
    check('document_versions_size_check', sql`${table.sizeBytes} between 1 and 20971520`),
  ],
);
