import { z } from 'zod';
import { ValidationReason } from '../validators.js';

/**
 * Manual quotes on contract products (decision 050): a quote near the last independent price applies
 * at once; one outside the band, without a recent independent price, or while the feed is live, waits
 * for a second operator.
 */

const boundedInt = (min: number, max: number, reason: string) =>
  z
    .number({ error: ValidationReason.invalid })
    .int({ error: ValidationReason.invalid })
    .min(min, { error: reason })
    .max(max, { error: reason });

/** platform_settings `contracts_manual_quotes` (operator-set, audited). */
export const contractManualQuoteSettingsSchema = z.object({
  /** How far (basis points of the reference mid) one operator's bid and ask may stray on their own. */
  bandBps: boundedInt(1, 1000, 'band_bps'),
  /** A feed, replay or approved price older than this is no reference: every quote needs a second operator. */
  referenceMaxAgeS: boundedInt(10, 3600, 'reference_age_s'),
  /** A proposal not decided within this expires (a price goes stale). */
  proposalTtlS: boundedInt(30, 3600, 'proposal_ttl_s'),
});
export type ContractManualQuoteSettings = z.infer<typeof contractManualQuoteSettingsSchema>;

export const CONTRACT_MANUAL_QUOTE_DEFAULTS: ContractManualQuoteSettings = {
  bandBps: 50,
  referenceMaxAgeS: 600,
  proposalTtlS: 300,
};

/** GET/PUT /api/admin/contracts/manual-quotes/settings */
export const contractManualQuoteSettingsResponse = contractManualQuoteSettingsSchema;
export const updateContractManualQuoteSettingsRequest = contractManualQuoteSettingsSchema;

/** Why a quote waits for a second operator. */
export const CONTRACT_QUOTE_PROPOSAL_WHYS = ['out_of_band', 'no_reference', 'feed_live'] as const;
export type ContractQuoteProposalWhy = (typeof CONTRACT_QUOTE_PROPOSAL_WHYS)[number];
export const CONTRACT_QUOTE_PROPOSAL_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
export type ContractQuoteProposalStatus = (typeof CONTRACT_QUOTE_PROPOSAL_STATUSES)[number];

export const contractQuoteProposalSchema = z.object({
  id: z.string(),
  productId: z.string(),
  symbol: z.string(),
  bid: z.string(),
  ask: z.string(),
  why: z.enum(CONTRACT_QUOTE_PROPOSAL_WHYS),
  /** The independent mid the quote was measured against when proposed (null: none recent). */
  referenceMid: z.string().nullable(),
  /** The larger of the bid's and the ask's distance from that mid, in basis points (rounded up). */
  deviationBps: z.number().int().nullable(),
  status: z.enum(CONTRACT_QUOTE_PROPOSAL_STATUSES),
  proposedBy: z.string(),
  proposedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  decidedBy: z.string().nullable(),
  decidedAt: z.iso.datetime().nullable(),
  decisionNote: z.string().nullable(),
  tickId: z.string().nullable(),
});
export type ContractQuoteProposal = z.infer<typeof contractQuoteProposalSchema>;

/** POST /api/admin/contracts/products/:id/quote: the quote applied (a tick) or became a proposal. */
export const manualContractQuoteResponse = z.object({
  id: z.string(),
  outcome: z.enum(['applied', 'proposed']),
  tickId: z.string().nullable(),
  proposal: contractQuoteProposalSchema.nullable(),
});
export type ManualContractQuoteResult = z.infer<typeof manualContractQuoteResponse>;

/** GET /api/admin/contracts/quote-proposals: pending ones (not expired) first, newest first. */
export const contractQuoteProposalsQuery = z.object({
  status: z.enum(CONTRACT_QUOTE_PROPOSAL_STATUSES).optional(),
});
export const contractQuoteProposalsResponse = z.object({ items: z.array(contractQuoteProposalSchema) });
export const contractQuoteProposalParams = z.object({ id: z.uuid({ error: ValidationReason.invalid }) });
export const decideContractQuoteProposalRequest = z.object({ note: z.string().trim().max(140).optional() });
export const contractQuoteProposalResponse = contractQuoteProposalSchema;
