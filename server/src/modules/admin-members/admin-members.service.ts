import type { AdminMemberDetail, AdminMemberSummary } from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { hashPassword } from '../../lib/password.js';
import { newOneTimePassword } from '../../lib/tokens.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { OperatorSession } from '../operators/operator.service.js';
import type { MemberRepository } from '../members/member.repository.js';
import type { AdminMembersRepository, MemberSummaryRow } from './admin-members.repository.js';

function toSummary(row: MemberSummaryRow): AdminMemberSummary {
  return {
    id: row.id,
    email: row.email,
    nickname: row.nickname,
    inviteCode: row.inviteCode,
    status: row.status === 'frozen' ? 'frozen' : 'active',
    mustResetPassword: row.mustResetPassword,
    inviterEmail: row.inviterEmail,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Console actions on members; each change is written to the audit log in the same transaction. */
export class AdminMembersService {
  constructor(
    private readonly db: Db,
    private readonly repository: AdminMembersRepository,
    private readonly members: MemberRepository,
    private readonly audit: AuditRepository,
    private readonly clock: Clock = systemClock,
  ) {}

  async list(query: string | undefined, page: number, pageSize: number) {
    const { items, total } = await this.repository.list(query || undefined, pageSize, (page - 1) * pageSize);
    return { items: items.map(toSummary), total, page, pageSize };
  }

  async detail(memberId: string): Promise<AdminMemberDetail> {
    const row = await this.repository.find(memberId);
    if (!row) throw AppError.notFound();
    const [memberAccounts, sessions, directInvitees] = await Promise.all([
      this.repository.accountsOf(memberId),
      this.members.listActiveSessions(memberId),
      this.repository.directInviteeCount(row.mainAccountId),
    ]);
    return {
      ...toSummary(row),
      hasTradePassword: row.tradePasswordHash !== null,
      hasAuthenticator: row.totpSecret !== null,
      locale: row.locale,
      accounts: memberAccounts.map((account) => ({
        id: account.id,
        kind: account.kind === 'sub' ? 'sub' : 'main',
        nickname: account.nickname,
        inviteCode: account.inviteCode,
        avatar: account.avatar,
        createdAt: account.createdAt.toISOString(),
      })),
      directInvitees,
      sessions: sessions.map((session) => ({
        id: session.id,
        ip: session.ip,
        userAgent: session.userAgent,
        lastSeenAt: session.lastSeenAt.toISOString(),
      })),
    };
  }

  /** Freezing ends every session at once; log-in is refused until unfrozen. */
  async setFrozen(
    operator: OperatorSession,
    memberId: string,
    frozen: boolean,
    reason: string,
    origin: RequestOrigin,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const member = await this.repository.lockMember(memberId, tx);
      if (!member) throw AppError.notFound();
      const next = frozen ? 'frozen' : 'active';
      if (member.status === next) throw AppError.conflict();
      await this.repository.setStatus(memberId, next, tx);
      const endedSessions = frozen ? await this.members.revokeSessions(memberId, null, tx) : 0;
      await this.audit.record(
        {
          operatorId: operator.operator.id,
          action: frozen ? 'member.freeze' : 'member.unfreeze',
          targetType: 'member',
          targetId: memberId,
          before: { status: member.status },
          after: { status: next, reason, endedSessions },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
  }

  /** Unbinds a lost authenticator (after the operator has verified the member some other way). */
  async resetAuthenticator(operator: OperatorSession, memberId: string, origin: RequestOrigin): Promise<void> {
    await this.db.transaction(async (tx) => {
      const member = await this.repository.lockMember(memberId, tx);
      if (!member) throw AppError.notFound();
      if (!member.totpSecret) throw AppError.conflict('auth.authenticator_not_bound');
      await this.repository.clearAuthenticator(memberId, tx);
      // Whoever convinced the operator cannot withdraw before the owner has had time to notice.
      await this.members.markSecurityReset(memberId, this.clock.now(), tx);
      await this.audit.record(
        {
          operatorId: operator.operator.id,
          action: 'member.reset_authenticator',
          targetType: 'member',
          targetId: memberId,
          before: { authenticator: 'bound' },
          after: { authenticator: 'none', withdrawalsCoolOff: true },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
  }

  /**
   * Sets a temporary password (shown once to the operator, never stored in clear or audited) and
   * forces the member to choose a new one: every call answers 300 until then.
   */
  async resetPassword(operator: OperatorSession, memberId: string, origin: RequestOrigin): Promise<string> {
    const temporaryPassword = newOneTimePassword(12);
    const passwordHash = await hashPassword(temporaryPassword);
    await this.db.transaction(async (tx) => {
      const member = await this.repository.lockMember(memberId, tx);
      if (!member) throw AppError.notFound();
      await this.repository.setTemporaryPassword(memberId, passwordHash, tx);
      // The operator saw the temporary password: withdrawals wait, so a reset cannot be used to cash out.
      await this.members.markSecurityReset(memberId, this.clock.now(), tx);
      const endedSessions = await this.members.revokeSessions(memberId, null, tx);
      await this.audit.record(
        {
          operatorId: operator.operator.id,
          action: 'member.reset_password',
          targetType: 'member',
          targetId: memberId,
          before: { mustResetPassword: member.mustResetPassword },
          after: { mustResetPassword: true, endedSessions, withdrawalsCoolOff: true },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return temporaryPassword;
  }
}
