import { z } from 'zod';
import { requiredText } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';

/** The referral team and its levels (docs/decisions/020-team-tree-and-levels.md). */

const PERCENT_PATTERN = /^\d{1,3}(\.\d{1,4})?$/;
const AMOUNT_PATTERN = /^\d{1,20}(\.\d{1,4})?$/;

/** A rate in percent, 0–100, at most 4 decimal places. */
export const percentSchema = z
  .string()
  .trim()
  .regex(PERCENT_PATTERN, { message: 'rate_range' })
  .refine((value) => Number(value) <= 100, { message: 'rate_range' });

const thresholdAmount = z.string().trim().regex(AMOUNT_PATTERN, { message: 'amount_places' });
const count = z.number().int().min(0).max(1_000_000);

export const teamLevelInput = z.object({
  level: z.number().int().min(0).max(50),
  name: z.string().trim().min(1).max(20),
  minOwnCustody: thresholdAmount,
  minValidDirect: count,
  minTeamPerformance: thresholdAmount,
  /** Direct members who must themselves meet `legsLevel`'s thresholds; 0 for none. */
  minLegs: count,
  legsLevel: z.number().int().min(0).max(50).nullable(),
  directRatePct: percentSchema,
  indirectRatePct: percentSchema,
  indirectGenerations: z.number().int().min(0).max(100),
  communityRatePct: percentSchema,
  managementRatePct: percentSchema,
  dividendRatePct: percentSchema,
  promotionBonus: thresholdAmount,
});
export type TeamLevelInput = z.infer<typeof teamLevelInput>;

/** PUT /api/admin/team/levels and POST /api/admin/team/levels/preview */
export const teamLevelsRequest = z.object({ levels: z.array(teamLevelInput).min(1).max(51) });

export const teamLevelSchema = teamLevelInput;
export type TeamLevel = z.infer<typeof teamLevelSchema>;

export const teamLevelVersionSchema = z.object({
  id: z.string(),
  effectiveFrom: z.string(),
  createdAt: z.string(),
  levels: z.array(teamLevelSchema),
});
export type TeamLevelVersion = z.infer<typeof teamLevelVersionSchema>;

/** GET /api/user/team_level_config (getTeamLevelConfig): the table in force today and my position in it. */
export const teamLevelConfigResponse = z.object({
  effectiveFrom: z.string(),
  levels: z.array(teamLevelSchema),
  myLevel: z.number().int(),
  validThreshold: z.string(),
});
export type TeamLevelConfig = z.infer<typeof teamLevelConfigResponse>;

export const teamRequirementSchema = z.object({
  ownCustody: z.string(),
  validDirect: z.number().int(),
  teamPerformance: z.string(),
  legs: z.number().int(),
  legsLevel: z.number().int().nullable(),
});

/** GET /api/user/team_info */
export const teamInfoResponse = z.object({
  level: z.number().int(),
  levelName: z.string(),
  inviteCode: z.string(),
  ownCustody: z.string(),
  isValid: z.boolean(),
  /** Custody that makes a member valid (product.md §5). */
  validThreshold: z.string(),
  performance: z.object({ today: z.string(), month: z.string(), total: z.string() }),
  directCount: z.number().int(),
  indirectCount: z.number().int(),
  validDirectCount: z.number().int(),
  validTeamCount: z.number().int(),
  /** The next level's thresholds and what is still missing for each (zero when met); null at the top. */
  next: z
    .object({
      level: z.number().int(),
      name: z.string(),
      requires: teamRequirementSchema,
      missing: teamRequirementSchema,
    })
    .nullable(),
});
export type TeamInfo = z.infer<typeof teamInfoResponse>;

export const TEAM_SCOPES = ['direct', 'all'] as const;
export type TeamScope = (typeof TEAM_SCOPES)[number];

