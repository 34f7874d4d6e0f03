import { aliasedTable, and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { accounts, members } from '../../db/schema.js';

const inviterAccounts = aliasedTable(accounts, 'inviter_account');
const inviterMembers = aliasedTable(members, 'inviter_member');

export interface MemberSummaryRow {
  id: string;
  email: string;
  status: string;
  mustResetPassword: boolean;
  createdAt: Date;
  tradePasswordHash: string | null;
  totpSecret: string | null;
  locale: string;
  nickname: string;
  inviteCode: string;
  inviterEmail: string | null;
  mainAccountId: string;
}

/** Member rows for the console: each with its main account and who invited it. */
function summarySelection() {
  return {
    id: members.id,
    email: members.email,
    status: members.status,
    mustResetPassword: members.mustResetPassword,
    createdAt: members.createdAt,
    tradePasswordHash: members.tradePasswordHash,
    totpSecret: members.totpSecret,
    locale: members.locale,
    nickname: accounts.nickname,
    inviteCode: accounts.inviteCode,
    inviterEmail: inviterMembers.email,
    mainAccountId: accounts.id,
  };
}

export class AdminMembersRepository {
  constructor(private readonly db: Db) {}

  private base(where: SQL | undefined) {
    return this.db
      .select(summarySelection())
      .from(members)
      .innerJoin(accounts, and(eq(accounts.memberId, members.id), eq(accounts.kind, 'main')))
      .leftJoin(inviterAccounts, eq(inviterAccounts.id, accounts.inviterAccountId))
      .leftJoin(inviterMembers, eq(inviterMembers.id, inviterAccounts.memberId))
      .where(where);
  }

  /** Search by e-mail, nickname or invitation code; newest first. */
  async list(query: string | undefined, limit: number, offset: number): Promise<{ items: MemberSummaryRow[]; total: number }> {
    const pattern = query ? `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : undefined;
    const where = pattern
      ? or(ilike(members.email, pattern), ilike(accounts.nickname, pattern), ilike(accounts.inviteCode, pattern))
      : undefined;
    const items = await this.base(where).orderBy(desc(members.createdAt), desc(members.id)).limit(limit).offset(offset);
    const [total] = await this.db
      .select({ value: count() })
      .from(members)
      .innerJoin(accounts, and(eq(accounts.memberId, members.id), eq(accounts.kind, 'main')))
      .where(where);
    return { items, total: Number(total?.value ?? 0) };
  }

  async find(memberId: string): Promise<MemberSummaryRow | null> {
    const rows = await this.base(eq(members.id, memberId));
    return rows[0] ?? null;
  }

  accountsOf(memberId: string) {
    return this.db.select().from(accounts).where(eq(accounts.memberId, memberId)).orderBy(accounts.createdAt);
  }

  async directInviteeCount(accountId: string): Promise<number> {
    const [row] = await this.db.select({ value: count() }).from(accounts).where(eq(accounts.inviterAccountId, accountId));
    return Number(row?.value ?? 0);
  }

  /** Locks the member row for a state change made together with its audit entry. */
  async lockMember(memberId: string, tx: Tx) {
    const rows = await tx.select().from(members).where(eq(members.id, memberId)).for('update');
    return rows[0] ?? null;
  }

  async setStatus(memberId: string, status: 'active' | 'frozen', tx: Tx): Promise<void> {
    await tx
      .update(members)
      .set({ status, updatedAt: sql`now()` })
      .where(eq(members.id, memberId));
  }

  async setTemporaryPassword(memberId: string, passwordHash: string, tx: Tx): Promise<void> {
    await tx
      .update(members)
      .set({ passwordHash, mustResetPassword: true, updatedAt: sql`now()` })
      .where(eq(members.id, memberId));
  }

  async clearAuthenticator(memberId: string, tx: Tx): Promise<void> {
    await tx
      .update(members)
      .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, updatedAt: sql`now()` })
      .where(eq(members.id, memberId));
  }
}
