import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
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
 * Conversations between members and the platform (issue 13 customer service, decision 029). A
 * conversation has a kind and member participants; the platform's side (agents, later arbiters) is
 * one side whose delivery and read state the conversation keeps. Only `support` exists today: one
 * per member, made by their first message. OTC orders (issue 14) add their kind and participants.
 */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    /** The member a support conversation belongs to (exactly one per member). */
    ownerMemberId: uuid('owner_member_id')
      .notNull()
      .references(() => members.id),
    assignedOperatorId: uuid('assigned_operator_id').references(() => operators.id),
    /** The platform side's progress: messages fetched by an agent's console, and shown to an agent. */
    agentsDeliveredUpTo: bigint('agents_delivered_up_to', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    agentsReadUpTo: bigint('agents_read_up_to', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    lastMessageId: bigint('last_message_id', { mode: 'bigint' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('chat_conversations_kind_check', sql`${table.kind} in ('support', 'otc_order')`),
    uniqueIndex('chat_conversations_support_member_idx')
      .on(table.ownerMemberId)
      .where(sql`${table.kind} = 'support'`),
    index('chat_conversations_last_idx').on(table.kind, table.lastMessageAt),
  ],
);

/** The members taking part, each with their own delivery and read state. */
export const chatParticipants = pgTable(
  'chat_participants',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    role: text('role').notNull(),
    deliveredUpTo: bigint('delivered_up_to', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    readUpTo: bigint('read_up_to', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.conversationId, table.memberId] }),
    check('chat_participants_role_check', sql`${table.role} in ('member', 'buyer', 'seller')`),
    index('chat_participants_member_idx').on(table.memberId),
  ],
);

/**
 * Messages, append-only: text (≤ 1000 characters) or one image. The id orders a conversation and
 * is what "read up to" and history cursors name. An upload belongs to one message only.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id),
    senderMemberId: uuid('sender_member_id').references(() => members.id),
    senderOperatorId: uuid('sender_operator_id').references(() => operators.id),
    body: text('body'),
    uploadId: uuid('upload_id').references(() => uploads.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('chat_messages_sender_check', sql`(${table.senderMemberId} is null) <> (${table.senderOperatorId} is null)`),
    check('chat_messages_content_check', sql`(${table.body} is null) <> (${table.uploadId} is null)`),
    check('chat_messages_body_length_check', sql`${table.body} is null or char_length(${table.body}) between 1 and 1000`),
    index('chat_messages_conversation_idx').on(table.conversationId, table.id),
    uniqueIndex('chat_messages_upload_idx').on(table.uploadId),
  ],
);

/** Replies the agents keep ready (operator-managed, audited). */
export const chatCannedReplies = pgTable('chat_canned_replies', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  createdBy: uuid('created_by')
    .notNull()
    .references(() => operators.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The console's live channel (decision 029): what operators of a topic hear, read like member events
 * (an id cursor, NOTIFY after commit, resume with Last-Event-ID). Topic `support`: the inbox.
 */
export const operatorEvents = pgTable(
  'operator_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    topic: text('topic').notNull(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('operator_events_topic_idx').on(table.topic, table.id),
    index('operator_events_created_idx').on(table.createdAt),
  ],
);
