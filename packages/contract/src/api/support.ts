import { z } from 'zod';
import { TEXT_AREA_MAX_LENGTH } from '../constants.js';
import { ValidationReason, moneyStringSchema, requiredText, stringTypeError } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';
import { LEDGER_PURPOSES, RECORD_TYPES } from './ledger.js';
import { otcChatEventData, otcChatReadEventData, otcListingEventData, otcOrderEventData } from './otc.js';
import { contractOrderEventData } from './contracts.js';

// ── Live notifications (GET /api/user/events, decision 022) ───────────────────────────────────────

/**
 * What a member's live channel carries. Each event names what changed so the app can refresh those
 * screens; OTC order events join this list with the OTC issue.
 */
export const MEMBER_EVENT_KINDS = [
  'deposit.credited',
  'withdrawal.approved',
  'withdrawal.paid',
  'withdrawal.refunded',
  'feedback.replied',
  'airdrop.arrived',
  'chat.message',
  'chat.read',
  'otc.order',
  'otc.listing',
  'otc.chat',
  'otc.chat_read',
  'contracts.order',
] as const;
export type MemberEventKind = (typeof MEMBER_EVENT_KINDS)[number];

export const memberEventData = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('deposit.credited'), depositId: z.string(), network: z.string(), amount: moneyStringSchema }),
  z.object({ kind: z.literal('withdrawal.approved'), withdrawalId: z.string(), amount: moneyStringSchema }),
  z.object({ kind: z.literal('withdrawal.paid'), withdrawalId: z.string(), amount: moneyStringSchema }),
  z.object({ kind: z.literal('withdrawal.refunded'), withdrawalId: z.string(), amount: moneyStringSchema }),
  z.object({ kind: z.literal('feedback.replied'), feedbackId: z.string(), title: z.string() }),
  z.object({ kind: z.literal('airdrop.arrived'), campaignId: z.string(), name: z.string(), amount: moneyStringSchema }),
  // Customer service (decision 029): an agent wrote, or the agents read the member's messages.
  z.object({ kind: z.literal('chat.message'), conversationId: z.string(), messageId: z.string(), preview: z.string() }),
  z.object({
    kind: z.literal('chat.read'),
    conversationId: z.string(),
    agentsDeliveredUpTo: z.string(),
    agentsReadUpTo: z.string(),
  }),
  // OTC (decision 031): an order or listing of the member changed, or the counterparty wrote.
  otcOrderEventData,
  otcListingEventData,
  otcChatEventData,
  otcChatReadEventData,
  // Contracts (decision 034): an order of the member opened, closed or changed.
  contractOrderEventData,
]);
export type MemberEventData = z.infer<typeof memberEventData>;

/** One event as the channel sends it (the SSE `data:` line; its `id:` is `id`). */
export const memberEvent = z.object({
  id: z.string().regex(/^\d+$/),
  createdAt: z.iso.datetime(),
  data: memberEventData,
});
export type MemberEvent = z.infer<typeof memberEvent>;

/** The SSE event that opens a channel: from here on, events after `cursor` arrive. */
export const memberChannelReady = z.object({ cursor: z.string().regex(/^\d+$/) });

/** How long the app waits before opening a dropped channel again (the SSE `retry:` it is sent). */
export const LIVE_RETRY_MS = 3000;

// ── Feedback (blance_record11) ──────────────────────────────────────────────────────────────────

export const FEEDBACK_IMAGES_MAX = 3;
export const FEEDBACK_TITLE_MAX_LENGTH = 60;
export const FEEDBACK_REPLY_MAX_LENGTH = 500;
export const FEEDBACK_STATUSES = ['awaiting_reply', 'replied'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/** POST /api/common/push_feedback: content at most 140 characters (spec §9), up to three uploaded images. */
export const pushFeedbackRequest = z.object({
  title: requiredText(FEEDBACK_TITLE_MAX_LENGTH),
  content: requiredText(TEXT_AREA_MAX_LENGTH),
  imageIds: z
    .array(z.uuid({ error: ValidationReason.invalid }), { error: ValidationReason.invalid })
    // A contract reason of its own ("at most 3 images"): the error handler finds `reason.too_many_images`.
    .max(FEEDBACK_IMAGES_MAX, { error: 'too_many_images' })
    .default([])
    .refine((ids) => new Set(ids).size === ids.length, { error: ValidationReason.invalid }),
  orderNo: z
    .string({ error: stringTypeError })
    .trim()
    .max(64, { error: ValidationReason.tooLong })
    .regex(/^[A-Za-z0-9_-]*$/, { error: ValidationReason.invalid })
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type PushFeedbackRequest = z.input<typeof pushFeedbackRequest>;

export const feedbackItem = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  orderNo: z.string().nullable(),
  imageIds: z.array(z.string()),
  status: z.enum(FEEDBACK_STATUSES),
  reply: z.string().nullable(),
  repliedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type FeedbackItem = z.infer<typeof feedbackItem>;

/** GET /api/common/feedback_list: my feedback, newest first. */
export const feedbackListQuery = pageQuery;
export const feedbackListResponse = pageOf(feedbackItem);
export const pushFeedbackResponse = feedbackItem;

/** GET /api/admin/feedback: the queue (awaiting reply first, oldest first). */
export const adminFeedbackQuery = pageQuery.extend({ status: z.enum(FEEDBACK_STATUSES).default('awaiting_reply') });
export const adminFeedbackItem = feedbackItem.extend({ memberId: z.string(), email: z.string() });
export type AdminFeedbackItem = z.infer<typeof adminFeedbackItem>;
export const adminFeedbackResponse = pageOf(adminFeedbackItem);
export const feedbackIdParams = z.object({ id: z.uuid() });
export const feedbackImageParams = z.object({ id: z.uuid(), uploadId: z.uuid() });
export const replyFeedbackRequest = z.object({ reply: requiredText(FEEDBACK_REPLY_MAX_LENGTH) });

// ── Fuel and ticket records (withdraw_record7) ──────────────────────────────────────────────────

export const FUEL_TICKET_ASSETS = ['FUEL', 'TICKET'] as const;
export const fuelTicketLogQuery = pageQuery.extend({ asset: z.enum(FUEL_TICKET_ASSETS).optional() });
export const fuelTicketLogItem = z.object({
  id: z.string(),
  asset: z.enum(FUEL_TICKET_ASSETS),
  /** available: what can still be spent; used: tickets already spent (product.md §4). */
  purpose: z.enum(LEDGER_PURPOSES),
  type: z.enum(RECORD_TYPES),
  amount: moneyStringSchema,
  balanceAfter: moneyStringSchema,
  createdAt: z.iso.datetime(),
});
export type FuelTicketLogItem = z.infer<typeof fuelTicketLogItem>;
export const fuelTicketLogResponse = pageOf(fuelTicketLogItem);
