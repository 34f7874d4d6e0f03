import { LOCALES, translate, type Locale, type SessionList, type UserInfo } from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/password.js';
import { hashToken, newInviteCode, newNicknameTag, newToken } from '../../lib/tokens.js';
import type { CodePurpose } from '../codes/verification-code.repository.js';
import type { VerificationCodeService } from '../codes/verification-code.service.js';
import type { MailService } from '../mail/mail.service.js';
import {
  EmailTakenError,
  type AccountRow,
  type ActiveMemberSession,
  type MemberRepository,
  type MemberRow,
} from '../members/member.repository.js';
import type { AccountGuardPolicy, RateLimitRule, RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { SettingsService } from '../settings/settings.service.js';

/**
 * Log-in limits (decision 015). Wrong passwords for one e-mail from one address pause that pair
 * only, so a stranger elsewhere cannot lock the owner out; every attempt from one address is capped;
 * and wrong passwords for one e-mail over all addresses past a ceiling space further attempts from
 * unfamiliar addresses out by a doubling delay, with a notice mailed to the member.
 */
export const MEMBER_LOGIN_PER_EMAIL_AND_IP: RateLimitRule = { name: 'member-login:email-ip', maxAttempts: 5, windowS: 900 };
export const MEMBER_LOGIN_PER_IP: RateLimitRule = { name: 'member-login:ip', maxAttempts: 50, windowS: 900 };
export const MEMBER_LOGIN_PER_ACCOUNT: AccountGuardPolicy & { name: string } = {
  name: 'member-login:email',
  ceiling: 10,
  windowS: 24 * 3600,
  firstDelayS: 2,
  maxDelayS: 900,
};
/** An address the member opened a session from within this long is familiar: the ceiling does not slow it. */
export const FAMILIAR_ADDRESS_S = 30 * 24 * 3600;
export const CODE_SEND_PER_IP: RateLimitRule = { name: 'code-send:ip', maxAttempts: 20, windowS: 3600 };
export const CODE_CHECK_PER_IP: RateLimitRule = { name: 'code-check:ip', maxAttempts: 60, windowS: 900 };

const SESSION_TOUCH_INTERVAL_MS = 60_000;

export interface MemberSessionContext {
  sessionId: string;
  member: MemberRow;
  account: AccountRow;
}

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/**
 * A nickname to start with: "Member" in the member's language and a random tag. Never derived from
 * the e-mail, since the upline's members list shows nicknames beside a masked e-mail (decision 020),
 * and never the invitation code, which the member may not want tied to a name.
 */
function defaultNickname(locale: Locale): string {
  return translate(locale, 'auth.default_nickname', { code: newNicknameTag() });
}

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly members: MemberRepository,
    private readonly codes: VerificationCodeService,
    private readonly mail: MailService,
    private readonly settings: SettingsService,
    private readonly rateLimits: RateLimitService,
    private readonly sessionPolicy: SessionPolicy,
  ) {}

  /** The inviting account for a code, `null` for the platform's root code, or 400. */
  private async resolveInviter(invitationCode: string): Promise<AccountRow | null> {
    const { rootInviteCode } = await this.settings.get('registration');
    if (invitationCode === rootInviteCode) return null;
    const inviter = await this.members.findAccountByInviteCode(invitationCode);
    if (!inviter) throw AppError.badRequest('auth.invitation_invalid');
    return inviter;
  }

  /**
   * Registration code. An address that already has an account gets a notice instead of a code, and
   * the caller sees the same answer either way, so the call does not reveal who is a member.
   */
  async sendRegisterCode(email: string, invitationCode: string, locale: Locale, origin: RequestOrigin): Promise<void> {
    await this.rateLimits.consume(CODE_SEND_PER_IP, origin.ip);
    await this.resolveInviter(invitationCode);
    const code = await this.codes.issue(email, 'register');
    const existing = await this.members.findByEmail(email);
    if (existing) await this.mail.send(email, 'already_registered', locale);
    else await this.mail.send(email, 'register_code', locale, { code });
  }

  async checkCode(email: string, purpose: CodePurpose, code: string, origin: RequestOrigin): Promise<void> {
    await this.rateLimits.consume(CODE_CHECK_PER_IP, origin.ip);
    // A registration code has no member yet, so no address is familiar to it.
    const familiarAddress = purpose === 'register' ? undefined : await this.familiarAddress(email, origin);
    await this.codes.verify(email, purpose, code, { consume: false, familiarAddress });
  }

  /**
   * The caller's address when the member behind `email` opened a session from it lately: the owner's
   * usual devices keep code tries of their own that strangers cannot use up (decision 054).
   */
  private async familiarAddress(email: string, origin: RequestOrigin): Promise<string | undefined> {
    const member = await this.members.findByEmail(email);
    if (!member) return undefined;
    return (await this.members.hasSessionFrom(member.id, origin.ip, FAMILIAR_ADDRESS_S)) ? origin.ip : undefined;
  }

  async register(
    input: { email: string; code: string; invitationCode: string; password: string },
    locale: Locale,
    origin: RequestOrigin,
  ): Promise<string> {
    await this.rateLimits.consume(CODE_CHECK_PER_IP, origin.ip);
    const inviter = await this.resolveInviter(input.invitationCode);
    await this.codes.verify(input.email, 'register', input.code, { consume: true });
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.db.transaction(async (tx) => {
        const member = await this.members.insertMember({ email: input.email, passwordHash, locale }, tx);
        let inviteCode = newInviteCode();
        while (await this.members.inviteCodeTaken(inviteCode, tx)) inviteCode = newInviteCode();
        const account = await this.members.insertAccount(
          {
            memberId: member.id,
            kind: 'main',
            mainAccountId: null,
            inviterAccountId: inviter?.id ?? null,
            inviteCode,
            nickname: defaultNickname(locale),
          },
          tx,
        );
        return this.openSession(member.id, account.id, origin, tx);
      });
    } catch (error) {
      // A registered address never has a usable register code; answer exactly as for a wrong code.
      if (error instanceof EmailTakenError) throw AppError.badRequest('auth.code_wrong');
      throw error;
    }
  }

  /** The member behind an e-mail and its main account, or null (the demo seed finds its own members so). */
  async memberByEmail(email: string): Promise<{ member: MemberRow; account: AccountRow } | null> {
    const member = await this.members.findByEmail(email);
    if (!member) return null;
    const account = await this.members.findMainAccount(member.id);
    if (!account) throw new Error(`member ${member.id} has no main account`);
    return { member, account };
  }

  /**
   * Only wrong passwords count: each try is counted before the password is compared (so parallel
   * guesses cannot outrun a limit) and handed back when it was right.
   */
  async login(email: string, password: string, origin: RequestOrigin): Promise<string> {
    await this.rateLimits.consume(MEMBER_LOGIN_PER_IP, origin.ip);
    // One at a time per e-mail and address here, so parallel right log-ins do not refuse each other.
    return this.rateLimits.exclusive(`${MEMBER_LOGIN_PER_EMAIL_AND_IP.name}:${email}|${origin.ip}`, () =>
      this.checkLogin(email, password, origin),
    );
  }

  private async checkLogin(email: string, password: string, origin: RequestOrigin): Promise<string> {
    const pair = await this.rateLimits.reserve(MEMBER_LOGIN_PER_EMAIL_AND_IP, `${email}|${origin.ip}`);
    const member = await this.members.findByEmail(email);
    const familiar = member ? await this.members.hasSessionFrom(member.id, origin.ip, FAMILIAR_ADDRESS_S) : false;
    let account;
    try {
      account = await this.rateLimits.reserveAccountAttempt(MEMBER_LOGIN_PER_ACCOUNT, email, familiar);
    } catch (error) {
      await pair.release();
      throw error;
    }
    const passwordOk = member ? await verifyPassword(member.passwordHash, password) : await burnPasswordCheck(password);
    if (!member || !passwordOk) {
      if (member && account.failures >= MEMBER_LOGIN_PER_ACCOUNT.ceiling) await this.noticeFailedLogins(member);
      // 400, not 401: the app reserves 401 for "your session ended" (it relaunches to log-in).
      throw AppError.badRequest('auth.login_failed');
    }
    await pair.release();
    await account.release();
    return this.startSession(member, origin);
  }

  /** Once a window: tells the member, in their language, that their password is being guessed. */
  private async noticeFailedLogins(member: MemberRow): Promise<void> {
    if (!(await this.rateLimits.accountNoticeDue(MEMBER_LOGIN_PER_ACCOUNT, member.email))) return;
    const locale = (LOCALES as readonly string[]).includes(member.locale) ? (member.locale as Locale) : 'en';
    await this.mail.send(member.email, 'login_attempts_notice', locale, {
      count: String(MEMBER_LOGIN_PER_ACCOUNT.ceiling),
    });
  }

  /** Log-in code: sent only to members, but the caller always gets the same answer. */
  async sendLoginCode(email: string, locale: Locale, origin: RequestOrigin): Promise<void> {
    await this.rateLimits.consume(CODE_SEND_PER_IP, origin.ip);
    const code = await this.codes.issue(email, 'login');
    const member = await this.members.findByEmail(email);
    if (member) await this.mail.send(email, 'login_code', locale, { code });
  }

  async loginByCode(email: string, code: string, origin: RequestOrigin): Promise<string> {
    await this.rateLimits.consume(CODE_CHECK_PER_IP, origin.ip);
    await this.codes.verify(email, 'login', code, { consume: true, familiarAddress: await this.familiarAddress(email, origin) });
    const member = await this.members.findByEmail(email);
    if (!member) throw AppError.badRequest('auth.code_wrong');
    return this.startSession(member, origin);
  }

  async sendResetCode(email: string, locale: Locale, origin: RequestOrigin): Promise<void> {
    await this.rateLimits.consume(CODE_SEND_PER_IP, origin.ip);
    const code = await this.codes.issue(email, 'reset_password');
    const member = await this.members.findByEmail(email);
    if (member) await this.mail.send(email, 'reset_code', locale, { code });
  }

  /** New login password by e-mail code; every session of the member ends. */
  async resetPassword(input: { email: string; code: string; password: string }, origin: RequestOrigin): Promise<void> {
    await this.rateLimits.consume(CODE_CHECK_PER_IP, origin.ip);
    await this.codes.verify(input.email, 'reset_password', input.code, {
      consume: true,
      familiarAddress: await this.familiarAddress(input.email, origin),
    });
    const member = await this.members.findByEmail(input.email);
    if (!member) throw AppError.badRequest('auth.code_wrong');
    const passwordHash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      await this.members.updatePassword(member.id, passwordHash, tx);
      await this.members.revokeSessions(member.id, null, tx);
    });
    // The password the guessers were after is gone: unfamiliar addresses need not wait any longer.
    await this.rateLimits.resetAccount(MEMBER_LOGIN_PER_ACCOUNT, input.email);
    await this.rateLimits.reset(MEMBER_LOGIN_PER_EMAIL_AND_IP, `${input.email}|${origin.ip}`);
  }

  private async startSession(member: MemberRow, origin: RequestOrigin): Promise<string> {
    if (member.status === 'frozen') throw AppError.forbidden('auth.account_frozen');
    const account = await this.members.findMainAccount(member.id);
    if (!account) throw new Error(`member ${member.id} has no main account`);
    return this.openSession(member.id, account.id, origin);
  }

  private async openSession(
    memberId: string,
    accountId: string,
    origin: RequestOrigin,
    tx?: Parameters<MemberRepository['insertSession']>[1],
  ): Promise<string> {
    const token = newToken();
    const now = Date.now();
    await this.members.insertSession(
      {
        memberId,
        accountId,
        tokenHash: hashToken(token),
        ip: origin.ip,
        userAgent: origin.userAgent,
        idleExpiresAt: new Date(now + Math.min(this.sessionPolicy.idleMs, this.sessionPolicy.absoluteMs)),
        absoluteExpiresAt: new Date(now + this.sessionPolicy.absoluteMs),
      },
      tx,
    );
    return token;
  }

  /** The live session behind a token, or 401; a frozen member's sessions no longer work. */
  async authenticate(token: string): Promise<MemberSessionContext> {
    const found: ActiveMemberSession | null = token ? await this.members.findActiveSession(hashToken(token)) : null;
    if (!found) throw AppError.unauthorized('session_expired');
    if (found.member.status === 'frozen') throw AppError.unauthorized('auth.account_frozen');
    if (Date.now() - found.session.lastSeenAt.getTime() > SESSION_TOUCH_INTERVAL_MS) {
      await this.members.touchSession(found.session.id, this.sessionPolicy.idleMs);
    }
    return { sessionId: found.session.id, member: found.member, account: found.account };
  }

  async logout(context: MemberSessionContext): Promise<void> {
    await this.members.revokeSession(context.sessionId, context.member.id);
  }

  async listSessions(context: MemberSessionContext): Promise<SessionList> {
    const rows = await this.members.listActiveSessions(context.member.id);
    return rows.map((row) => ({
      id: row.id,
      current: row.id === context.sessionId,
      ip: row.ip,
      userAgent: row.userAgent,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
    }));
  }

  signOutOthers(context: MemberSessionContext): Promise<number> {
    return this.members.revokeSessions(context.member.id, context.sessionId);
  }

  /** Code 300: the member sets a new login password; other sessions end. */
  async setForcedPassword(context: MemberSessionContext, password: string): Promise<void> {
    if (!context.member.mustResetPassword) throw AppError.conflict();
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      await this.members.updatePassword(context.member.id, passwordHash, tx);
      await this.members.revokeSessions(context.member.id, context.sessionId, tx);
    });
  }

  userInfo(context: MemberSessionContext): UserInfo {
    return {
      memberId: context.member.id,
      accountId: context.account.id,
      accountKind: context.account.kind === 'sub' ? 'sub' : 'main',
      email: context.member.email,
      nickname: context.account.nickname,
      avatar: context.account.avatar,
      inviteCode: context.account.inviteCode,
      hasTradePassword: context.member.tradePasswordHash !== null,
      hasAuthenticator: context.member.totpSecret !== null,
      createdAt: context.member.createdAt.toISOString(),
    };
  }
}
