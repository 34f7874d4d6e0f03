import { z } from 'zod';
import { UPLOAD_BASE64_MAX_LENGTH } from '../constants.js';
import { ValidationReason, requiredText } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';

// ── Conversations (decision 029) ───────────────────────────────────────────────────────────────────

/**
 * What a conversation is about. Only customer service exists today; OTC orders (buyer, seller,
 * arbiter) reuse the same conversations, messages and read state with a kind of their own.
 */
export const CONVERSATION_KINDS = ['support', 'otc_order'] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];

/** Who wrote a message: the member, or one of the platform's agents (operators). */
export const CHAT_SENDERS = ['member', 'agent'] as const;
export type ChatSender = (typeof CHAT_SENDERS)[number];

/** A message's text: enough for a question with details, not a document. */
export const CHAT_TEXT_MAX_LENGTH = 1000;
/** Messages per history page. */
export const CHAT_PAGE_MAX = 50;
/** The floating button shows at most this many (spec §9: badges stop at 999, then "999+"). */
export const CHAT_BADGE_MAX = 999;

/** A message id (bigserial): history is paged by it, read state is "read up to" it. */
const messageId = z.string().regex(/^\d{1,19}$/, { error: ValidationReason.invalid });

/** A message: text, or one image (uploaded with purpose "chat"), never both and never neither. */
export const sendChatMessageRequest = z
  .object({
    text: requiredText(CHAT_TEXT_MAX_LENGTH).optional(),
    imageId: z.uuid({ error: ValidationReason.invalid }).optional(),
  })
  .refine((body) => (body.text === undefined) !== (body.imageId === undefined), {
    error: 'text_or_image',
    path: ['text'],
  });
export type SendChatMessageRequest = z.input<typeof sendChatMessageRequest>;

/** The console sends its images inline (an operator has no member upload): checked by bytes like uploads. */
export const agentChatMessageRequest = z
  .object({
    text: requiredText(CHAT_TEXT_MAX_LENGTH).optional(),
    imageBase64: z
      .string({ error: ValidationReason.required })
      .min(1, { error: ValidationReason.required })
      // As for member uploads: the exact size and type are checked on the decoded bytes.
      .max(UPLOAD_BASE64_MAX_LENGTH, { error: ValidationReason.tooLong })
      .optional(),
  })
  .refine((body) => (body.text === undefined) !== (body.imageBase64 === undefined), {
    error: 'text_or_image',
    path: ['text'],
  });
export type AgentChatMessageRequest = z.input<typeof agentChatMessageRequest>;

