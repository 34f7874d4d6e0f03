import type { TeamMoveRequest, TeamMoveResult, TeamRecompute, TeamRepair } from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { TeamOperationsRepository } from './team-operations.repository.js';
import type { TeamRepository } from './team.repository.js';

/** Differences listed at most (the total is always counted). */
const DIFFERENCES_SHOWN = 500;

const REFUSALS = {
  unknown_member: () => AppError.notFound(),
  sub_account: () => AppError.badRequest('team.move_sub_account'),
  self: () => AppError.badRequest('team.move_self'),
  cycle: () => AppError.badRequest('team.move_cycle'),
  same_inviter: () => AppError.badRequest('team.move_same_inviter'),
} as const;

/**
 * The console's operations on the tree (docs/decisions/025-team-operations.md): moving a member and
 * their downline under another inviter (super admin, audited, the figures moved in the same
 * transaction), and recomputing every figure to compare with, and repair, the stored ones.
 */
export class TeamOperationsService {
  constructor(
    private readonly db: Db,
    private readonly repository: TeamOperationsRepository,
    private readonly team: TeamRepository,
    private readonly audit: AuditRepository,
  ) {}

  async move(operatorId: string, request: TeamMoveRequest, origin: RequestOrigin): Promise<TeamMoveResult> {
    const inviter = await this.repository.accountOf(request.inviter.trim());
    if (!inviter) throw AppError.badRequest('team.move_unknown_inviter', { inviter: request.inviter.trim() });
    return this.db.transaction(async (tx) => {
      const before = await this.repository.place(tx, request.accountId);
      const outcome = await this.repository.move(tx, request.accountId, inviter);
      if (outcome === 'unknown_inviter')
        throw AppError.badRequest('team.move_unknown_inviter', { inviter: request.inviter.trim() });
      if (outcome !== 'moved') throw REFUSALS[outcome]();
      const after = (await this.repository.place(tx, request.accountId))!;
      await this.audit.record(
        {
          operatorId,
          action: 'team.member_moved',
          targetType: 'account',
          targetId: request.accountId,
          before: { inviterAccountId: before!.inviter_account_id, inviterEmail: before!.inviter_email, depth: before!.depth },
          after: {
            inviterAccountId: after.inviter_account_id,
            inviterEmail: after.inviter_email,
            depth: after.depth,
            moved: after.team_count + 1,
          },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return {
        accountId: after.account_id,
        email: after.email,
        from:
          before!.inviter_account_id === null
            ? null
            : { accountId: before!.inviter_account_id, email: before!.inviter_email ?? '' },
        to: { accountId: after.inviter_account_id!, email: after.inviter_email ?? '' },
        moved: after.team_count + 1,
      };
    });
  }

  /** Every figure recomputed and compared with the stored one. */
  async recompute(): Promise<TeamRecompute> {
    const rows = await this.team.differences();
    const shown = rows.slice(0, DIFFERENCES_SHOWN);
    const emails = await this.repository.emails([...new Set(shown.map((row) => row.account_id))]);
    return {
      checkedAt: new Date().toISOString(),
      total: rows.length,
      differences: shown.map((row) => ({
        accountId: row.account_id,
        email: emails.get(row.account_id) ?? '',
        field: row.field,
        stored: row.stored,
        computed: row.computed,
      })),
    };
  }

  /** Sets the stored figures to the recomputed ones (audited with what differed), then compares again. */
  async repair(operatorId: string, origin: RequestOrigin): Promise<TeamRepair> {
    const before = await this.recompute();
    const repaired = await this.db.transaction(async (tx) => {
      const nodes = await this.repository.repair(tx);
      await this.audit.record(
        {
          operatorId,
          action: 'team.figures_repaired',
          targetType: 'team',
          before: { total: before.total, differences: before.differences },
          after: { repairedMembers: nodes },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return nodes;
    });
    return { repaired, remaining: await this.recompute() };
  }
}
