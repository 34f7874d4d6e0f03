import { z } from 'zod';
import { ValidationReason, requiredText } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';
import { moneyAmountSchema } from './ledger.js';

/**
 * Airdrop campaigns (docs/decisions/025-team-operations.md): RAB given by an operator to members
 * chosen by level (at or above a level on the campaign's day) or by a list of e-mails or member ids,
 * arriving at a scheduled time, cancellable until then.
 */

export const AIRDROP_SELECTIONS = ['level', 'list'] as const;
export type AirdropSelection = (typeof AIRDROP_SELECTIONS)[number];
/** scheduled → arriving (being paid; no cancel any more) → arrived; or scheduled → cancelled. */
export const AIRDROP_STATUSES = ['scheduled', 'arriving', 'arrived', 'cancelled'] as const;
export type AirdropStatus = (typeof AIRDROP_STATUSES)[number];
/** Recipients one list may name (a larger audience is chosen by level). */
export const AIRDROP_LIST_MAX = 1000;
export const AIRDROP_NAME_MAX_LENGTH = 60;

/** POST /api/admin/airdrops and /api/admin/airdrops/preview */
export const airdropRequest = z
  .object({
    name: requiredText(AIRDROP_NAME_MAX_LENGTH),
    /** RAB per recipient. */
    amount: moneyAmountSchema,
    selection: z.enum(AIRDROP_SELECTIONS, { error: ValidationReason.invalid }),
    /** With `level`: members at or above this level on the campaign's day. */
    minLevel: z.number({ error: ValidationReason.wrongType }).int().min(0).max(50).nullable().optional(),
    /** With `list`: members' e-mails or member ids, one each. */
    members: z.array(requiredText(254), { error: ValidationReason.invalid }).max(AIRDROP_LIST_MAX).nullable().optional(),
    /** When it arrives (an instant with its offset); absent or null: now. */
    arriveAt: z.iso.datetime({ offset: true, error: ValidationReason.invalid }).nullable().optional(),
  })
  .superRefine((value, context) => {
    if (value.selection === 'level' && (value.minLevel === undefined || value.minLevel === null)) {
      context.addIssue({ code: 'custom', path: ['minLevel'], message: ValidationReason.required });
    }
    if (value.selection === 'list' && (!value.members || value.members.length === 0)) {
      context.addIssue({ code: 'custom', path: ['members'], message: ValidationReason.required });
    }
  });
export type AirdropRequest = z.infer<typeof airdropRequest>;

export const airdropRecipientSchema = z.object({
  memberId: z.string(),
  email: z.string(),
  nickname: z.string(),
});
export type AirdropRecipient = z.infer<typeof airdropRecipientSchema>;

/** What a campaign would pay: the platform day it is for, how many members, the total, and the first of them. */
export const airdropPreviewResponse = z.object({
  day: z.string(),
  arriveAt: z.string(),
  recipients: z.number().int(),
  total: z.string(),
  sample: z.array(airdropRecipientSchema),
});
export type AirdropPreview = z.infer<typeof airdropPreviewResponse>;

export const airdropCampaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  asset: z.literal('RAB'),
  amount: z.string(),
  selection: z.enum(AIRDROP_SELECTIONS),
  minLevel: z.number().int().nullable(),
  day: z.string(),
  arriveAt: z.string(),
  status: z.enum(AIRDROP_STATUSES),
  recipients: z.number().int(),
  paid: z.number().int(),
  total: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
  arrivedAt: z.string().nullable(),
});
export type AirdropCampaign = z.infer<typeof airdropCampaignSchema>;

/** GET /api/admin/airdrops: newest first. */
export const airdropListQuery = pageQuery;
export const airdropListResponse = pageOf(airdropCampaignSchema);
export const airdropIdParams = z.object({ id: z.uuid() });

/** GET /api/admin/airdrops/:id/recipients */
export const airdropRecipientsQuery = pageQuery;
export const airdropRecipientsResponse = pageOf(airdropRecipientSchema.extend({ paid: z.boolean() }));
