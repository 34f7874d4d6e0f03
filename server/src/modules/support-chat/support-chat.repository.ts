import { and, eq, sql } from 'drizzle-orm';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';
import { chatMessages, uploads } from '../../db/schema.js';

/** A conversation with the calling member's own state in it (support: the owner's). */
export interface ConversationRow {
  id: string;
  kind: string;
  owner_member_id: string;
  assigned_operator_id: string | null;
  assigned_operator_name: string | null;
  agents_delivered_up_to: string;
  agents_read_up_to: string;
  member_delivered_up_to: string;
  member_read_up_to: string;
  last_message_id: string | null;
}

export interface MessageRow {
  id: string;
  conversation_id: string;
  sender_member_id: string | null;
  sender_operator_id: string | null;
  operator_name: string | null;
  body: string | null;
  upload_id: string | null;
  created_at: string | Date;
}

export interface InboxRow extends ConversationRow {
  email: string;
  nickname: string;
  unread: number;
  last_sender_member_id: string | null;
  last_body: string | null;
  last_upload_id: string | null;
  last_created_at: string | Date | null;
}

export interface CannedReplyRow {
  id: string;
  title: string;
  body: string;
  updated_at: string | Date;
}

export type InboxFilter = 'all' | 'unread' | 'mine' | 'unassigned';

/** The conversation columns every read answers (the member side: the support owner's participant row). */
const CONVERSATION_COLUMNS = sql`c.id::text as id, c.kind, c.owner_member_id::text as owner_member_id,
  c.assigned_operator_id::text as assigned_operator_id, o.username as assigned_operator_name,
  c.agents_delivered_up_to::text as agents_delivered_up_to, c.agents_read_up_to::text as agents_read_up_to,
  p.delivered_up_to::text as member_delivered_up_to, p.read_up_to::text as member_read_up_to,
  c.last_message_id::text as last_message_id`;
const CONVERSATION_FROM = sql`chat_conversations c
  join chat_participants p on p.conversation_id = c.id and p.member_id = c.owner_member_id
  left join operators o on o.id = c.assigned_operator_id`;

/** Conversations, messages, read state and canned replies (decision 029); the only SQL of the chat. */
export class SupportChatRepository {
  constructor(private readonly db: Db) {}

  /** The member's support conversation, if they ever wrote. */
  async supportOf(memberId: string, tx: Db | Tx = this.db): Promise<ConversationRow | null> {
    const rows = await queryRows<ConversationRow>(
      tx,
      sql`select ${CONVERSATION_COLUMNS} from ${CONVERSATION_FROM}
          where c.kind = 'support' and c.owner_member_id = ${memberId}::uuid`,
    );
    return rows[0] ?? null;
  }

  async find(conversationId: string, tx: Db | Tx = this.db): Promise<ConversationRow | null> {
    const rows = await queryRows<ConversationRow>(
      tx,
      sql`select ${CONVERSATION_COLUMNS} from ${CONVERSATION_FROM} where c.id = ${conversationId}::uuid`,
    );
    return rows[0] ?? null;
  }

  /**
   * The member's support conversation, made on their first message (two first messages at once
   * make one: the unique index lets one insert win), and held for the rest of the transaction so
   * messages and read state of one conversation change one at a time.
   */
  async ensureSupport(tx: Tx, memberId: string): Promise<ConversationRow> {
    await runStatement(
      tx,
      sql`insert into chat_conversations (kind, owner_member_id) values ('support', ${memberId}::uuid)
          on conflict (owner_member_id) where kind = 'support' do nothing`,
    );
    const [created] = await queryRows<{ id: string }>(
      tx,
      sql`select id::text as id from chat_conversations
          where kind = 'support' and owner_member_id = ${memberId}::uuid for update`,
    );
    await runStatement(
      tx,
      sql`insert into chat_participants (conversation_id, member_id, role) values (${created!.id}::uuid, ${memberId}::uuid, 'member')
          on conflict do nothing`,
    );
    return (await this.find(created!.id, tx))!;
  }

