import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { members, operators } from './schema-core.js';

/**
 * Operator content (issue 13, decision 026): images operators upload, banners, the notice marquee
 * and news articles, each with one version per language, and which announcements a member opened.
 */

/** An image an operator uploaded for content: checked by its bytes like members' uploads, served publicly. */
export const contentImages = pgTable(
  'content_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => operators.id),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('content_images_content_type_check', sql`${table.contentType} in ('image/jpeg', 'image/png', 'image/webp')`),
    check('content_images_size_check', sql`${table.sizeBytes} between 1 and 2097152`),
  ],
);

/** Order and an optional showing window: what banners and notices share (a check keeps the end after the start). */
function scheduleColumns() {
  return {
    sortOrder: integer('sort_order').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  };
}
function scheduleCheck(name: string, table: { startsAt: AnyPgColumn; endsAt: AnyPgColumn }) {
  return check(name, sql`${table.endsAt} is null or ${table.startsAt} is null or ${table.endsAt} > ${table.startsAt}`);
}

/** A banner of the Home carousel: shown from `starts_at` until `ends_at` (either open), lowest order first. */
export const banners = pgTable(
  'banners',
  { id: uuid('id').primaryKey().defaultRandom(), link: text('link'), ...scheduleColumns() },
  (table) => [scheduleCheck('banners_schedule_check', table)],
);

export const bannerTranslations = pgTable(
  'banner_translations',
  {
    bannerId: uuid('banner_id')
      .notNull()
      .references(() => banners.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    title: text('title').notNull(),
    imageId: uuid('image_id')
      .notNull()
      .references(() => contentImages.id),
  },
  (table) => [primaryKey({ columns: [table.bannerId, table.locale] })],
);

/** A line of the notice marquee. */
export const notices = pgTable('notices', { id: uuid('id').primaryKey().defaultRandom(), ...scheduleColumns() }, (table) => [
  scheduleCheck('notices_schedule_check', table),
]);

export const noticeTranslations = pgTable(
  'notice_translations',
  {
    noticeId: uuid('notice_id')
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    text: text('text').notNull(),
  },
  (table) => [primaryKey({ columns: [table.noticeId, table.locale] })],
);

/** A news article: draft → published; a published one shows from `publish_at` (its scheduled time). */
export const articles = pgTable(
  'articles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    status: text('status').notNull().default('draft'),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    coverImageId: uuid('cover_image_id').references(() => contentImages.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('articles_type_check', sql`${table.type} in ('announcement', 'market', 'financial')`),
    check('articles_status_check', sql`${table.status} in ('draft', 'published')`),
    check('articles_published_check', sql`${table.status} = 'draft' or ${table.publishAt} is not null`),
    index('articles_listing_idx').on(table.type, table.status, table.publishAt),
  ],
);

/** An article's version in one language; the body is stored sanitised. */
export const articleTranslations = pgTable(
  'article_translations',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    bodyHtml: text('body_html').notNull(),
  },
  (table) => [primaryKey({ columns: [table.articleId, table.locale] })],
);

/** The announcements a member has opened (the unread badge counts the others). */
export const articleReads = pgTable(
  'article_reads',
  {
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.memberId, table.articleId] })],
);
