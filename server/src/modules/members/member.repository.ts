import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { accounts, memberSessions, members, uploads } from '../../db/schema.js';

export type MemberRow = typeof members.$inferSelect;
export type AccountRow = typeof accounts.$inferSelect;
export type MemberSessionRow = typeof memberSessions.$inferSelect;

export interface ActiveMemberSession {
  session: MemberSessionRow;
  member: MemberRow;
  account: AccountRow;
}

export class MemberRepository {
  /**
   * Every member call checks its session: built once and prepared by name (parsed once per
   * connection). Bound to the root database handle this repository is built with, never a transaction's.
   */
  private readonly activeSession;

  constructor(private readonly db: Db) {
    this.activeSession = db
      .select({ session: memberSessions, member: members, account: accounts })
      .from(memberSessions)
      .innerJoin(members, eq(members.id, memberSessions.memberId))
      .innerJoin(accounts, eq(accounts.id, memberSessions.accountId))
      .where(
        and(
          eq(memberSessions.tokenHash, sql.placeholder('tokenHash')),
          isNull(memberSessions.revokedAt),
          gt(memberSessions.idleExpiresAt, sql`now()`),
          gt(memberSessions.absoluteExpiresAt, sql`now()`),
        ),
      )
      .prepare('member_active_session');
  }

  async findByEmail(email: string): Promise<MemberRow | null> {
    const rows = await this.db.select().from(members).where(eq(members.email, email));
    return rows[0] ?? null;
  }

  async findById(id: string, tx: Db | Tx = this.db): Promise<MemberRow | null> {
    const rows = await tx.select().from(members).where(eq(members.id, id));
    return rows[0] ?? null;
  }

  async findAccountByInviteCode(inviteCode: string): Promise<AccountRow | null> {
    const rows = await this.db.select().from(accounts).where(eq(accounts.inviteCode, inviteCode));
    return rows[0] ?? null;
  }

  async findMainAccount(memberId: string, tx: Db | Tx = this.db): Promise<AccountRow | null> {
    const rows = await tx
      .select()
      .from(accounts)
      .where(and(eq(accounts.memberId, memberId), eq(accounts.kind, 'main')));
    return rows[0] ?? null;
  }

