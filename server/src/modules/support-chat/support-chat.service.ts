import type { z } from 'zod';
import {
  BusinessCode,
  CHAT_BADGE_MAX,
  money,
  type Money,
  type CannedReply,
  type ChatHistory,
  type ChatMessage,
  type ChatReadState,
  type SupportConversationItem,
  type SupportMemberContext,
  type agentChatMessageRequest,
  type cannedReplyInput,
  type sendChatMessageRequest,
} from '@custos/contract';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { checkedImage } from '../../http/checked-image.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { AdminMembersService } from '../admin-members/admin-members.service.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { HostingService } from '../hosting/hosting.service.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { OperatorEventsService } from '../notifications/operator-events.service.js';
import type { RateLimitRule, RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { TeamService } from '../team/team.service.js';
import type {
  CannedReplyRow,
  ConversationRow,
  InboxFilter,
  InboxRow,
  MessageRow,
  SupportChatRepository,
} from './support-chat.repository.js';

/**
 * Messages a member may send: a steady conversation is a message every few seconds; a script
 * pasting hundreds is a flood (decision 029). Counted in the database, so every instance shares it.
 */
export const CHAT_MESSAGES_PER_MINUTE: RateLimitRule = { name: 'chat:member:minute', maxAttempts: 20, windowS: 60 };
export const CHAT_MESSAGES_PER_HOUR: RateLimitRule = { name: 'chat:member:hour', maxAttempts: 300, windowS: 3600 };

/** How much of a message a notification shows. */
const PREVIEW_LENGTH = 60;
/** Recent orders in the member context panel. */
const RECENT_ORDERS = 5;

export interface AgentSession {
  operatorId: string;
  origin: RequestOrigin;
}

export interface SupportChatPeers {
  adminMembers: AdminMembersService;
  team: TeamService;
  ledger: LedgerService;
  hosting: HostingService;
}

/**
 * Customer service (kefu, decision 029): one support conversation per member, made by their first
 * message; agents answer from the console's inbox. Every change happens in one transaction with the
 * events that tell the other side: the member's live channel (decision 022) and the console's.
 */
export class SupportChatService {
  constructor(
    private readonly db: Db,
    private readonly repository: SupportChatRepository,
    private readonly audit: AuditRepository,
    private readonly memberEvents: MemberEventPublisher,
    private readonly operatorEvents: OperatorEventsService,
    private readonly rateLimits: RateLimitService,
    private readonly peers: SupportChatPeers,
  ) {}

  // ── Member ──

  /** The member's support conversation, if they ever wrote (reads only: no delivery mark moves). */
  async memberConversationId(context: MemberSessionContext): Promise<string | null> {
    return (await this.repository.supportOf(context.member.id))?.id ?? null;
  }

  async memberHistory(context: MemberSessionContext, before: string | undefined, limit: number): Promise<ChatHistory> {
    const conversation = await this.repository.supportOf(context.member.id);
    if (!conversation) return { conversationId: null, items: [], nextBefore: null, state: emptyState() };
    const page = await this.page(conversation.id, before, limit, 'member');
    // The newest page reached the member's app: what the agents wrote is delivered.
    if (before === undefined && conversation.last_message_id !== null) {
      await this.db.transaction(async (tx) => {
        if (
          await this.repository.advanceMember(tx, conversation.id, context.member.id, 'delivered', conversation.last_message_id!)
        ) {
          await this.publishMemberState(tx, conversation.id);
        }
      });
    }
    const fresh = (await this.repository.find(conversation.id))!;
    return { conversationId: conversation.id, ...page, state: stateOf(fresh) };
  }

  async memberSend(context: MemberSessionContext, input: z.output<typeof sendChatMessageRequest>): Promise<ChatMessage> {
    const memberId = context.member.id;
    await this.limit(CHAT_MESSAGES_PER_MINUTE, memberId);
    await this.limit(CHAT_MESSAGES_PER_HOUR, memberId);
    try {
      const row = await this.db.transaction(async (tx) => {
        const conversation = await this.repository.ensureSupport(tx, memberId);
        if (input.imageId !== undefined && !(await this.repository.attachable(tx, memberId, input.imageId))) {
          throw AppError.badRequest('chat.image_missing');
        }
        const message = await this.repository.insertMessage(tx, {
          conversationId: conversation.id,
          senderMemberId: memberId,
          ...(input.text === undefined ? {} : { body: input.text }),
          ...(input.imageId === undefined ? {} : { uploadId: input.imageId }),
        });
        await this.operatorEvents.publishSupport(tx, {
          kind: 'chat.message',
          conversationId: conversation.id,
          messageId: message.id,
          sender: 'member',
        });
        // Writing is reading: everything the agents sent before is read by now.
        if (await this.repository.advanceMember(tx, conversation.id, memberId, 'read', message.id)) {
          await this.publishMemberState(tx, conversation.id);
        }
        return message;
      });
      return toMessage(row, 'member');
    } catch (error) {
      // Two sends racing for one image: the unique index lets one keep it.
      if (isUniqueViolation(error)) throw AppError.badRequest('chat.image_missing');
      throw error;
    }
  }

  async memberRead(context: MemberSessionContext, upTo: string): Promise<ChatReadState> {
    const conversation = await this.repository.supportOf(context.member.id);
    if (!conversation) return emptyState();
    await this.db.transaction(async (tx) => {
      if (await this.repository.advanceMember(tx, conversation.id, context.member.id, 'read', upTo)) {
        await this.publishMemberState(tx, conversation.id);
      }
    });
    return stateOf((await this.repository.find(conversation.id))!);
  }

  async memberUnread(context: MemberSessionContext): Promise<number> {
    return Math.min(await this.repository.memberUnread(context.member.id), CHAT_BADGE_MAX + 1);
  }

  /** An image of the member's own conversation (theirs or an agent's); anything else is not found. */
  async memberImage(context: MemberSessionContext, messageId: string) {
    const conversation = await this.repository.supportOf(context.member.id);
    const image = conversation ? await this.repository.imageOf(conversation.id, messageId) : null;
    if (!image) throw AppError.notFound();
    return image;
  }

  // ── Agents ──

  async inbox(operatorId: string, filter: InboxFilter, page: number, pageSize: number) {
    const { rows, total, unreadTotal } = await this.repository.inbox(filter, operatorId, pageSize, (page - 1) * pageSize);
    return { items: rows.map(toInboxItem), total, page, pageSize, unreadTotal };
  }

  async conversation(
    operatorId: string,
    conversationId: string,
  ): Promise<{ conversation: SupportConversationItem; member: SupportMemberContext }> {
    const { rows } = await this.repository.inbox('all', operatorId, 1, 0, conversationId);
    const row = rows[0];
    if (!row) throw AppError.notFound();
    return { conversation: toInboxItem(row), member: await this.memberContext(row) };
  }

  /** Level, balances and recent orders, read through the services that own them. */
  private async memberContext(row: InboxRow): Promise<SupportMemberContext> {
    const detail = await this.peers.adminMembers.detail(row.owner_member_id);
    const main = detail.accounts.find((account) => account.kind === 'main');
    const [team, balances, orders] = await Promise.all([
      this.peers.team.memberTeam(row.owner_member_id, 1, 1).catch((error: unknown) => {
        if (error instanceof AppError && error.code === BusinessCode.NOT_FOUND) return null;
        throw error;
      }),
      main ? this.peers.ledger.balancesOf([main.id]) : Promise.resolve(new Map<string, Money>()),
      this.peers.hosting.adminOrders({ query: detail.email }, 1, RECENT_ORDERS),
    ]);
    const assets = ['USDT', 'RAB', 'FUEL', 'TICKET'] as const;
    const of = (asset: string, purpose: string) =>
      money.formatMoney(main ? (balances.get(`${main.id}:${asset}:${purpose}`) ?? money.ZERO) : money.ZERO);
    return {
      memberId: detail.id,
      email: detail.email,
      nickname: detail.nickname,
      status: detail.status,
      level: team?.self.level ?? 0,
      balances: assets.map((asset) => ({ asset, available: of(asset, 'available'), held: of(asset, 'held') })),
      recentOrders: orders.items.map((order) => ({
        id: order.id,
        planName: order.planName,
        amount: order.amount,
        status: order.status,
        createdAt: order.createdAt,
      })),
    };
  }

  async agentHistory(conversationId: string, before: string | undefined, limit: number): Promise<ChatHistory> {
    const conversation = await this.repository.find(conversationId);
    if (!conversation) throw AppError.notFound();
    const page = await this.page(conversation.id, before, limit, 'agent');
    if (before === undefined && conversation.last_message_id !== null) {
      await this.db.transaction(async (tx) => {
        if (await this.repository.advanceAgents(tx, conversation.id, 'delivered', conversation.last_message_id!)) {
          await this.publishAgentsState(tx, conversation.id);
        }
      });
    }
    return { conversationId: conversation.id, ...page, state: stateOf((await this.repository.find(conversation.id))!) };
  }

  /**
   * An agent's message. Not written to the audit log: the message itself is the record (append-only,
   * with the agent and the time), and the audit log would only copy it (decision 029).
   */
  async agentSend(
    agent: AgentSession,
    conversationId: string,
    input: z.output<typeof agentChatMessageRequest>,
  ): Promise<ChatMessage> {
    const image = input.imageBase64 === undefined ? undefined : checkedImage(input.imageBase64);
    const row = await this.db.transaction(async (tx) => {
      const conversation = await this.repository.lock(tx, conversationId);
      if (!conversation) throw AppError.notFound();
      const uploadId = image
        ? await this.repository.insertAgentUpload(tx, {
            memberId: conversation.owner_member_id,
            contentType: image.contentType,
            sizeBytes: image.sizeBytes,
            sha256: image.sha256,
            content: image.content,
          })
        : undefined;
      const message = await this.repository.insertMessage(tx, {
        conversationId,
        senderOperatorId: agent.operatorId,
        ...(input.text === undefined ? {} : { body: input.text }),
        ...(uploadId === undefined ? {} : { uploadId }),
      });
      // Answering is reading what the member wrote before.
      if (await this.repository.advanceAgents(tx, conversationId, 'read', message.id)) {
        await this.publishAgentsState(tx, conversationId);
      }
      await this.memberEvents.publish(tx, conversation.owner_member_id, {
        kind: 'chat.message',
        conversationId,
        messageId: message.id,
        preview: message.body ? preview(message.body) : '',
      });
      await this.operatorEvents.publishSupport(tx, {
        kind: 'chat.message',
        conversationId,
        messageId: message.id,
        sender: 'agent',
      });
      return message;
    });
    return toMessage(row, 'agent');
  }

  async agentRead(conversationId: string, upTo: string): Promise<ChatReadState> {
    await this.db.transaction(async (tx) => {
      const conversation = await this.repository.lock(tx, conversationId);
      if (!conversation) throw AppError.notFound();
      if (await this.repository.advanceAgents(tx, conversationId, 'read', upTo))
        await this.publishAgentsState(tx, conversationId);
    });
    return stateOf((await this.repository.find(conversationId))!);
  }

  async agentImage(conversationId: string, messageId: string) {
    const image = await this.repository.imageOf(conversationId, messageId);
    if (!image) throw AppError.notFound();
    return image;
  }

  /** Takes a conversation (or hands it back); audited, and every open inbox hears of it. */
  async assign(agent: AgentSession, conversationId: string, to: 'me' | 'nobody'): Promise<SupportConversationItem> {
    const operatorId = to === 'me' ? agent.operatorId : null;
    await this.db.transaction(async (tx) => {
      const conversation = await this.repository.lock(tx, conversationId);
      if (!conversation) throw AppError.notFound();
      if (conversation.assigned_operator_id === operatorId) return;
      await this.repository.assign(tx, conversationId, operatorId);
      await this.audit.record(
        {
          operatorId: agent.operatorId,
          action: 'support.conversation_assigned',
          targetType: 'chat_conversation',
          targetId: conversationId,
          before: { assignedOperatorId: conversation.assigned_operator_id },
          after: { assignedOperatorId: operatorId },
          ip: agent.origin.ip,
          requestId: agent.origin.requestId,
        },
        tx,
      );
      await this.operatorEvents.publishSupport(tx, { kind: 'chat.assigned', conversationId, operatorId });
    });
    return (await this.conversation(agent.operatorId, conversationId)).conversation;
  }

  // ── Canned replies ──

  async cannedReplies(): Promise<CannedReply[]> {
    return (await this.repository.cannedReplies()).map(toCanned);
  }

  async createCannedReply(agent: AgentSession, input: z.output<typeof cannedReplyInput>): Promise<CannedReply> {
    return this.db.transaction(async (tx) => {
      const row = await this.repository.insertCannedReply(tx, {
        title: input.title,
        body: input.text,
        operatorId: agent.operatorId,
      });
      await this.recordCanned(tx, agent, 'support.canned_reply_created', row.id, null, row);
      return toCanned(row);
    });
  }

  async updateCannedReply(agent: AgentSession, id: string, input: z.output<typeof cannedReplyInput>): Promise<CannedReply> {
    return this.db.transaction(async (tx) => {
      const before = await this.repository.cannedReply(tx, id);
      if (!before) throw AppError.notFound();
      const row = await this.repository.updateCannedReply(tx, id, { title: input.title, body: input.text });
      await this.recordCanned(tx, agent, 'support.canned_reply_updated', id, before, row);
      return toCanned(row);
    });
  }

  async deleteCannedReply(agent: AgentSession, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await this.repository.cannedReply(tx, id);
      if (!before) throw AppError.notFound();
      await this.repository.deleteCannedReply(tx, id);
      await this.recordCanned(tx, agent, 'support.canned_reply_deleted', id, before, null);
    });
  }

  private async recordCanned(
    tx: Tx,
    agent: AgentSession,
    action: string,
    id: string,
    before: CannedReplyRow | null,
    after: CannedReplyRow | null,
  ): Promise<void> {
    await this.audit.record(
      {
        operatorId: agent.operatorId,
        action,
        targetType: 'chat_canned_reply',
        targetId: id,
        before: before ? { title: before.title, text: before.body } : null,
        after: after ? { title: after.title, text: after.body } : null,
        ip: agent.origin.ip,
        requestId: agent.origin.requestId,
      },
      tx,
    );
  }

  // ── Order conversations (OTC, decision 031) ──
  // The OTC module owns who may read and write (the order's parties while it is open, its arbiters);
  // these calls only keep the messages, in the caller's transaction where one is given.

  /** A conversation for an order: the seller owns it, buyer and seller take part. */
  openOrderConversation(tx: Tx, parties: { buyerMemberId: string; sellerMemberId: string }): Promise<string> {
    return this.repository.insertOrderConversation(tx, parties.sellerMemberId, [
      { memberId: parties.buyerMemberId, role: 'buyer' },
      { memberId: parties.sellerMemberId, role: 'seller' },
    ]);
  }

  /** A page of an order conversation, newest page first (items oldest first within it). */
  async orderMessages(conversationId: string, before: string | undefined, limit: number) {
    const rows = await this.repository.history(conversationId, before, limit + 1);
    const more = rows.length > limit;
    const items = rows.slice(0, limit).reverse();
    return { items: items.map(toOrderMessage), nextBefore: more && items[0] ? items[0].id : null };
  }

  /** Writes to an order conversation: a party's text or own chat image, or an arbiter's text or image. */
  async postOrderMessage(
    tx: Tx,
    conversationId: string,
    sender: { memberId: string } | { operatorId: string; ownerMemberId: string },
    content: { text?: string | undefined; imageId?: string | undefined; imageBase64?: string | undefined },
  ) {
    await this.repository.lock(tx, conversationId);
    let uploadId = content.imageId;
    if ('memberId' in sender) {
      if (uploadId !== undefined && !(await this.repository.attachable(tx, sender.memberId, uploadId))) {
        throw AppError.badRequest('chat.image_missing');
      }
    } else if (content.imageBase64 !== undefined) {
      const image = checkedImage(content.imageBase64);
      uploadId = await this.repository.insertAgentUpload(tx, {
        memberId: sender.ownerMemberId,
        contentType: image.contentType,
        sizeBytes: image.sizeBytes,
        sha256: image.sha256,
        content: image.content,
      });
    }
    const message = await this.repository.insertMessage(tx, {
      conversationId,
      ...('memberId' in sender ? { senderMemberId: sender.memberId } : { senderOperatorId: sender.operatorId }),
      ...(content.text === undefined ? {} : { body: content.text }),
      ...(uploadId === undefined ? {} : { uploadId }),
    });
    if ('memberId' in sender) await this.repository.advanceParticipantRead(tx, conversationId, sender.memberId, message.id);
    return toOrderMessage(message);
  }

  /** The member's new read mark on an order's chat, or null when it did not move. */
  markOrderRead(tx: Tx, conversationId: string, memberId: string, upTo: string): Promise<string | null> {
    return this.repository.advanceParticipantRead(tx, conversationId, memberId, upTo);
  }

  /** Each participant's read mark, by member id. */
  async orderReadMarks(conversationId: string): Promise<Map<string, string>> {
    return new Map((await this.repository.participants(conversationId)).map((row) => [row.member_id, row.read_up_to]));
  }

  async orderImage(conversationId: string, messageId: string) {
    const image = await this.repository.imageOf(conversationId, messageId);
    if (!image) throw AppError.notFound();
    return image;
  }

  // ── Shared ──

  private async page(conversationId: string, before: string | undefined, limit: number, viewer: 'member' | 'agent') {
    const rows = await this.repository.history(conversationId, before, limit + 1);
    const more = rows.length > limit;
    const items = rows.slice(0, limit).reverse();
    return {
      items: items.map((row) => toMessage(row, viewer)),
      nextBefore: more && items[0] ? items[0].id : null,
    };
  }

  /** The member's marks moved: the agents' ticks change. */
  private async publishMemberState(tx: Tx, conversationId: string): Promise<void> {
    const conversation = (await this.repository.find(conversationId, tx))!;
    await this.operatorEvents.publishSupport(tx, { kind: 'chat.read', conversationId, state: stateOf(conversation) });
  }

  /** The agents' marks moved: the member's ticks change, and every inbox's unread count. */
  private async publishAgentsState(tx: Tx, conversationId: string): Promise<void> {
    const conversation = (await this.repository.find(conversationId, tx))!;
    const state = stateOf(conversation);
    await this.memberEvents.publish(tx, conversation.owner_member_id, {
      kind: 'chat.read',
      conversationId,
      agentsDeliveredUpTo: state.agentsDeliveredUpTo,
      agentsReadUpTo: state.agentsReadUpTo,
    });
    await this.operatorEvents.publishSupport(tx, { kind: 'chat.read', conversationId, state });
  }

  private async limit(rule: RateLimitRule, memberId: string): Promise<void> {
    try {
      await this.rateLimits.consume(rule, memberId);
    } catch (error) {
      if (error instanceof AppError && error.code === BusinessCode.TOO_MANY_REQUESTS) {
        throw new AppError(error.code, 'chat.too_many', error.params, error.headers);
      }
      throw error;
    }
  }
}

