import { BusinessCode, UPLOADED_AVATAR_PREFIX, uploadedAvatarId, type AuthenticatorSetup, type Locale } from '@custos/contract';
import type { Db } from '../../db/client.js';
import { VerifiedSecretCache } from '../../lib/verified-secret-cache.js';
import { AppError } from '../../http/app-error.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import { matchTotp, newTotpSecret, otpauthUri } from '../../lib/totp.js';
import type { RequestOrigin } from '../../http/origin.js';
import { CODE_CHECK_PER_IP, type MemberSessionContext } from '../auth/auth.service.js';
import type { VerificationCodeService } from '../codes/verification-code.service.js';
import type { MailService } from '../mail/mail.service.js';
import type { MemberRepository, MemberRow } from '../members/member.repository.js';
import type { RateLimitRule, RateLimitService } from '../rate-limit/rate-limit.service.js';

/** Wrong current passwords and wrong trading passwords, per member, before a pause. */
export const PASSWORD_CHECK_PER_MEMBER: RateLimitRule = { name: 'password-check:member', maxAttempts: 5, windowS: 900 };
export const TRADE_PASSWORD_PER_MEMBER: RateLimitRule = { name: 'trade-password:member', maxAttempts: 5, windowS: 900 };
export const TOTP_PER_MEMBER: RateLimitRule = { name: 'totp:member', maxAttempts: 5, windowS: 900 };

