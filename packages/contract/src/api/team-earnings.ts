import { z } from 'zod';
import { calendarDaySchema } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';

/**
 * Team earnings (docs/decisions/024-team-earnings.md): computed by each day's settlement per member,
 * day and type, "to arrive" until the operator's delay has passed, then "arrived" as one ledger entry.
 * The level dividend is shown in the income log as a dividend (its source names the level's pool).
 */
export const TEAM_EARNING_TYPES = ['direct', 'indirect', 'community', 'management', 'promotion', 'level_dividend'] as const;
export type TeamEarningType = (typeof TEAM_EARNING_TYPES)[number];
export const TEAM_EARNING_STATES = ['to_arrive', 'arrived'] as const;

/** What a team earning in the income log was computed from, so a member can check the figure. */
export const teamIncomeDetailSchema = z.object({
  /** The member whose static income it was taken from (direct, indirect, management): masked e-mail and nickname. */
  sourceEmail: z.string().nullable(),
  sourceNickname: z.string().nullable(),
  /** Generations between me and the source (1 for a direct member). */
  generation: z.number().int().nullable(),
  /** My level that day, or the level whose pool a level dividend came from. */
  level: z.number().int(),
  /** The amount the rate applies to: the source's static income, the day's new team performance, a pool. */
  base: z.string(),
  /** The rate in percent (a management rate is the difference over the level below); null for a bonus. */
  ratePct: z.string().nullable(),
  /** Level dividend: how many members shared the pool. */
  sharedBy: z.number().int().nullable(),
});
export type TeamIncomeDetail = z.infer<typeof teamIncomeDetailSchema>;

/** GET /api/user/team_earnings: my team earnings per type. */
export const teamEarningsSummaryResponse = z.array(
  z.object({ type: z.enum(TEAM_EARNING_TYPES), toArrive: z.string(), arrived: z.string() }),
);
export type TeamEarningsSummary = z.infer<typeof teamEarningsSummaryResponse>;

// ── Console ──────────────────────────────────────────────────────────────────────────────────────

/** GET /api/admin/team/earnings */
export const adminTeamEarningsQuery = pageQuery.extend({
  email: z.string().trim().toLowerCase().max(254).optional(),
  day: calendarDaySchema.optional(),
  type: z.enum(TEAM_EARNING_TYPES).optional(),
  status: z.enum(TEAM_EARNING_STATES).optional(),
});
export const adminTeamEarningSchema = z.object({
  accountId: z.string(),
  email: z.string(),
  nickname: z.string(),
  day: z.string(),
  type: z.enum(TEAM_EARNING_TYPES),
  amount: z.string(),
  status: z.enum(TEAM_EARNING_STATES),
  arriveOn: z.string(),
  arrivedAt: z.string().nullable(),
});
export type AdminTeamEarning = z.infer<typeof adminTeamEarningSchema>;
export const adminTeamEarningsResponse = pageOf(adminTeamEarningSchema);

/** GET /api/admin/team/promotions */
export const adminTeamPromotionsQuery = pageQuery.extend({
  email: z.string().trim().toLowerCase().max(254).optional(),
});
export const adminTeamPromotionSchema = z.object({
  accountId: z.string(),
  email: z.string(),
  nickname: z.string(),
  level: z.number().int(),
  day: z.string(),
  bonus: z.string(),
});
export type AdminTeamPromotion = z.infer<typeof adminTeamPromotionSchema>;
export const adminTeamPromotionsResponse = pageOf(adminTeamPromotionSchema);

/** GET / PUT /api/admin/team/earnings/settings: days after its own day a day's earnings arrive (1: the next settlement). */
export const teamEarningsSettingsSchema = z.object({ arrivalDelayDays: z.number().int().min(0).max(30) });
export type TeamEarningsSettings = z.infer<typeof teamEarningsSettingsSchema>;
