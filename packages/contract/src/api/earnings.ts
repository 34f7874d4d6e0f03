import { z } from 'zod';
import { calendarDaySchema } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';
import { moneyAmountSchema } from './ledger.js';
import { teamIncomeDetailSchema } from './team-earnings.js';

// ── AI dividend ──────────────────────────────────────────────────────────────────────────────────

export const DIVIDEND_STATUSES = ['claimable', 'claimed'] as const;
export type DividendStatus = (typeof DIVIDEND_STATUSES)[number];

export const dividendAllocationSchema = z.object({
  day: z.string(),
  /** The member's custody balance the share was computed from. */
  custody: z.string(),
  amount: z.string(),
  status: z.enum(DIVIDEND_STATUSES),
  claimedAt: z.string().nullable(),
});
export type DividendAllocation = z.infer<typeof dividendAllocationSchema>;

/** GET /api/ai/info */
export const aiInfoQuery = pageQuery;
export const aiInfoResponse = z.object({
  claimable: z.string(),
  claimedTotal: z.string(),
  custodyBalance: z.string(),
  validThreshold: z.string(),
  isValid: z.boolean(),
  /** The latest day with a pool, and its size. */
  lastPool: z.object({ day: z.string(), amount: z.string(), members: z.number().int() }).nullable(),
  records: pageOf(dividendAllocationSchema),
});
export type AiInfo = z.infer<typeof aiInfoResponse>;

/** POST /api/ai/receive: claims everything claimable at once. */
export const aiReceiveResponse = z.object({ amount: z.string(), days: z.number().int() });

export const dividendPoolSchema = z.object({
  day: z.string(),
  amount: z.string(),
  /** Filled in when the day's settlement shared it out. */
  distributed: z.string().nullable(),
  members: z.number().int().nullable(),
  claimed: z.string(),
});
export type DividendPool = z.infer<typeof dividendPoolSchema>;
export const dividendPoolsResponse = z.array(dividendPoolSchema);
export const dividendDayParams = z.object({ day: calendarDaySchema });
export const setDividendPoolRequest = z.object({ amount: moneyAmountSchema });

// ── Income log ───────────────────────────────────────────────────────────────────────────────────

/**
 * Every earning: static (custody interest), mining, dividend (the AI dividend and the level
 * dividend), the team's direct, indirect, community, management and promotion earnings, and airdrops.
 */
export const INCOME_TYPES = [
  'static',
  'mining',
  'dividend',
  'direct',
  'indirect',
  'community',
  'management',
  'promotion',
  'airdrop',
] as const;
export type IncomeType = (typeof INCOME_TYPES)[number];
export const INCOME_STATES = ['to_arrive', 'arrived'] as const;

export const incomeLogQuery = pageQuery.extend({ type: z.enum(INCOME_TYPES).optional() });
export const incomeItemSchema = z.object({
  type: z.enum(INCOME_TYPES),
  asset: z.string(),
  amount: z.string(),
  state: z.enum(INCOME_STATES),
  /** What earned it: the custody plan or machine name, or the dividend day. */
  source: z.string(),
  day: z.string(),
  /** Team earnings: what the figure was computed from (docs/decisions/024-team-earnings.md). */
  team: teamIncomeDetailSchema.optional(),
});
export type IncomeItem = z.infer<typeof incomeItemSchema>;
export const incomeLogResponse = pageOf(incomeItemSchema);
export const incomeTypeListResponse = z.array(z.object({ type: z.enum(INCOME_TYPES), available: z.boolean() }));
