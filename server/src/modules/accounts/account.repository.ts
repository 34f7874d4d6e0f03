import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { accounts, memberSessions, members } from '../../db/schema.js';

export type AccountRow = typeof accounts.$inferSelect;

export class AccountRepository {
  /**
   * Asked on every transfer: built once and prepared by name. Bound to the root database handle this
   * repository is built with, never a transaction's.
   */
  private readonly memberAccount;

  constructor(private readonly db: Db) {
    this.memberAccount = db
      .select()
      .from(accounts)
      .where(and(eq(accounts.id, sql.placeholder('accountId')), eq(accounts.memberId, sql.placeholder('memberId'))))
      .prepare('account_for_member');
  }

  listForMember(memberId: string): Promise<AccountRow[]> {
    return this.db
      .select()
      .from(accounts)
      .where(eq(accounts.memberId, memberId))
      .orderBy(sql`${accounts.kind} = 'sub'`, asc(accounts.createdAt));
  }

  async findForMember(memberId: string, accountId: string): Promise<AccountRow | null> {
    const rows = await this.memberAccount.execute({ accountId, memberId });
    return rows[0] ?? null;
  }

  async exists(accountId: string): Promise<boolean> {
    const rows = await this.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
    return rows.length > 0;
  }

  /** Serialises sub-account creation per member, so the limit holds under concurrent requests. */
  async lockMember(memberId: string, tx: Tx): Promise<void> {
    await tx.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for('update');
  }

  async countSubAccounts(memberId: string, tx: Tx): Promise<number> {
    const [row] = await tx
      .select({ value: count() })
      .from(accounts)
      .where(and(eq(accounts.memberId, memberId), eq(accounts.kind, 'sub')));
    return Number(row?.value ?? 0);
  }

  async mainAccount(memberId: string, tx: Tx): Promise<AccountRow | null> {
    const rows = await tx
      .select()
      .from(accounts)
      .where(and(eq(accounts.memberId, memberId), eq(accounts.kind, 'main')));
    return rows[0] ?? null;
  }

  async inviteCodeTaken(inviteCode: string, tx: Tx): Promise<boolean> {
    const rows = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.inviteCode, inviteCode));
    return rows.length > 0;
  }

  async insertSub(
    row: { memberId: string; mainAccountId: string; inviteCode: string; nickname: string },
    tx: Tx,
  ): Promise<AccountRow> {
    const [inserted] = await tx
      .insert(accounts)
      .values({ ...row, kind: 'sub', inviterAccountId: row.mainAccountId })
      .returning();
    return inserted!;
  }

  async switchSession(sessionId: string, accountId: string): Promise<void> {
    await this.db.update(memberSessions).set({ accountId }).where(eq(memberSessions.id, sessionId));
  }
}
