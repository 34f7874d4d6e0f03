import { BusinessCode, type Locale } from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { VerificationCodeService } from '../codes/verification-code.service.js';
import type { MailService } from '../mail/mail.service.js';
import type { MemberRepository, MemberRow } from '../members/member.repository.js';
import type { RateLimitRule, RateLimitService } from '../rate-limit/rate-limit.service.js';

/** Wrong current passwords and wrong trading passwords, per member, before a pause. */
export const PASSWORD_CHECK_PER_MEMBER: RateLimitRule = { name: 'password-check:member', maxAttempts: 5, windowS: 900 };
export const TRADE_PASSWORD_PER_MEMBER: RateLimitRule = { name: 'trade-password:member', maxAttempts: 5, windowS: 900 };

/** Login password changes and the trading password that guards every call moving money out. */
export class SecurityService {
  constructor(
    private readonly db: Db,
    private readonly members: MemberRepository,
    private readonly codes: VerificationCodeService,
    private readonly mail: MailService,
    private readonly rateLimits: RateLimitService,
  ) {}

  private async fresh(context: MemberSessionContext): Promise<MemberRow> {
    const member = await this.members.findById(context.member.id);
    if (!member) throw AppError.unauthorized('session_expired');
    return member;
  }

  /** Checks a password the member typed against a hash; wrong answers count toward a pause. */
  private async checkCounted(
    rule: RateLimitRule,
    memberId: string,
    hash: string,
    typed: string,
    wrong: 'auth.password_wrong' | 'auth.trade_password_wrong',
  ): Promise<void> {
    await this.rateLimits.assertNotLocked(rule, memberId);
    if (await verifyPassword(hash, typed)) return;
    await this.rateLimits.consume(rule, memberId);
    throw AppError.badRequest(wrong);
  }

  private async refuseLoginPasswordReuse(member: MemberRow, tradePassword: string): Promise<void> {
    if (await verifyPassword(member.passwordHash, tradePassword)) throw AppError.badRequest('auth.trade_password_same_as_login');
  }

  /** New login password after the old one; every other session ends. */
  async changeLoginPassword(context: MemberSessionContext, oldPassword: string, password: string): Promise<void> {
    const member = await this.fresh(context);
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

  async changeTradePassword(context: MemberSessionContext, oldTradePassword: string, password: string): Promise<void> {
    const member = await this.fresh(context);
    await this.verifyTradePassword(member, oldTradePassword);
    await this.refuseLoginPasswordReuse(member, password);
    await this.members.updateTradePassword(member.id, await hashPassword(password));
  }

  async sendTradePasswordCode(context: MemberSessionContext, locale: Locale): Promise<void> {
    const code = await this.codes.issue(context.member.email, 'trade_password');
    await this.mail.send(context.member.email, 'trade_code', locale, { code });
  }

  /** Forgotten trading password: a new one by e-mail code. */
  async resetTradePassword(context: MemberSessionContext, code: string, password: string): Promise<void> {
    const member = await this.fresh(context);
    await this.codes.verify(member.email, 'trade_password', code, { consume: true });
    await this.refuseLoginPasswordReuse(member, password);
    await this.members.updateTradePassword(member.id, await hashPassword(password));
    await this.rateLimits.reset(TRADE_PASSWORD_PER_MEMBER, member.id);
  }

  /**
   * For every call that moves money out: 4900 while no trading password is set; a wrong one is
   * refused and counted, and past the limit the member must wait (429).
   */
  async verifyTradePassword(member: Pick<MemberRow, 'id' | 'tradePasswordHash'>, tradePassword: string): Promise<void> {
    if (!member.tradePasswordHash) throw new AppError(BusinessCode.TRADE_PASSWORD_NOT_SET, 'trade_password_not_set');
    await this.checkCounted(
      TRADE_PASSWORD_PER_MEMBER,
      member.id,
      member.tradePasswordHash,
      tradePassword,
      'auth.trade_password_wrong',
    );
  }
}