/** GET /api/user/team: my downline, newest first. */
export const teamMembersQuery = pageQuery.extend({
  scope: z.enum(TEAM_SCOPES).default('all'),
  query: z.string().trim().max(40).optional(),
});
export const teamMemberSchema = z.object({
  nickname: z.string(),
  maskedEmail: z.string(),
  /** Generations below me: 1 for a direct member. */
  generation: z.number().int(),
  level: z.number().int(),
  levelName: z.string(),
  isValid: z.boolean(),
  ownCustody: z.string(),
  teamPerformance: z.string(),
  joinedAt: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;
export const teamMembersResponse = pageOf(teamMemberSchema);

/** GET /api/user/share */
export const shareResponse = z.object({
  inviteCode: z.string(),
  /** The app route a poster links to; the app puts its own address in front. */
  registerPath: z.string(),
});
export type ShareInfo = z.infer<typeof shareResponse>;

export function registerPathFor(inviteCode: string): string {
  return `#/pages/register/register?code=${encodeURIComponent(inviteCode)}`;
}

/** A member's e-mail as others in their upline see it: first and last letter of the name, the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  const name = email.slice(0, at);
  const shown = name.length <= 2 ? `${name[0]}***` : `${name[0]}***${name[name.length - 1]}`;
  return `${shown}${email.slice(at)}`;
}

// ── Console ──────────────────────────────────────────────────────────────────────────────────────

/** GET /api/admin/team/levels: every version, newest first. */
export const teamLevelVersionsResponse = z.array(teamLevelVersionSchema);

export const teamLevelPreviewResponse = z.object({
  effectiveFrom: z.string(),
  changes: z.number().int(),
  sample: z.array(
    z.object({ accountId: z.string(), email: z.string(), nickname: z.string(), from: z.number().int(), to: z.number().int() }),
  ),
});
export type TeamLevelPreview = z.infer<typeof teamLevelPreviewResponse>;

export const adminTeamNodeSchema = z.object({
  accountId: z.string(),
  email: z.string(),
  nickname: z.string(),
  generation: z.number().int(),
  level: z.number().int(),
  ownCustody: z.string(),
  teamPerformance: z.string(),
  directCount: z.number().int(),
  teamCount: z.number().int(),
  validTeamCount: z.number().int(),
  joinedAt: z.string(),
});
export type AdminTeamNode = z.infer<typeof adminTeamNodeSchema>;

/** GET /api/admin/members/:id/team */
export const adminMemberTeamQuery = pageQuery;
export const adminMemberTeamResponse = z.object({
  self: adminTeamNodeSchema,
  /** From the direct inviter up to the top. */
  upline: z.array(adminTeamNodeSchema),
  downline: pageOf(adminTeamNodeSchema),
});
export type AdminMemberTeam = z.infer<typeof adminMemberTeamResponse>;

// ── Console: team operations (docs/decisions/025-team-operations.md) ───────────────────────────────

/** POST /api/admin/team/move: a member (main account) and their whole downline under another inviter. */
export const teamMoveRequest = z.object({
  accountId: z.uuid({ error: 'invalid' }),
  /** The new inviter: an e-mail, a member id or an account id. */
  inviter: requiredText(254),
});
export type TeamMoveRequest = z.infer<typeof teamMoveRequest>;

const teamPersonSchema = z.object({ accountId: z.string(), email: z.string() });
export const teamMoveResponse = z.object({
  accountId: z.string(),
  email: z.string(),
  /** Null when the member had no inviter (the top of a tree). */
  from: teamPersonSchema.nullable(),
  to: teamPersonSchema,
  /** How many members moved: the member and everyone below. */
  moved: z.number().int(),
});
export type TeamMoveResult = z.infer<typeof teamMoveResponse>;

export const TEAM_FIGURE_FIELDS = [
  'own_custody',
  'team_performance',
  'direct_count',
  'team_count',
  'valid_direct_count',
  'valid_team_count',
  'node',
] as const;

export const teamDifferenceSchema = z.object({
  accountId: z.string(),
  email: z.string(),
  field: z.string(),
  stored: z.string(),
  computed: z.string(),
});
export type TeamDifference = z.infer<typeof teamDifferenceSchema>;

/** POST /api/admin/team/recompute: every figure recomputed from the orders and the tree, compared with the stored ones. */
export const teamRecomputeResponse = z.object({
  checkedAt: z.string(),
  /** How many figures differ (only the first 500 are listed). */
  total: z.number().int(),
  differences: z.array(teamDifferenceSchema),
});
export type TeamRecompute = z.infer<typeof teamRecomputeResponse>;

/** POST /api/admin/team/repair: stored figures set to the recomputed ones (super admin, audited). */
export const teamRepairResponse = z.object({
  /** Members whose stored figures differed and were set to the recomputed ones. */
  repaired: z.number().int(),
  /** What still differs afterwards (a sub-account's stray node is reported, not repaired). */
  remaining: teamRecomputeResponse,
});
export type TeamRepair = z.infer<typeof teamRepairResponse>;

/** A node of the console's downline tree: the listed figures, validity, and whether it has members below. */
export const adminTeamTreeNodeSchema = adminTeamNodeSchema.extend({ isValid: z.boolean() });
export type AdminTeamTreeNode = z.infer<typeof adminTeamTreeNodeSchema>;

/** GET /api/admin/team/nodes/:id/children: a member's direct members (by account id), newest first. */
export const adminTeamChildrenParams = z.object({ id: z.uuid() });
export const adminTeamChildrenQuery = pageQuery;
export const adminTeamChildrenResponse = pageOf(adminTeamTreeNodeSchema);
export type AdminTeamChildren = z.infer<typeof adminTeamChildrenResponse>;
