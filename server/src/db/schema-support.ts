import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { members, operators, uploads } from './schema-core.js';

/**
 * Member support: live notifications (an event log each member's channel reads from) and feedback
 * with operators' replies (issue 13, decision 022).
 */

/**
 * What happened to a member, in the order it was committed. Written in the transaction that made
 * the change, so an event exists exactly when its change does; every server instance reads its
 * members' channels from here (a NOTIFY after commit says "look now"), and a channel that dropped
 * resumes from the last id it saw.
 */
export const memberEvents = pgTable(
  'member_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('member_events_member_idx').on(table.memberId, table.id),
    index('member_events_created_idx').on(table.createdAt),
  ],
);

/** A member's feedback: awaiting_reply → replied (one reply, by an operator). */
export const feedback = pgTable(
  'feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    title: text('title').notNull(),
    content: text('content').notNull(),
    orderNo: text('order_no'),
    status: text('status').notNull().default('awaiting_reply'),
    reply: text('reply'),
    repliedBy: uuid('replied_by').references(() => operators.id),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('feedback_status_check', sql`${table.status} in ('awaiting_reply', 'replied')`),
    check('feedback_reply_check', sql`(${table.status} = 'replied') = (${table.reply} is not null)`),
    check('feedback_content_length_check', sql`char_length(${table.content}) between 1 and 140`),
    index('feedback_member_idx').on(table.memberId, table.createdAt),
    index('feedback_status_idx').on(table.status, table.createdAt),
  ],
);

/** The images a feedback carries (at most three); an upload belongs to one feedback only. */
export const feedbackImages = pgTable(
  'feedback_images',
  {
    feedbackId: uuid('feedback_id')
      .notNull()
      .references(() => feedback.id),
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id),
    position: integer('position').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.feedbackId, table.position] }),
    uniqueIndex('feedback_images_upload_idx').on(table.uploadId),
    check('feedback_images_position_check', sql`${table.position} between 0 and 2`),
  ],
);
