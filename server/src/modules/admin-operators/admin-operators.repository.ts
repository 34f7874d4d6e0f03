import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { OperatorRole } from '@custos/contract';
import type { Db, Tx } from '../../db/client.js';
import { auditLog, operatorSessions, operators } from '../../db/schema.js';

export type OperatorRow = typeof operators.$inferSelect;

/** Serialises every change to operator accounts, so the super-admin count cannot be raced. */
const MANAGEMENT_LOCK_KEY = 0x6f70_6d67; // "opmg"

export class AdminOperatorsRepository {
  constructor(private readonly db: Db) {}

  /** Every operator with the time of its last successful log-in (from the audit log), oldest first. */
  async list(): Promise<(OperatorRow & { lastLoginAt: Date | null })[]> {
    const lastLogin = this.db
      .select({ operatorId: auditLog.operatorId, at: sql<Date>`max(${auditLog.createdAt})`.as('at') })
      .from(auditLog)
      .where(eq(auditLog.action, 'operator.login'))
      .groupBy(auditLog.operatorId)
      .as('last_login');
    const rows = await this.db
      .select({ operator: operators, lastLoginAt: lastLogin.at })
      .from(operators)
      .leftJoin(lastLogin, eq(lastLogin.operatorId, operators.id))
      .orderBy(asc(operators.createdAt), asc(operators.id));
    return rows.map(({ operator, lastLoginAt }) => ({
      ...operator,
      lastLoginAt: lastLoginAt === null ? null : new Date(lastLoginAt),
    }));
  }

  /** Takes the management lock for the rest of the transaction. */
  async lockManagement(tx: Tx): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(${MANAGEMENT_LOCK_KEY})`);
  }

  async lock(id: string, tx: Tx): Promise<OperatorRow | null> {
    const rows = await tx.select().from(operators).where(eq(operators.id, id)).for('update');
    return rows[0] ?? null;
  }

  /** Active (not disabled) super admins other than `exceptId`. */
  async countOtherActiveSuperAdmins(exceptId: string, tx: Tx): Promise<number> {
    const rows = await tx
      .select({ id: operators.id })
      .from(operators)
      .where(and(eq(operators.role, 'super_admin'), isNull(operators.disabledAt), ne(operators.id, exceptId)));
    return rows.length;
  }

  /** Creates the operator unless the username is taken (null then). */
  async insert(input: { username: string; passwordHash: string; role: OperatorRole }, tx: Tx): Promise<OperatorRow | null> {
    const rows = await tx
      .insert(operators)
      .values({ ...input, mustChangePassword: true })
      .onConflictDoNothing({ target: operators.username })
      .returning();
    return rows[0] ?? null;
  }

  async update(
    id: string,
    changes: Partial<
      Pick<OperatorRow, 'role' | 'passwordHash' | 'mustChangePassword' | 'totpSecret' | 'totpPendingSecret' | 'totpLastStep'>
    > & {
      disabled?: boolean;
    },
    tx: Tx,
  ): Promise<OperatorRow> {
    const { disabled, ...columns } = changes;
    const rows = await tx
      .update(operators)
      .set({
        ...columns,
        ...(disabled === undefined ? {} : { disabledAt: disabled ? sql`now()` : null }),
        updatedAt: sql`now()`,
      })
      .where(eq(operators.id, id))
      .returning();
    const row = rows[0];
    if (!row) throw new Error(`operator ${id} vanished`);
    return row;
  }

  /** Ends every session of the operator; answers how many were live. */
  async revokeSessions(operatorId: string, tx: Tx): Promise<number> {
    const rows = await tx
      .update(operatorSessions)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(operatorSessions.operatorId, operatorId),
          isNull(operatorSessions.revokedAt),
          sql`${operatorSessions.expiresAt} > now()`,
        ),
      )
      .returning({ id: operatorSessions.id });
    return rows.length;
  }
}
