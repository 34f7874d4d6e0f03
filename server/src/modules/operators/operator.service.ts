import type { Operator, OperatorRole } from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/password.js';
import { hashToken, newOneTimePassword, newToken } from '../../lib/tokens.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { RateLimitRule, RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { ActiveSession, OperatorRepository, OperatorRow } from './operator.repository.js';

/** Wrong passwords per username, and attempts per address, before log-in is refused for a while. */
export const OPERATOR_LOGIN_PER_USER: RateLimitRule = { name: 'operator-login:user', maxAttempts: 5, windowS: 900 };
export const OPERATOR_LOGIN_PER_IP: RateLimitRule = { name: 'operator-login:ip', maxAttempts: 30, windowS: 900 };

/** last_seen_at is refreshed at most this often, so reads do not each write. */
const SESSION_TOUCH_INTERVAL_MS = 60_000;

export const FIRST_OPERATOR_USERNAME = 'admin';

export interface OperatorSession {
  sessionId: string;
  operator: Operator;
}

export function toOperator(row: OperatorRow): Operator {
  return {
    id: row.id,
    username: row.username,
    role: row.role as OperatorRole,
    mustChangePassword: row.mustChangePassword,
  };
}

export class OperatorService {
  constructor(
    private readonly db: Db,
    private readonly operators: OperatorRepository,
    private readonly audit: AuditRepository,
    private readonly rateLimits: RateLimitService,
    private readonly sessionTtlMs: number,
  ) {}

  /**
   * On a platform with no operator, creates the first super admin with a one-time password that must
   * be changed at first log-in. Returns the password only to the instance that created the account.
   */
  async ensureFirstOperator(): Promise<{ username: string; oneTimePassword: string } | null> {
    if ((await this.operators.count()) > 0) return null;
    const oneTimePassword = newOneTimePassword();
    const created = await this.operators.insertIfAbsent({
      username: FIRST_OPERATOR_USERNAME,
      passwordHash: await hashPassword(oneTimePassword),
      role: 'super_admin',
      mustChangePassword: true,
    });
    if (!created) return null;
    await this.audit.record({
      operatorId: null,
      action: 'operator.bootstrap',
      targetType: 'operator',
      targetId: created.id,
      after: toOperator(created),
    });
    return { username: created.username, oneTimePassword };
  }

  async login(username: string, password: string, origin: RequestOrigin): Promise<{ token: string; operator: Operator }> {
    const normalised = username.trim().toLowerCase();
    await this.rateLimits.consume(OPERATOR_LOGIN_PER_IP, origin.ip);
    await this.rateLimits.consume(OPERATOR_LOGIN_PER_USER, normalised);
    const row = await this.operators.findByUsername(normalised);
    const passwordOk = row ? await verifyPassword(row.passwordHash, password) : await burnPasswordCheck(password);
    if (!row || !passwordOk) {
      await this.audit.record({
        operatorId: row?.id ?? null,
        action: 'operator.login_failed',
        targetType: 'operator',
        targetId: normalised,
        ip: origin.ip,
        requestId: origin.requestId,
      });
      throw AppError.unauthorized('operator.login_failed');
    }
    if (row.disabledAt) throw AppError.forbidden('operator.account_disabled');
    await this.rateLimits.reset(OPERATOR_LOGIN_PER_USER, normalised);

    const token = newToken();
    await this.db.transaction(async (tx) => {
      const sessionId = await this.operators.insertSession(
        {
          operatorId: row.id,
          tokenHash: hashToken(token),
          ip: origin.ip,
          userAgent: origin.userAgent,
          expiresAt: new Date(Date.now() + this.sessionTtlMs),
        },
        tx,
      );
      await this.audit.record(
        {
          operatorId: row.id,
          action: 'operator.login',
          targetType: 'operator_session',
          targetId: sessionId,
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return { token, operator: toOperator(row) };
  }

  /** The session behind a bearer token, or 401. */
  async authenticate(token: string): Promise<OperatorSession> {
    const found: ActiveSession | null = token ? await this.operators.findActiveSession(hashToken(token)) : null;
    if (!found) throw AppError.unauthorized('session_expired');
    if (Date.now() - found.lastSeenAt.getTime() > SESSION_TOUCH_INTERVAL_MS) await this.operators.touchSession(found.sessionId);
    return { sessionId: found.sessionId, operator: toOperator(found.operator) };
  }

  async logout(session: OperatorSession, origin: RequestOrigin): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.operators.revokeSession(session.sessionId, tx);
      await this.audit.record(
        {
          operatorId: session.operator.id,
          action: 'operator.logout',
          targetType: 'operator_session',
          targetId: session.sessionId,
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
  }

  async changePassword(
    session: OperatorSession,
    oldPassword: string,
    newPassword: string,
    origin: RequestOrigin,
  ): Promise<Operator> {
    const row = await this.operators.findById(session.operator.id);
    if (!row) throw AppError.unauthorized('session_expired');
    if (!(await verifyPassword(row.passwordHash, oldPassword))) {
      await this.rateLimits.consume(OPERATOR_LOGIN_PER_USER, row.username);
      throw AppError.badRequest('operator.password_wrong');
    }
    if (oldPassword === newPassword) throw AppError.badRequest('operator.password_same');
    const passwordHash = await hashPassword(newPassword);
    const updated = await this.db.transaction(async (tx) => {
      const next = await this.operators.updatePassword(row.id, passwordHash, tx);
      await this.operators.revokeOtherSessions(row.id, session.sessionId, tx);
      await this.audit.record(
        {
          operatorId: row.id,
          action: 'operator.password_changed',
          targetType: 'operator',
          targetId: row.id,
          before: { mustChangePassword: row.mustChangePassword },
          after: { mustChangePassword: false },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return next;
    });
    return toOperator(updated);
  }

  purgeEndedSessions(ageS: number): Promise<number> {
    return this.operators.purgeEndedSessions(ageS);
  }
}
