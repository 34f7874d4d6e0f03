import { BusinessCode, type Operator, type OperatorRole, type OperatorTotpSetup } from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/password.js';
import { hashToken, newOneTimePassword, newToken } from '../../lib/tokens.js';
import { matchTotp, newTotpSecret, otpauthUri } from '../../lib/totp.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type {
  AccountGuardPolicy,
  AccountReservation,
  RateLimitRule,
  RateLimitService,
} from '../rate-limit/rate-limit.service.js';
import type { ActiveSession, OperatorRepository, OperatorRow } from './operator.repository.js';

/**
 * Log-in limits (decision 015): wrong answers per username from one address pause that pair only;
 * every attempt from one address is capped; and wrong answers per username over all addresses past
 * a ceiling space further attempts from unfamiliar addresses out by a doubling delay, except those
 * that carry an authenticator code, which are always checked (the right password with a fresh code
 * always gets in).
 */
export const OPERATOR_LOGIN_PER_USER_AND_IP: RateLimitRule = { name: 'operator-login:user-ip', maxAttempts: 5, windowS: 900 };
export const OPERATOR_LOGIN_PER_IP: RateLimitRule = { name: 'operator-login:ip', maxAttempts: 30, windowS: 900 };
export const OPERATOR_LOGIN_PER_ACCOUNT: AccountGuardPolicy & { name: string } = {
  name: 'operator-login:user',
  ceiling: 10,
  windowS: 24 * 3600,
  firstDelayS: 2,
  maxDelayS: 900,
};
/** An address the operator opened a session from within this long is familiar: the ceiling does not slow it. */
export const OPERATOR_FAMILIAR_ADDRESS_S = 30 * 24 * 3600;
/** Wrong current passwords when changing it, per operator. */
export const OPERATOR_PASSWORD_CHECK: RateLimitRule = { name: 'operator-password-check', maxAttempts: 5, windowS: 900 };
/** Wrong codes while binding an authenticator, per operator. */
export const OPERATOR_TOTP_BIND: RateLimitRule = { name: 'operator-totp-bind', maxAttempts: 5, windowS: 900 };

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
    totpBound: row.totpSecret !== null,
  };
}