export interface OrderChatMessage {
  id: string;
  senderMemberId: string | null;
  agentName: string | null;
  text: string | null;
  hasImage: boolean;
  createdAt: string;
}

function toOrderMessage(row: MessageRow): OrderChatMessage {
  return {
    id: row.id,
    senderMemberId: row.sender_member_id,
    agentName: row.sender_operator_id === null ? null : row.operator_name,
    text: row.body,
    hasImage: row.upload_id !== null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function preview(text: string): string {
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}

function emptyState(): ChatReadState {
  return { memberDeliveredUpTo: '0', memberReadUpTo: '0', agentsDeliveredUpTo: '0', agentsReadUpTo: '0' };
}

function stateOf(row: ConversationRow): ChatReadState {
  return {
    memberDeliveredUpTo: row.member_delivered_up_to,
    memberReadUpTo: row.member_read_up_to,
    agentsDeliveredUpTo: row.agents_delivered_up_to,
    agentsReadUpTo: row.agents_read_up_to,
  };
}

/** Members never see which console user answered (usernames are log-in names); agents do. */
function toMessage(row: MessageRow, viewer: 'member' | 'agent'): ChatMessage {
  const sender = row.sender_member_id === null ? 'agent' : 'member';
  return {
    id: row.id,
    conversationId: row.conversation_id,
    sender,
    agentName: viewer === 'agent' && sender === 'agent' ? row.operator_name : null,
    text: row.body,
    hasImage: row.upload_id !== null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function toInboxItem(row: InboxRow): SupportConversationItem {
  return {
    id: row.id,
    kind: 'support',
    memberId: row.owner_member_id,
    email: row.email,
    nickname: row.nickname,
    assignedOperatorId: row.assigned_operator_id,
    assignedOperatorName: row.assigned_operator_name,
    unread: row.unread,
    lastMessage: row.last_created_at
      ? {
          sender: row.last_sender_member_id === null ? 'agent' : 'member',
          text: row.last_body,
          hasImage: row.last_upload_id !== null,
          createdAt: new Date(row.last_created_at).toISOString(),
        }
      : null,
    state: stateOf(row),
  };
}

function toCanned(row: CannedReplyRow): CannedReply {
  return { id: row.id, title: row.title, text: row.body, updatedAt: new Date(row.updated_at).toISOString() };
}