  async inviteCodeTaken(inviteCode: string, tx: Db | Tx): Promise<boolean> {
    const rows = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.inviteCode, inviteCode));
    return rows.length > 0;
  }

  async insertMember(row: { email: string; passwordHash: string; locale: string }, tx: Tx): Promise<MemberRow> {
    const [inserted] = await tx.insert(members).values(row).onConflictDoNothing({ target: members.email }).returning();
    if (!inserted) throw new EmailTakenError();
    return inserted;
  }

  async insertAccount(
    row: {
      memberId: string;
      kind: 'main' | 'sub';
      mainAccountId: string | null;
      inviterAccountId: string | null;
      inviteCode: string;
      nickname: string;
    },
    tx: Tx,
  ): Promise<AccountRow> {
    const [inserted] = await tx.insert(accounts).values(row).returning();
    return inserted!;
  }

  async updatePassword(memberId: string, passwordHash: string, tx: Db | Tx = this.db): Promise<void> {
    await tx
      .update(members)
      .set({ passwordHash, mustResetPassword: false, updatedAt: sql`now()` })
      .where(eq(members.id, memberId));
  }

  async updateTradePassword(memberId: string, tradePasswordHash: string): Promise<void> {
    await this.db
      .update(members)
      .set({ tradePasswordHash, updatedAt: sql`now()` })
      .where(eq(members.id, memberId));
  }

  /** A withdrawal factor was replaced without proof of the old one: withdrawals cool off from `at`. */
  async markSecurityReset(memberId: string, at: Date, tx: Db | Tx = this.db): Promise<void> {
    await tx.update(members).set({ securityResetAt: at }).where(eq(members.id, memberId));
  }

  async updateAccountProfile(accountId: string, profile: { nickname?: string; avatar?: string }): Promise<void> {
    await this.db.update(accounts).set(profile).where(eq(accounts.id, accountId));
  }

  /** Whether the member uploaded this file for this purpose. */
  async ownsUpload(memberId: string, uploadId: string, purpose: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: uploads.id })
      .from(uploads)
      .where(and(eq(uploads.id, uploadId), eq(uploads.ownerMemberId, memberId), eq(uploads.purpose, purpose)));
    return rows.length > 0;
  }

  async setPendingTotpSecret(memberId: string, secret: string): Promise<void> {
    await this.db
      .update(members)
      .set({ totpPendingSecret: secret, updatedAt: sql`now()` })
      .where(eq(members.id, memberId));
  }

  /** The pending secret becomes the bound one; `step` is the step of the code that confirmed it. */
  async bindPendingTotpSecret(memberId: string, pendingSecret: string, step: number): Promise<boolean> {
    const rows = await this.db
      .update(members)
      .set({ totpSecret: pendingSecret, totpPendingSecret: null, totpLastStep: step, updatedAt: sql`now()` })
      .where(and(eq(members.id, memberId), eq(members.totpPendingSecret, pendingSecret)))
      .returning({ id: members.id });
    return rows.length === 1;
  }

  /**
   * Records that a code of `step` was used; false when that step (or a later one) was already used,
   * which makes every code single-use even under concurrent requests.
   */
  async acceptTotpStep(memberId: string, step: number): Promise<boolean> {
    const rows = await this.db
      .update(members)
      .set({ totpLastStep: step })
      .where(and(eq(members.id, memberId), sql`(${members.totpLastStep} is null or ${members.totpLastStep} < ${step})`))
      .returning({ id: members.id });
    return rows.length === 1;
  }

  async insertSession(
    row: {
      memberId: string;
      accountId: string;
      tokenHash: string;
      ip: string;
      userAgent: string | null;
      idleExpiresAt: Date;
      absoluteExpiresAt: Date;
    },
    tx: Db | Tx = this.db,
  ): Promise<string> {
    const [inserted] = await tx.insert(memberSessions).values(row).returning({ id: memberSessions.id });
    return inserted!.id;
  }

  /** A live session: not revoked, within both expiries. */
  async findActiveSession(tokenHash: string): Promise<ActiveMemberSession | null> {
    const rows = await this.activeSession.execute({ tokenHash });
    return rows[0] ?? null;
  }

  /** Slides the idle expiry, never past the absolute one. */
  async touchSession(sessionId: string, idleMs: number): Promise<void> {
    await this.db
      .update(memberSessions)
      .set({
        lastSeenAt: sql`now()`,
        idleExpiresAt: sql`least(${memberSessions.absoluteExpiresAt}, now() + make_interval(secs => ${idleMs / 1000}))`,
      })
      .where(eq(memberSessions.id, sessionId));
  }

  async revokeSession(sessionId: string, memberId: string): Promise<void> {
    await this.db
      .update(memberSessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(memberSessions.id, sessionId), eq(memberSessions.memberId, memberId), isNull(memberSessions.revokedAt)));
  }

  /** Ends every session of the member except `keepSessionId` (all of them when null). */
  async revokeSessions(memberId: string, keepSessionId: string | null, tx: Db | Tx = this.db): Promise<number> {
    const rows = await tx
      .update(memberSessions)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(memberSessions.memberId, memberId),
          isNull(memberSessions.revokedAt),
          keepSessionId ? sql`${memberSessions.id} <> ${keepSessionId}` : undefined,
        ),
      )
      .returning({ id: memberSessions.id });
    return rows.length;
  }

  listActiveSessions(memberId: string) {
    return this.db
      .select()
      .from(memberSessions)
      .where(
        and(
          eq(memberSessions.memberId, memberId),
          isNull(memberSessions.revokedAt),
          gt(memberSessions.idleExpiresAt, sql`now()`),
          gt(memberSessions.absoluteExpiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(memberSessions.lastSeenAt));
  }

  /** Whether the member opened a session from this address within `withinS` (a familiar address). */
  async hasSessionFrom(memberId: string, ip: string, withinS: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: memberSessions.id })
      .from(memberSessions)
      .where(
        and(
          eq(memberSessions.memberId, memberId),
          eq(memberSessions.ip, ip),
          gt(memberSessions.createdAt, sql`now() - make_interval(secs => ${withinS})`),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }
}

export class EmailTakenError extends Error {
  override name = 'EmailTakenError';
}
