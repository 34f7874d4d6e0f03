import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

/**
 * One schema for PGlite and PostgreSQL 15. Tables of later domains join this file (or files beside
 * it re-exported here) so drizzle-kit sees a single schema and writes one migrations folder.
 */

/** Operator-editable settings, one JSON value per key (site name, links, version info…). */
export const platformSettings = pgTable('platform_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by'),
});

export const operators = pgTable(
  'operators',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull(),
    mustChangePassword: boolean('must_change_password').notNull().default(true),
    /** Base32 TOTP secret once bound; console log-in then needs a code as well as the password. */
    totpSecret: text('totp_secret'),
    /** A secret offered for binding that no code has confirmed yet. */
    totpPendingSecret: text('totp_pending_secret'),
    /** The last 30-second step a code was accepted for: each code works once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /**
     * Made by `--demo` with printed credentials (decision 019): it logs in, and its sessions count,
     * only while the server runs with --demo.
     */
    demo: boolean('demo').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('operators_role_check', sql`${table.role} in ('super_admin', 'finance', 'support', 'reviewer')`)],
);

/** Operator sessions: only a SHA-256 of the token is stored. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id),
    tokenHash: text('token_hash').notNull().unique(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('operator_sessions_operator_idx').on(table.operatorId)],
);

/** Every operator action: who, what, when, before and after. Never updated or deleted. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id').references(() => operators.id),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('audit_log_created_idx').on(table.createdAt), index('audit_log_operator_idx').on(table.operatorId)],
);

/**
 * Fixed-window attempt counters for rate limits (log-in, codes, passwords) kept in the database so
 * every server instance sees the same count.
 */
export const rateLimitBuckets = pgTable(
  'rate_limit_buckets',
  {
    key: text('key').primaryKey(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull(),
  },
  (table) => [check('rate_limit_buckets_attempts_check', sql`${table.attempts} >= 0`)],
);

/**
 * Failed log-ins per account over every address (members by e-mail, operators by username), in a
 * fixed window: past a ceiling, further attempts from unfamiliar addresses are spaced out by a
 * growing delay (decision 015). The owner is mailed once per window.
 */
export const accountLoginGuards = pgTable(
  'account_login_guards',
  {
    key: text('key').primaryKey(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    failures: integer('failures').notNull(),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull(),
    /** The window whose crossing the owner was already told about. */
    noticedWindowStartedAt: timestamp('noticed_window_started_at', { withTimezone: true }),
  },
  (table) => [check('account_login_guards_failures_check', sql`${table.failures} >= 0`)],
);

/** A person who logs in: one e-mail, one login password, one trading password. */
export const members = pgTable(
  'members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    tradePasswordHash: text('trade_password_hash'),
    /** Base32 TOTP secret once the authenticator is bound. */
    totpSecret: text('totp_secret'),
    /** A secret offered for binding (or re-binding) that no code has confirmed yet. */
    totpPendingSecret: text('totp_pending_secret'),
    /** The last 30-second step a code was accepted for: each code works once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    status: text('status').notNull().default('active'),
    /** Set when an operator resets the password: every call answers 300 until a new one is set. */
    mustResetPassword: boolean('must_reset_password').notNull().default(false),
    locale: text('locale').notNull().default('zh-Hans'),
    /**
     * When a withdrawal factor was last replaced without proof of the old one (an operator reset the
     * password or authenticator, or the member reset the trading password by e-mail code): withdrawals
     * wait the cooling-off period from then (docs/decisions/016).
     */
    securityResetAt: timestamp('security_reset_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('members_status_check', sql`${table.status} in ('active', 'frozen')`),
    check('members_email_lower_check', sql`${table.email} = lower(${table.email})`),
  ],
);

/**
 * What holds balances and sits in the invitation tree: each member has one main account and may
 * create sub-accounts under it. Sub-accounts are invited by their main account.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    kind: text('kind').notNull(),
    mainAccountId: uuid('main_account_id').references((): AnyPgColumn => accounts.id),
    inviterAccountId: uuid('inviter_account_id').references((): AnyPgColumn => accounts.id),
    inviteCode: text('invite_code').notNull().unique(),
    nickname: text('nickname').notNull(),
    avatar: text('avatar'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('accounts_kind_check', sql`${table.kind} in ('main', 'sub')`),
    check(
      'accounts_main_link_check',
      sql`(${table.kind} = 'main' and ${table.mainAccountId} is null) or (${table.kind} = 'sub' and ${table.mainAccountId} is not null)`,
    ),
    uniqueIndex('accounts_one_main_per_member')
      .on(table.memberId)
      .where(sql`${table.kind} = 'main'`),
    index('accounts_inviter_idx').on(table.inviterAccountId),
    index('accounts_main_idx').on(table.mainAccountId),
  ],
);

/** Member sessions: only a SHA-256 of the token is stored; idle and absolute expiry. */
export const memberSessions = pgTable(
  'member_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    /** The account the session acts for (main or one of its sub-accounts). */
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    tokenHash: text('token_hash').notNull().unique(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    idleExpiresAt: timestamp('idle_expires_at', { withTimezone: true }).notNull(),
    absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('member_sessions_member_idx').on(table.memberId)],
);

/** E-mail codes: 6 digits, stored hashed, 10 minutes, single use, at most 5 wrong tries. */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('verification_codes_purpose_check', sql`${table.purpose} in ('register', 'login', 'reset_password', 'trade_password')`),
    index('verification_codes_lookup_idx').on(table.email, table.purpose, table.createdAt),
  ],
);

