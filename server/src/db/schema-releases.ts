import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { operators } from './schema-core.js';

/**
 * App releases (issue 16, decision 037): packages the operator uploads (a full Android APK or a hot
 * bundle zip), and releases made of them — a version code higher than every earlier release's,
 * published to a share of members and possibly rolled back.
 */

/** An uploaded package: its bytes as received, their size and SHA-256 (checked against the operator's). */
export const appReleasePackages = pgTable(
  'app_release_packages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('app_release_packages_kind_check', sql`${table.kind} in ('full', 'hot')`),
    check('app_release_packages_size_check', sql`${table.sizeBytes} between 1 and 157286400`),
    check('app_release_packages_sha256_check', sql`${table.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** A release: one package, one version code (unique across both kinds), its state and rollout share. */
export const appReleases = pgTable(
  'app_releases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    packageId: uuid('package_id')
      .notNull()
      .references(() => appReleasePackages.id),
    kind: text('kind').notNull(),
    versionCode: integer('version_code').notNull(),
    versionName: text('version_name').notNull(),
    notes: text('notes').notNull().default(''),
    status: text('status').notNull().default('draft'),
    rolloutPercent: integer('rollout_percent').notNull().default(0),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    rolledBackAt: timestamp('rolled_back_at', { withTimezone: true }),
    /** The release key's signature of a hot bundle (base64, decision 053); null when unsigned. */
    signature: text('signature'),
  },
  (table) => [
    uniqueIndex('app_releases_version_code_unique').on(table.versionCode),
    uniqueIndex('app_releases_package_unique').on(table.packageId),
    index('app_releases_status_idx').on(table.status, table.kind, table.versionCode),
    check('app_releases_kind_check', sql`${table.kind} in ('full', 'hot')`),
    check('app_releases_status_check', sql`${table.status} in ('draft', 'published', 'rolled_back')`),
    check('app_releases_rollout_check', sql`${table.rolloutPercent} between 0 and 100`),
    check('app_releases_version_code_check', sql`${table.versionCode} > 0`),
  ],
);