export class OperatorService {
  constructor(
    private readonly db: Db,
    private readonly operators: OperatorRepository,
    private readonly audit: AuditRepository,
    private readonly rateLimits: RateLimitService,
    private readonly sessionTtlMs: number,
    /** The platform's name, shown as the issuer in authenticator apps. */
    private readonly siteName: () => Promise<string>,
    private readonly now: () => number = Date.now,
    /** The server runs with --demo: demo operators may log in (decision 019). */
    private readonly demoMode = false,
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

  /**
   * The demo operator `npm start -- --demo` prints (decision 019): created once with this password and
   * authenticator secret, audited; never outside demo mode. Returns its id.
   */
  async ensureDemoOperator(input: {
    username: string;
    password: string;
    role: OperatorRole;
    totpSecret: string;
  }): Promise<string> {
    if (!this.demoMode) throw new Error('demo operators exist only under --demo');
    const existing = await this.operators.findByUsername(input.username);
    if (existing) {
      if (!existing.demo) throw new Error(`operator ${input.username} exists and is not a demo operator`);
      return existing.id;
    }
    const created = await this.operators.insertIfAbsent({
      username: input.username,
      passwordHash: await hashPassword(input.password),
      role: input.role,
      mustChangePassword: false,
      demo: true,
      totpSecret: input.totpSecret,
    });
    if (!created) return this.ensureDemoOperator(input);
    await this.audit.record({
      operatorId: null,
      action: 'operator.demo_created',
      targetType: 'operator',
      targetId: created.id,
      after: toOperator(created),
    });
    return created.id;
  }

  /**
   * Username and password, and once an authenticator is bound a fresh code from it. Only wrong
   * answers count (each try is counted before the comparison and handed back when right), per
   * username and address, and per username over all addresses (see OPERATOR_LOGIN_PER_ACCOUNT).
   * Without a code the failure says "username or password"; with one, "username, password or code",
   * whichever was wrong. A right password without the code a bound operator needs answers 4010.
   */
  async login(
    input: { username: string; password: string; googleCode?: string | undefined },
    origin: RequestOrigin,
  ): Promise<{ token: string; operator: Operator }> {
    const normalised = input.username.trim().toLowerCase();
    await this.rateLimits.consume(OPERATOR_LOGIN_PER_IP, origin.ip);
    // One at a time per username and address here, so parallel right log-ins do not refuse each other.
    return this.rateLimits.exclusive(`${OPERATOR_LOGIN_PER_USER_AND_IP.name}:${normalised}|${origin.ip}`, () =>
      this.checkLogin(input, normalised, origin),
    );
  }

  private async checkLogin(
    input: { username: string; password: string; googleCode?: string | undefined },
    normalised: string,
    origin: RequestOrigin,
  ): Promise<{ token: string; operator: Operator }> {
    const failure = input.googleCode === undefined ? 'operator.login_failed' : 'operator.login_failed_code';
    const pair = await this.rateLimits.reserve(OPERATOR_LOGIN_PER_USER_AND_IP, `${normalised}|${origin.ip}`);
    const row = await this.operators.findByUsername(normalised);
    let account: AccountReservation;
    // Past the ceiling an attempt with a code is still checked, but then only as password and code
    // together: one without a bound authenticator fails whatever its password.
    let codeRequired = false;
    try {
      const familiar = row ? await this.operators.hasSessionFrom(row.id, origin.ip, OPERATOR_FAMILIAR_ADDRESS_S) : false;
      try {
        account = await this.rateLimits.reserveAccountAttempt(OPERATOR_LOGIN_PER_ACCOUNT, normalised, familiar);
      } catch (error) {
        if (!(error instanceof AppError) || input.googleCode === undefined) throw error;
        account = await this.rateLimits.reserveAccountAttempt(OPERATOR_LOGIN_PER_ACCOUNT, normalised, true);
        codeRequired = true;
      }
    } catch (error) {
      await pair.release();
      throw error;
    }
    const release = async (): Promise<void> => {
      await pair.release();
      await account.release();
    };
    const passwordOk = row ? await verifyPassword(row.passwordHash, input.password) : await burnPasswordCheck(input.password);
    const refuse = async (reason: 'password' | 'authenticator_code'): Promise<never> => {
      await this.audit.record({
        operatorId: row?.id ?? null,
        action: 'operator.login_failed',
        targetType: 'operator',
        targetId: normalised,
        after: { reason },
        ip: origin.ip,
        requestId: origin.requestId,
      });
      throw AppError.unauthorized(failure);
    };
    // A demo operator's credentials are printed on the terminal: without --demo it answers exactly as
    // a wrong password does, so nothing tells a caller the account exists.
    const demoRefused = row?.demo === true && !this.demoMode;
    if (!row || !passwordOk || demoRefused || (codeRequired && !row.totpSecret)) return refuse('password');
    if (row.disabledAt) {
      await release();
      throw AppError.forbidden('operator.account_disabled');
    }
    if (row.totpSecret) {
      if (input.googleCode === undefined) {
        await release();
        throw new AppError(BusinessCode.AUTHENTICATOR_CODE_REQUIRED, 'operator.code_required');
      }
      const step = matchTotp(row.totpSecret, input.googleCode, this.now());
      // Each code works once: a step at or before the last accepted one is refused.
      if (step === null || !(await this.operators.acceptTotpStep(row.id, step))) return refuse('authenticator_code');
    }
    await release();

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
    if (!found || (found.operator.demo && !this.demoMode)) throw AppError.unauthorized('session_expired');
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
    const reservation = await this.rateLimits.reserve(OPERATOR_PASSWORD_CHECK, row.id);
    if (!(await verifyPassword(row.passwordHash, oldPassword))) throw AppError.badRequest('operator.password_wrong');
    await reservation.release();
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

  /**
   * A secret for the operator to bind (offered until a code confirms it), as text and as the
   * otpauth URI behind the QR code. Refused once an authenticator is bound.
   */
  async totpSetup(session: OperatorSession): Promise<OperatorTotpSetup> {
    let row = await this.operators.findById(session.operator.id);
    if (!row) throw AppError.unauthorized('session_expired');
    if (row.totpSecret) throw AppError.conflict('auth.authenticator_bound');
    if (!row.totpPendingSecret) {
      // Only the first of two racing calls sets it; both then answer the same secret.
      await this.operators.setPendingTotpSecretIfNone(row.id, newTotpSecret());
      row = await this.operators.findById(row.id);
      if (!row?.totpPendingSecret) throw AppError.conflict('auth.authenticator_bound');
    }
    const issuer = `${await this.siteName()} console`;
    return { secret: row.totpPendingSecret, otpauthUrl: otpauthUri(issuer, row.username, row.totpPendingSecret) };
  }

  /** Binds the offered secret with a code from it (audited); wrong codes count toward a pause. */
  async bindTotp(session: OperatorSession, code: string, origin: RequestOrigin): Promise<Operator> {
    const row = await this.operators.findById(session.operator.id);
    if (!row) throw AppError.unauthorized('session_expired');
    if (row.totpSecret) throw AppError.conflict('auth.authenticator_bound');
    // Counted before the comparison, so parallel guesses cannot outrun the limit.
    const reservation = await this.rateLimits.reserve(OPERATOR_TOTP_BIND, row.id);
    const pending = row.totpPendingSecret;
    const step = pending ? matchTotp(pending, code, this.now()) : null;
    const bound =
      pending && step !== null
        ? await this.db.transaction(async (tx) => {
            const next = await this.operators.bindPendingTotpSecret(row.id, pending, step, tx);
            if (!next) return null;
            await this.audit.record(
              {
                operatorId: row.id,
                action: 'operator.totp_bound',
                targetType: 'operator',
                targetId: row.id,
                before: { totpBound: false },
                after: { totpBound: true },
                ip: origin.ip,
                requestId: origin.requestId,
              },
              tx,
            );
            return next;
          })
        : null;
    if (!bound) throw AppError.badRequest('auth.google_code_wrong');
    await reservation.release();
    await this.rateLimits.reset(OPERATOR_TOTP_BIND, row.id);
    return toOperator(bound);
  }

  purgeEndedSessions(ageS: number): Promise<number> {
    return this.operators.purgeEndedSessions(ageS);
  }
}