/** Login password changes and the trading password that guards every call moving money out. */
export class SecurityService {
  constructor(
    private readonly db: Db,
    private readonly members: MemberRepository,
    private readonly codes: VerificationCodeService,
    private readonly mail: MailService,
    private readonly rateLimits: RateLimitService,
    private readonly issuer: () => Promise<string>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A trading password that matched stays remembered for this long in its session (see VerifiedSecretCache). */
  private readonly verifiedTradePasswords = new VerifiedSecretCache(5 * 60_000, 50_000, () => this.now());

  private async fresh(context: MemberSessionContext): Promise<MemberRow> {
    const member = await this.members.findById(context.member.id);
    if (!member) throw AppError.unauthorized('session_expired');
    return member;
  }

  /**
   * Checks a password the member typed against a hash; wrong answers count toward a pause. The try
   * is counted before the comparison and handed back when right, so parallel guesses cannot get
   * more comparisons than the limit.
   */
  private async checkCounted(
    rule: RateLimitRule,
    memberId: string,
    hash: string,
    typed: string,
    wrong: 'auth.password_wrong' | 'auth.trade_password_wrong',
  ): Promise<void> {
    const reservation = await this.rateLimits.reserve(rule, memberId);
    if (!(await verifyPassword(hash, typed))) throw AppError.badRequest(wrong);
    await reservation.release();
  }

  private async refuseLoginPasswordReuse(member: MemberRow, tradePassword: string): Promise<void> {
    if (await verifyPassword(member.passwordHash, tradePassword)) throw AppError.badRequest('auth.trade_password_same_as_login');
  }

  /**
   * Checks a code against a secret, once: wrong codes count toward a pause, and a code (or an older
   * one) that was already accepted is refused.
   */
  private async checkTotp(memberId: string, secret: string, code: string): Promise<void> {
    const reservation = await this.rateLimits.reserve(TOTP_PER_MEMBER, memberId);
    const step = matchTotp(secret, code, this.now());
    if (step === null || !(await this.members.acceptTotpStep(memberId, step)))
      throw AppError.badRequest('auth.google_code_wrong');
    await reservation.release();
  }

  /** Once an authenticator is bound, security changes (and withdrawals) need its current code. */
  async requireAuthenticatorCode(member: Pick<MemberRow, 'id' | 'totpSecret'>, code: string | undefined): Promise<void> {
    if (!member.totpSecret) return;
    if (!code) throw AppError.badRequest('auth.google_code_required');
    await this.checkTotp(member.id, member.totpSecret, code);
  }

  /** The bound state and a secret to bind next (kept until a code confirms it). */
  async authenticatorSetup(context: MemberSessionContext): Promise<AuthenticatorSetup> {
    const member = await this.fresh(context);
    let secret = member.totpPendingSecret;
    if (!secret) {
      secret = newTotpSecret();
      await this.members.setPendingTotpSecret(member.id, secret);
    }
    return { bound: member.totpSecret !== null, secret, otpauthUrl: otpauthUri(await this.issuer(), member.email, secret) };
  }

  async bindAuthenticator(context: MemberSessionContext, code: string): Promise<void> {
    const member = await this.fresh(context);
    if (member.totpSecret) throw AppError.conflict('auth.authenticator_bound');
    await this.confirmPending(member, code);
  }

  /** Moves to a new authenticator: a code from the old one, then one from the new. */
  async changeAuthenticator(context: MemberSessionContext, oldCode: string, newCode: string): Promise<void> {
    const member = await this.fresh(context);
    if (!member.totpSecret) throw AppError.conflict('auth.authenticator_not_bound');
    await this.checkTotp(member.id, member.totpSecret, oldCode);
    await this.confirmPending(member, newCode);
  }

  private async confirmPending(member: MemberRow, code: string): Promise<void> {
    const pending = member.totpPendingSecret;
    const reservation = await this.rateLimits.reserve(TOTP_PER_MEMBER, member.id);
    const step = pending ? matchTotp(pending, code, this.now()) : null;
    if (!pending || step === null || !(await this.members.bindPendingTotpSecret(member.id, pending, step))) {
      throw AppError.badRequest('auth.google_code_wrong');
    }
    await reservation.release();
  }

  /**
   * Nickname and avatar of the account the session acts for; the avatar is one from the platform's
   * list or an image the member uploaded as an avatar ("upload:<id>", their own only).
   */
  async updateProfile(
    context: MemberSessionContext,
    profile: { nickname?: string | undefined; avatar?: string | undefined },
    avatars: string[],
  ): Promise<void> {
    if (profile.avatar !== undefined && !(await this.avatarAllowed(context.member.id, profile.avatar, avatars))) {
      throw AppError.badRequest('profile.avatar_invalid');
    }
    await this.members.updateAccountProfile(context.account.id, {
      ...(profile.nickname !== undefined ? { nickname: profile.nickname } : {}),
      ...(profile.avatar !== undefined ? { avatar: profile.avatar } : {}),
    });
  }

  private async avatarAllowed(memberId: string, avatar: string, avatars: string[]): Promise<boolean> {
    if (!avatar.startsWith(UPLOADED_AVATAR_PREFIX)) return avatars.includes(avatar);
    const uploadId = uploadedAvatarId(avatar);
    return uploadId !== null && (await this.members.ownsUpload(memberId, uploadId, 'avatar'));
  }

  /** New login password after the old one; every other session ends. */
  async changeLoginPassword(
    context: MemberSessionContext,
    oldPassword: string,
    password: string,
    googleCode?: string,
  ): Promise<void> {
    const member = await this.fresh(context);
    await this.requireAuthenticatorCode(member, googleCode);
    await this.checkCounted(PASSWORD_CHECK_PER_MEMBER, member.id, member.passwordHash, oldPassword, 'auth.password_wrong');
    if (oldPassword === password) throw AppError.badRequest('auth.password_same');
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      await this.members.updatePassword(member.id, passwordHash, tx);
      await this.members.revokeSessions(member.id, context.sessionId, tx);
    });
  }

  async setTradePassword(context: MemberSessionContext, password: string): Promise<void> {
    const member = await this.fresh(context);
    if (member.tradePasswordHash) throw AppError.conflict('auth.trade_password_exists');
    await this.refuseLoginPasswordReuse(member, password);
    await this.members.updateTradePassword(member.id, await hashPassword(password));
  }

  async changeTradePassword(
    context: MemberSessionContext,
    oldTradePassword: string,
    password: string,
    googleCode?: string,
  ): Promise<void> {
    const member = await this.fresh(context);
    await this.requireAuthenticatorCode(member, googleCode);
    await this.verifyTradePassword(member, oldTradePassword);
    await this.refuseLoginPasswordReuse(member, password);
    await this.members.updateTradePassword(member.id, await hashPassword(password));
  }

  async sendTradePasswordCode(context: MemberSessionContext, locale: Locale): Promise<void> {
    const code = await this.codes.issue(context.member.email, 'trade_password');
    await this.mail.send(context.member.email, 'trade_code', locale, { code });
  }

  /** Forgotten trading password: a new one by e-mail code. */
  async resetTradePassword(
    context: MemberSessionContext,
    code: string,
    password: string,
    googleCode?: string,
    origin?: RequestOrigin,
  ): Promise<void> {
    if (origin) await this.rateLimits.consume(CODE_CHECK_PER_IP, origin.ip);
    const member = await this.fresh(context);
    await this.requireAuthenticatorCode(member, googleCode);
    await this.codes.verify(member.email, 'trade_password', code, { consume: true });
    await this.refuseLoginPasswordReuse(member, password);
    await this.members.markSecurityReset(member.id, new Date(this.now())); // withdrawals cool off (decision 016)
    await this.members.updateTradePassword(member.id, await hashPassword(password));
    await this.rateLimits.reset(TRADE_PASSWORD_PER_MEMBER, member.id);
  }

  /**
   * For every call that moves money out: 4900 while no trading password is set; a wrong one is
   * refused and counted, and past the limit the member must wait (429).
   */
  async verifyTradePassword(
    member: Pick<MemberRow, 'id' | 'tradePasswordHash'>,
    tradePassword: string,
    sessionId?: string,
  ): Promise<void> {
    if (!member.tradePasswordHash) throw new AppError(BusinessCode.TRADE_PASSWORD_NOT_SET, 'trade_password_not_set');
    const hash = member.tradePasswordHash;
    // One check at a time per member in this process: a burst of the member's own calls then compares
    // the password once and the rest find it remembered.
    await this.rateLimits.exclusive(`${TRADE_PASSWORD_PER_MEMBER.name}:${member.id}`, () =>
      this.verifyTradePasswordNow({ id: member.id, tradePasswordHash: hash }, tradePassword, sessionId),
    );
  }

  private async verifyTradePasswordNow(
    member: { id: string; tradePasswordHash: string },
    tradePassword: string,
    sessionId?: string,
  ): Promise<void> {
    const scope = sessionId ? `${member.id}:${sessionId}` : undefined;
    if (scope && this.verifiedTradePasswords.matches(scope, member.tradePasswordHash, tradePassword)) {
      // A pause after wrong tries still applies to a remembered password.
      await this.rateLimits.assertNotLocked(TRADE_PASSWORD_PER_MEMBER, member.id);
      return;
    }
    await this.checkCounted(
      TRADE_PASSWORD_PER_MEMBER,
      member.id,
      member.tradePasswordHash,
      tradePassword,
      'auth.trade_password_wrong',
    );
    if (scope) this.verifiedTradePasswords.remember(scope, member.tradePasswordHash, tradePassword);
  }
}