  /** Holds a conversation for the rest of the transaction. */
  async lock(tx: Tx, conversationId: string): Promise<ConversationRow | null> {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`select id::text as id from chat_conversations where id = ${conversationId}::uuid for update`,
    );
    return rows[0] ? this.find(conversationId, tx) : null;
  }

  async insertMessage(
    tx: Tx,
    message: {
      conversationId: string;
      senderMemberId?: string;
      senderOperatorId?: string;
      body?: string;
      uploadId?: string;
    },
  ): Promise<MessageRow> {
    const [row] = await queryRows<{ id: string }>(
      tx,
      sql`insert into chat_messages (conversation_id, sender_member_id, sender_operator_id, body, upload_id)
          values (${message.conversationId}::uuid, ${message.senderMemberId ?? null}::uuid, ${message.senderOperatorId ?? null}::uuid,
                  ${message.body ?? null}, ${message.uploadId ?? null}::uuid)
          returning id::text as id`,
    );
    await runStatement(
      tx,
      sql`update chat_conversations set last_message_id = ${row!.id}::bigint, last_message_at = now()
          where id = ${message.conversationId}::uuid`,
    );
    return (await this.message(message.conversationId, row!.id, tx))!;
  }

  async message(conversationId: string, messageId: string, tx: Db | Tx = this.db): Promise<MessageRow | null> {
    const rows = await queryRows<MessageRow>(
      tx,
      sql`select m.id::text as id, m.conversation_id::text as conversation_id, m.sender_member_id::text as sender_member_id,
                 m.sender_operator_id::text as sender_operator_id, o.username as operator_name, m.body,
                 m.upload_id::text as upload_id, m.created_at
          from chat_messages m left join operators o on o.id = m.sender_operator_id
          where m.conversation_id = ${conversationId}::uuid and m.id = ${messageId}::bigint`,
    );
    return rows[0] ?? null;
  }

  /** A page of history, newest first: `limit` messages before `before` (or the newest). */
  async history(conversationId: string, before: string | undefined, limit: number): Promise<MessageRow[]> {
    return queryRows<MessageRow>(
      this.db,
      sql`select m.id::text as id, m.conversation_id::text as conversation_id, m.sender_member_id::text as sender_member_id,
                 m.sender_operator_id::text as sender_operator_id, o.username as operator_name, m.body,
                 m.upload_id::text as upload_id, m.created_at
          from chat_messages m left join operators o on o.id = m.sender_operator_id
          where m.conversation_id = ${conversationId}::uuid
            ${before === undefined ? sql`` : sql`and m.id < ${before}::bigint`}
          order by m.id desc limit ${limit}`,
    );
  }

  /**
   * Moves the member's delivered / read marks forward (never back, never past the newest message
   * the agents sent); answers whether anything changed.
   */
  async advanceMember(
    tx: Tx,
    conversationId: string,
    memberId: string,
    mark: 'delivered' | 'read',
    upTo: string,
  ): Promise<boolean> {
    const newest = sql`(select coalesce(max(id), 0) from chat_messages
                        where conversation_id = ${conversationId}::uuid and sender_operator_id is not null and id <= ${upTo}::bigint)`;
    const changed =
      mark === 'read'
        ? sql`read_up_to = greatest(read_up_to, ${newest}), delivered_up_to = greatest(delivered_up_to, ${newest})`
        : sql`delivered_up_to = greatest(delivered_up_to, ${newest})`;
    const column = mark === 'read' ? sql`read_up_to` : sql`delivered_up_to`;
    return (
      (await runStatement(
        tx,
        sql`update chat_participants set ${changed}
            where conversation_id = ${conversationId}::uuid and member_id = ${memberId}::uuid and ${column} < ${newest}`,
      )) > 0
    );
  }

  /** The agents' side of the same (never past the newest message the member sent). */
  async advanceAgents(tx: Tx, conversationId: string, mark: 'delivered' | 'read', upTo: string): Promise<boolean> {
    const newest = sql`(select coalesce(max(id), 0) from chat_messages
                        where conversation_id = ${conversationId}::uuid and sender_member_id is not null and id <= ${upTo}::bigint)`;
    const changed =
      mark === 'read'
        ? sql`agents_read_up_to = greatest(agents_read_up_to, ${newest}), agents_delivered_up_to = greatest(agents_delivered_up_to, ${newest})`
        : sql`agents_delivered_up_to = greatest(agents_delivered_up_to, ${newest})`;
    const column = mark === 'read' ? sql`agents_read_up_to` : sql`agents_delivered_up_to`;
    return (
      (await runStatement(
        tx,
        sql`update chat_conversations set ${changed} where id = ${conversationId}::uuid and ${column} < ${newest}`,
      )) > 0
    );
  }

  /** The agents' messages the member has not read (the floating button's badge). */
  async memberUnread(memberId: string): Promise<number> {
    const rows = await queryRows<{ unread: number }>(
      this.db,
      sql`select count(*)::int as unread from chat_messages m
          join chat_participants p on p.conversation_id = m.conversation_id and p.member_id = ${memberId}::uuid
          join chat_conversations c on c.id = m.conversation_id and c.kind = 'support'
          where m.sender_operator_id is not null and m.id > p.read_up_to`,
    );
    return rows[0]?.unread ?? 0;
  }

  private inboxWhere(filter: InboxFilter, operatorId: string) {
    switch (filter) {
      case 'unread':
        return sql`and exists (select 1 from chat_messages u where u.conversation_id = c.id
                                 and u.sender_member_id is not null and u.id > c.agents_read_up_to)`;
      case 'mine':
        return sql`and c.assigned_operator_id = ${operatorId}::uuid`;
      case 'unassigned':
        return sql`and c.assigned_operator_id is null`;
      case 'all':
        return sql``;
    }
  }

  /** The inbox: conversations with their member, unread count and last message, latest activity first. */
  async inbox(filter: InboxFilter, operatorId: string, limit: number, offset: number, conversationId?: string) {
    const where = this.inboxWhere(filter, operatorId);
    const only = conversationId === undefined ? sql`` : sql`and c.id = ${conversationId}::uuid`;
    const rows = await queryRows<InboxRow>(
      this.db,
      sql`select ${CONVERSATION_COLUMNS}, mem.email, acc.nickname,
                 (select count(*)::int from chat_messages u where u.conversation_id = c.id
                    and u.sender_member_id is not null and u.id > c.agents_read_up_to) as unread,
                 l.sender_member_id::text as last_sender_member_id, l.body as last_body,
                 l.upload_id::text as last_upload_id, l.created_at as last_created_at
          from ${CONVERSATION_FROM}
          join members mem on mem.id = c.owner_member_id
          join accounts acc on acc.member_id = mem.id and acc.kind = 'main'
          left join chat_messages l on l.id = c.last_message_id
          where c.kind = 'support' ${where} ${only}
          order by c.last_message_at desc nulls last, c.id
          limit ${limit} offset ${offset}`,
    );
    const [total] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from chat_conversations c where c.kind = 'support' ${where} ${only}`,
    );
    const [unread] = await queryRows<{ unread: number }>(
      this.db,
      sql`select count(*)::int as unread from chat_messages m join chat_conversations c on c.id = m.conversation_id
          where c.kind = 'support' and m.sender_member_id is not null and m.id > c.agents_read_up_to`,
    );
    return { rows, total: total?.total ?? 0, unreadTotal: unread?.unread ?? 0 };
  }

  async assign(tx: Tx, conversationId: string, operatorId: string | null): Promise<void> {
    await runStatement(
      tx,
      sql`update chat_conversations set assigned_operator_id = ${operatorId}::uuid where id = ${conversationId}::uuid`,
    );
  }

  /**
   * Whether the member may attach this upload: their own chat image that no message carries yet
   * (never another's image, an identity document, or one image twice).
   */
  async attachable(tx: Tx, memberId: string, uploadId: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`select u.id::text as id from uploads u
          where u.id = ${uploadId}::uuid and u.owner_member_id = ${memberId}::uuid and u.purpose = 'chat'
            and not exists (select 1 from chat_messages m where m.upload_id = u.id)`,
    );
    return rows.length === 1;
  }

  /**
   * An agent's image: kept with the uploads (checked the same way), belonging to the conversation's
   * member, who reads it through the conversation like any other of its images.
   */
  async insertAgentUpload(
    tx: Tx,
    row: { memberId: string; contentType: string; sizeBytes: number; sha256: string; content: Buffer },
  ): Promise<string> {
    const [inserted] = await tx
      .insert(uploads)
      .values({
        ownerMemberId: row.memberId,
        purpose: 'chat',
        contentType: row.contentType,
        sizeBytes: row.sizeBytes,
        sha256: row.sha256,
        content: row.content,
      })
      .returning({ id: uploads.id });
    return inserted!.id;
  }

  /** A message's image, read through the conversation it belongs to. */
  async imageOf(conversationId: string, messageId: string): Promise<{ contentType: string; content: Buffer } | null> {
    const rows = await this.db
      .select({ contentType: uploads.contentType, content: uploads.content })
      .from(chatMessages)
      .innerJoin(uploads, eq(uploads.id, chatMessages.uploadId))
      .where(and(eq(chatMessages.conversationId, conversationId), eq(chatMessages.id, BigInt(messageId))));
    return rows[0] ?? null;
  }

  // ── Order conversations (OTC, decision 031): buyer and seller take part, arbiters write as agents ──

  async insertOrderConversation(tx: Tx, ownerMemberId: string, participants: readonly { memberId: string; role: string }[]) {
    const [created] = await queryRows<{ id: string }>(
      tx,
      sql`insert into chat_conversations (kind, owner_member_id) values ('otc_order', ${ownerMemberId}::uuid) returning id::text as id`,
    );
    for (const participant of participants) {
      await runStatement(
        tx,
        sql`insert into chat_participants (conversation_id, member_id, role)
            values (${created!.id}::uuid, ${participant.memberId}::uuid, ${participant.role})`,
      );
    }
    return created!.id;
  }

  participants(
    conversationId: string,
  ): Promise<{ member_id: string; role: string; delivered_up_to: string; read_up_to: string }[]> {
    return queryRows(
      this.db,
      sql`select member_id::text as member_id, role, delivered_up_to::text as delivered_up_to, read_up_to::text as read_up_to
          from chat_participants where conversation_id = ${conversationId}::uuid`,
    );
  }

  /** A participant's read mark moves forward, never past the newest message someone else wrote. */
  /** Moves the member's read mark up to `upTo` (the others' newest message at or before it); the new mark, or null if it did not move. */
  async advanceParticipantRead(tx: Tx, conversationId: string, memberId: string, upTo: string): Promise<string | null> {
    const newest = sql`(select coalesce(max(id), 0) from chat_messages
                        where conversation_id = ${conversationId}::uuid and id <= ${upTo}::bigint
                          and (sender_member_id is null or sender_member_id <> ${memberId}::uuid))`;
    const [moved] = await queryRows<{ read_up_to: string }>(
      tx,
      sql`update chat_participants set read_up_to = greatest(read_up_to, ${newest}), delivered_up_to = greatest(delivered_up_to, ${newest})
          where conversation_id = ${conversationId}::uuid and member_id = ${memberId}::uuid and read_up_to < ${newest}
          returning read_up_to::text as read_up_to`,
    );
    return moved?.read_up_to ?? null;
  }

  // ── Canned replies ──

  async cannedReplies(): Promise<CannedReplyRow[]> {
    return queryRows<CannedReplyRow>(
      this.db,
      sql`select id::text as id, title, body, updated_at from chat_canned_replies order by title, id`,
    );
  }

  async cannedReply(tx: Tx, id: string): Promise<CannedReplyRow | null> {
    const rows = await queryRows<CannedReplyRow>(
      tx,
      sql`select id::text as id, title, body, updated_at from chat_canned_replies where id = ${id}::uuid for update`,
    );
    return rows[0] ?? null;
  }

  async insertCannedReply(tx: Tx, row: { title: string; body: string; operatorId: string }): Promise<CannedReplyRow> {
    const [inserted] = await queryRows<CannedReplyRow>(
      tx,
      sql`insert into chat_canned_replies (title, body, created_by) values (${row.title}, ${row.body}, ${row.operatorId}::uuid)
          returning id::text as id, title, body, updated_at`,
    );
    return inserted!;
  }

  async updateCannedReply(tx: Tx, id: string, row: { title: string; body: string }): Promise<CannedReplyRow> {
    const [updated] = await queryRows<CannedReplyRow>(
      tx,
      sql`update chat_canned_replies set title = ${row.title}, body = ${row.body}, updated_at = now() where id = ${id}::uuid
          returning id::text as id, title, body, updated_at`,
    );
    return updated!;
  }

  async deleteCannedReply(tx: Tx, id: string): Promise<void> {
    await runStatement(tx, sql`delete from chat_canned_replies where id = ${id}::uuid`);
  }
}