/** Every e-mail the platform sends, with its delivery state (the console's mail outbox). */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    template: text('template').notNull(),
    locale: text('locale').notNull(),
    /** pending → sent (SMTP accepted it) | logged (no SMTP configured) | failed (after the last retry). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** A worker holds the mail until then; a crashed worker's lease simply runs out. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /**
     * `subject` and `body` hold the mail with its code masked (what the console shows). The mail as
     * sent, code included, waits here only until it is delivered or given up, then it is cleared
     * (docs/decisions/016). Never returned by any API.
     */
    pendingDelivery: jsonb('pending_delivery').$type<{ subject: string; text: string }>(),
  },
  (table) => [
    check('mail_outbox_status_check', sql`${table.status} in ('pending', 'sent', 'logged', 'failed')`),
    index('mail_outbox_created_idx').on(table.createdAt),
    index('mail_outbox_pending_idx')
      .on(table.status)
      .where(sql`${table.status} = 'pending'`),
  ],
);

/** Binary column: node-postgres answers a Buffer, PGlite a Uint8Array; both become a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
  toDriver: (value) => value,
});

/**
 * Files members upload (identity documents), kept in the database so every server instance serves
 * them; named by a server-made id, never by the uploader.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerMemberId: uuid('owner_member_id')
      .notNull()
      .references(() => members.id),
    purpose: text('purpose').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('uploads_content_type_check', sql`${table.contentType} in ('image/jpeg', 'image/png', 'image/webp')`),
    check('uploads_size_check', sql`${table.sizeBytes} between 1 and 2097152`),
    index('uploads_owner_idx').on(table.ownerMemberId),
  ],
);

/** Real-name submissions: pending → approved | failed (a failed one may be followed by a new one). */
export const identityVerifications = pgTable(
  'identity_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    documentType: text('document_type').notNull(),
    idNumber: text('id_number').notNull(),
    realName: text('real_name').notNull(),
    frontUploadId: uuid('front_upload_id')
      .notNull()
      .references(() => uploads.id),
    backUploadId: uuid('back_upload_id')
      .notNull()
      .references(() => uploads.id),
    selfieUploadId: uuid('selfie_upload_id')
      .notNull()
      .references(() => uploads.id),
    status: text('status').notNull().default('pending'),
    failReason: text('fail_reason'),
    reviewerId: uuid('reviewer_id').references(() => operators.id),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (table) => [
    check('identity_status_check', sql`${table.status} in ('pending', 'approved', 'failed')`),
    check('identity_document_type_check', sql`${table.documentType} in ('id_card', 'passport', 'driver_license')`),
    // At most one open or approved submission per member: a new one only after a failure.
    uniqueIndex('identity_one_active_per_member')
      .on(table.memberId)
      .where(sql`${table.status} in ('pending', 'approved')`),
    index('identity_status_idx').on(table.status, table.submittedAt),
  ],
);