export const chatMessage = z.object({
  id: messageId,
  conversationId: z.string(),
  sender: z.enum(CHAT_SENDERS),
  /** The agent's console name (agents only): the member sees who answers. */
  agentName: z.string().nullable(),
  text: z.string().nullable(),
  /** Read it through the conversation's image call with the message id. */
  hasImage: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

/**
 * Per side, how far the messages have been delivered (fetched by the side's app) and read (shown to
 * the side on screen): "0" when nothing yet. The other side's figures give the ticks.
 */
export const chatReadState = z.object({
  memberDeliveredUpTo: messageId,
  memberReadUpTo: messageId,
  agentsDeliveredUpTo: messageId,
  agentsReadUpTo: messageId,
});
export type ChatReadState = z.infer<typeof chatReadState>;

/** GET …/messages: newest page first; `before` pages back through history (a message id). */
export const chatHistoryQuery = z.object({
  before: messageId.optional(),
  limit: z.coerce.number().int().min(1).max(CHAT_PAGE_MAX).default(30),
});
export const chatHistoryResponse = z.object({
  conversationId: z.string().nullable(),
  /** Oldest first within the page. */
  items: z.array(chatMessage),
  /** Pass as `before` for the older page; null at the start of the conversation. */
  nextBefore: messageId.nullable(),
  state: chatReadState,
});
export type ChatHistory = z.infer<typeof chatHistoryResponse>;

/** POST …/read: the side has shown everything up to this message. */
export const chatReadRequest = z.object({ upTo: messageId });

/** GET /api/support/chat/unread: the floating button's badge. */
export const chatUnreadResponse = z.object({ unread: z.number().int().nonnegative() });

export const chatMessageParams = z.object({ messageId });

// ── Console: the customer-service inbox ───────────────────────────────────────────────────────────

export const SUPPORT_INBOX_FILTERS = ['all', 'unread', 'mine', 'unassigned'] as const;
export type SupportInboxFilter = (typeof SUPPORT_INBOX_FILTERS)[number];

export const supportInboxQuery = pageQuery.extend({ filter: z.enum(SUPPORT_INBOX_FILTERS).default('all') });
export const supportConversationItem = z.object({
  id: z.string(),
  kind: z.enum(CONVERSATION_KINDS),
  memberId: z.string(),
  email: z.string(),
  nickname: z.string(),
  assignedOperatorId: z.string().nullable(),
  assignedOperatorName: z.string().nullable(),
  /** The member's messages no agent has read yet. */
  unread: z.number().int().nonnegative(),
  lastMessage: z
    .object({ sender: z.enum(CHAT_SENDERS), text: z.string().nullable(), hasImage: z.boolean(), createdAt: z.iso.datetime() })
    .nullable(),
  state: chatReadState,
});
export type SupportConversationItem = z.infer<typeof supportConversationItem>;
export const supportInboxResponse = pageOf(supportConversationItem).extend({
  /** Unread member messages over every conversation (the menu's badge). */
  unreadTotal: z.number().int().nonnegative(),
});

export const conversationIdParams = z.object({ id: z.uuid() });
export const conversationMessageParams = z.object({ id: z.uuid(), messageId });

/** POST …/assign: to the calling agent, or back to nobody. */
export const assignConversationRequest = z.object({ to: z.enum(['me', 'nobody']) });

/** The member context panel: read from the members, team, ledger and hosting services. */
export const supportMemberContext = z.object({
  memberId: z.string(),
  email: z.string(),
  nickname: z.string(),
  status: z.string(),
  level: z.number().int().nonnegative(),
  balances: z.array(z.object({ asset: z.string(), available: z.string(), held: z.string() })),
  recentOrders: z.array(
    z.object({ id: z.string(), planName: z.string(), amount: z.string(), status: z.string(), createdAt: z.string() }),
  ),
});
export type SupportMemberContext = z.infer<typeof supportMemberContext>;
export const supportConversationDetail = z.object({
  conversation: supportConversationItem,
  member: supportMemberContext,
});

// ── Canned replies ────────────────────────────────────────────────────────────────────────────────

export const CANNED_REPLY_TITLE_MAX_LENGTH = 60;
export const cannedReplyInput = z.object({
  title: requiredText(CANNED_REPLY_TITLE_MAX_LENGTH),
  text: requiredText(CHAT_TEXT_MAX_LENGTH),
});
export const cannedReply = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  updatedAt: z.iso.datetime(),
});
export type CannedReply = z.infer<typeof cannedReply>;
export const cannedRepliesResponse = z.object({ items: z.array(cannedReply) });
export const cannedReplyParams = z.object({ id: z.uuid() });

// ── The console's live channel (GET /api/admin/support/events) ──────────────────────────────────────

/** What agents hear: a conversation changed (a message, a read receipt, an assignment). */
export const AGENT_EVENT_KINDS = ['chat.message', 'chat.read', 'chat.assigned'] as const;
export const agentEventData = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('chat.message'), conversationId: z.string(), messageId, sender: z.enum(CHAT_SENDERS) }),
  z.object({ kind: z.literal('chat.read'), conversationId: z.string(), state: chatReadState }),
  z.object({ kind: z.literal('chat.assigned'), conversationId: z.string(), operatorId: z.string().nullable() }),
]);
export type AgentEventData = z.infer<typeof agentEventData>;
export const agentEvent = z.object({ id: z.string().regex(/^\d+$/), createdAt: z.iso.datetime(), data: agentEventData });
export type AgentEvent = z.infer<typeof agentEvent>;
