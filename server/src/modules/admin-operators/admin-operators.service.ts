import type { AdminOperatorItem, OperatorRole } from '@custos/contract';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { hashPassword } from '../../lib/password.js';
import { newOneTimePassword } from '../../lib/tokens.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { OperatorSession } from '../operators/operator.service.js';
import type { AdminOperatorsRepository, OperatorRow } from './admin-operators.repository.js';

function toItem(row: OperatorRow, lastLoginAt: Date | null = null): AdminOperatorItem {
  return {
    id: row.id,
    username: row.username,
    role: row.role as OperatorRole,
    totpBound: row.totpSecret !== null,
    disabled: row.disabledAt !== null,
    mustChangePassword: row.mustChangePassword,
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: lastLoginAt?.toISOString() ?? null,
  };
}

/** What the audit log keeps of an operator: never a password or a secret. */
function auditState(row: OperatorRow) {
  return {
    username: row.username,
    role: row.role,
    disabled: row.disabledAt !== null,
    mustChangePassword: row.mustChangePassword,
    totpBound: row.totpSecret !== null,
  };
}

const isActiveSuperAdmin = (row: Pick<OperatorRow, 'role' | 'disabledAt'>) =>
  row.role === 'super_admin' && row.disabledAt === null;

/**
 * Operator accounts, for super admins: create with a one-time password, change role, disable and
 * enable, reset the password or the authenticator. Each change and its audit entry commit together;
 * nobody acts on their own account this way, and the last active super admin stays one.
 */
export class AdminOperatorsService {
  constructor(
    private readonly db: Db,
    private readonly repository: AdminOperatorsRepository,
    private readonly audit: AuditRepository,
  ) {}

  async list(): Promise<AdminOperatorItem[]> {
    const rows = await this.repository.list();
    return rows.map((row) => toItem(row, row.lastLoginAt));
  }

  /** A new operator with a one-time password from the CSPRNG, returned once and never stored in clear. */
  async create(
    actor: OperatorSession,
    input: { username: string; role: OperatorRole },
    origin: RequestOrigin,
  ): Promise<{ operator: AdminOperatorItem; oneTimePassword: string }> {
    const oneTimePassword = newOneTimePassword();
    const passwordHash = await hashPassword(oneTimePassword);
    const created = await this.db.transaction(async (tx) => {
      await this.repository.lockManagement(tx);
      await this.assertStillSuperAdmin(actor, tx);
      const row = await this.repository.insert({ username: input.username, passwordHash, role: input.role }, tx);
      if (!row) throw AppError.conflict('operators.username_taken');
      await this.record(actor, 'operator.create', row.id, null, auditState(row), origin, tx);
      return row;
    });
    return { operator: toItem(created), oneTimePassword };
  }

  async setRole(actor: OperatorSession, id: string, role: OperatorRole, origin: RequestOrigin): Promise<AdminOperatorItem> {
    return this.change(actor, id, origin, async (target, tx) => {
      if (target.role === role) throw AppError.conflict();
      const next = await this.repository.update(id, { role }, tx);
      return { action: 'operator.role_change', next, after: auditState(next) };
    });
  }

  /** Disabling ends every session of the operator at once; log-in is refused until enabled. */
  async setDisabled(actor: OperatorSession, id: string, disabled: boolean, origin: RequestOrigin): Promise<AdminOperatorItem> {
    return this.change(actor, id, origin, async (target, tx) => {
      if ((target.disabledAt !== null) === disabled) throw AppError.conflict();
      const next = await this.repository.update(id, { disabled }, tx);
      const endedSessions = disabled ? await this.repository.revokeSessions(id, tx) : 0;
      return { action: disabled ? 'operator.disable' : 'operator.enable', next, after: { ...auditState(next), endedSessions } };
    });
  }

  /** A new one-time password (shown once to the admin); the operator's sessions end and it must be changed. */
  async resetPassword(actor: OperatorSession, id: string, origin: RequestOrigin): Promise<string> {
    const oneTimePassword = newOneTimePassword();
    const passwordHash = await hashPassword(oneTimePassword);
    await this.change(actor, id, origin, async (_target, tx) => {
      const next = await this.repository.update(id, { passwordHash, mustChangePassword: true }, tx);
      const endedSessions = await this.repository.revokeSessions(id, tx);
      return { action: 'operator.reset_password', next, after: { ...auditState(next), endedSessions } };
    });
    return oneTimePassword;
  }

  /** Unbinds a lost authenticator: the operator's sessions end and the next log-in must bind a new one. */
  async resetAuthenticator(actor: OperatorSession, id: string, origin: RequestOrigin): Promise<AdminOperatorItem> {
    return this.change(actor, id, origin, async (target, tx) => {
      if (target.totpSecret === null && target.totpPendingSecret === null)
        throw AppError.conflict('auth.authenticator_not_bound');
      const next = await this.repository.update(id, { totpSecret: null, totpPendingSecret: null, totpLastStep: null }, tx);
      const endedSessions = await this.repository.revokeSessions(id, tx);
      return { action: 'operator.reset_totp', next, after: { ...auditState(next), endedSessions } };
    });
  }

  /**
   * One change to another operator, under the management lock: refused on oneself; refused when it
   * would leave no active super admin; written with its audit entry (state before and after).
   */
  private async change(
    actor: OperatorSession,
    id: string,
    origin: RequestOrigin,
    apply: (target: OperatorRow, tx: Tx) => Promise<{ action: string; next: OperatorRow; after: object }>,
  ): Promise<AdminOperatorItem> {
    if (id === actor.operator.id) throw AppError.conflict('operators.not_self');
    return this.db.transaction(async (tx) => {
      await this.repository.lockManagement(tx);
      const target = await this.repository.lock(id, tx);
      if (!target) throw AppError.notFound();
      const { action, next, after } = await apply(target, tx);
      if (isActiveSuperAdmin(target) && !isActiveSuperAdmin(next)) {
        if ((await this.repository.countOtherActiveSuperAdmins(id, tx)) === 0)
          throw AppError.conflict('operators.last_super_admin');
      }
      await this.assertStillSuperAdmin(actor, tx);
      await this.record(actor, action, id, auditState(target), after, origin, tx);
      return toItem(next);
    });
  }

  /** The actor's own role, read again under the lock: one demoted or disabled a moment ago acts no more. */
  private async assertStillSuperAdmin(actor: OperatorSession, tx: Tx): Promise<void> {
    const self = await this.repository.lock(actor.operator.id, tx);
    if (!self || !isActiveSuperAdmin(self)) throw AppError.forbidden();
  }

  private record(
    actor: OperatorSession,
    action: string,
    targetId: string,
    before: object | null,
    after: object,
    origin: RequestOrigin,
    tx: Tx,
  ): Promise<void> {
    return this.audit.record(
      {
        operatorId: actor.operator.id,
        action,
        targetType: 'operator',
        targetId,
        before,
        after,
        ip: origin.ip,
        requestId: origin.requestId,
      },
      tx,
    );
  }
}
