import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { OperatorRole } from '@custos/contract';
import type { Db, Tx } from '../../db/client.js';
import { operatorSessions, operators } from '../../db/schema.js';

export type OperatorRow = typeof operators.$inferSelect;

export interface ActiveSession {
  sessionId: string;
  lastSeenAt: Date;
  operator: OperatorRow;
}

export class OperatorRepository {
  constructor(private readonly db: Db) {}

  async count(): Promise<number> {
    const [row] = await this.db.select({ value: count() }).from(operators);
    return Number(row?.value ?? 0);
  }

  /** Creates the operator unless the username is taken; returns null when it was. */
  async insertIfAbsent(input: {
    username: string;
    passwordHash: string;
    role: OperatorRole;
    mustChangePassword: boolean;
    /** Demo operators only (decision 019): they come with a bound authenticator and log in under --demo only. */
    demo?: boolean;
    totpSecret?: string;
  }) {
    const rows = await this.db.insert(operators).values(input).onConflictDoNothing({ target: operators.username }).returning();
    return rows[0] ?? null;
  }

  async findByUsername(username: string): Promise<OperatorRow | null> {
    const rows = await this.db.select().from(operators).where(eq(operators.username, username));
    return rows[0] ?? null;
  }

  async findById(id: string, tx: Db | Tx = this.db): Promise<OperatorRow | null> {
    const rows = await tx.select().from(operators).where(eq(operators.id, id));
    return rows[0] ?? null;
  }

  async updatePassword(id: string, passwordHash: string, tx: Db | Tx): Promise<OperatorRow> {
    const rows = await tx
      .update(operators)
      .set({ passwordHash, mustChangePassword: false, updatedAt: sql`now()` })
      .where(eq(operators.id, id))
      .returning();
    const row = rows[0];
    if (!row) throw new Error(`operator ${id} vanished`);
    return row;
  }

  /** Offers a secret for binding unless one is already offered. */
  async setPendingTotpSecretIfNone(id: string, secret: string): Promise<void> {
    await this.db
      .update(operators)
      .set({ totpPendingSecret: secret, updatedAt: sql`now()` })
      .where(and(eq(operators.id, id), isNull(operators.totpPendingSecret)));
  }

  /**
   * The pending secret becomes the bound one, with `step` (of the confirming code) as the last used
   * step; null when the secret was no longer pending or one was bound meanwhile.
   */
  async bindPendingTotpSecret(id: string, pendingSecret: string, step: number, tx: Db | Tx): Promise<OperatorRow | null> {
    const rows = await tx
      .update(operators)
      .set({ totpSecret: pendingSecret, totpPendingSecret: null, totpLastStep: step, updatedAt: sql`now()` })
      .where(and(eq(operators.id, id), eq(operators.totpPendingSecret, pendingSecret), isNull(operators.totpSecret)))
      .returning();
    return rows[0] ?? null;
  }

  /**
   * Records that a code of `step` was used; false when that step (or a later one) was already used,
   * so each code logs in once even when two log-ins race.
   */
  async acceptTotpStep(id: string, step: number): Promise<boolean> {
    const rows = await this.db
      .update(operators)
      .set({ totpLastStep: step })
      .where(and(eq(operators.id, id), sql`(${operators.totpLastStep} is null or ${operators.totpLastStep} < ${step})`))
      .returning({ id: operators.id });
    return rows.length === 1;
  }

  async insertSession(
    input: { operatorId: string; tokenHash: string; ip: string; userAgent: string | null; expiresAt: Date },
    tx: Db | Tx = this.db,
  ): Promise<string> {
    const rows = await tx.insert(operatorSessions).values(input).returning({ id: operatorSessions.id });
    return rows[0]!.id;
  }

  /** The live session for a token hash: not revoked, not expired, operator not disabled. */
  async findActiveSession(tokenHash: string): Promise<ActiveSession | null> {
    const rows = await this.db
      .select({ sessionId: operatorSessions.id, lastSeenAt: operatorSessions.lastSeenAt, operator: operators })
      .from(operatorSessions)
      .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
      .where(
        and(
          eq(operatorSessions.tokenHash, tokenHash),
          isNull(operatorSessions.revokedAt),
          gt(operatorSessions.expiresAt, sql`now()`),
          isNull(operators.disabledAt),
        ),
      );
    return rows[0] ?? null;
  }

  async touchSession(sessionId: string): Promise<void> {
    await this.db
      .update(operatorSessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(operatorSessions.id, sessionId));
  }

  async revokeSession(sessionId: string, tx: Db | Tx = this.db): Promise<void> {
    await tx
      .update(operatorSessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(operatorSessions.id, sessionId), isNull(operatorSessions.revokedAt)));
  }

  /** Ends every other session of the operator (after a password change). */
  async revokeOtherSessions(operatorId: string, keepSessionId: string, tx: Db | Tx): Promise<void> {
    await tx
      .update(operatorSessions)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(operatorSessions.operatorId, operatorId),
          isNull(operatorSessions.revokedAt),
          sql`${operatorSessions.id} <> ${keepSessionId}`,
        ),
      );
  }

  /** Whether the operator opened a session from this address within `withinS` (a familiar address). */
  async hasSessionFrom(operatorId: string, ip: string, withinS: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: operatorSessions.id })
      .from(operatorSessions)
      .where(
        and(
          eq(operatorSessions.operatorId, operatorId),
          eq(operatorSessions.ip, ip),
          gt(operatorSessions.createdAt, sql`now() - make_interval(secs => ${withinS})`),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  /** Deletes sessions that ended more than `ageS` ago. */
  async purgeEndedSessions(ageS: number): Promise<number> {
    const cutoff = sql`now() - make_interval(secs => ${ageS})`;
    const rows = await this.db
      .delete(operatorSessions)
      .where(or(lt(operatorSessions.expiresAt, cutoff), lt(operatorSessions.revokedAt, cutoff)))
      .returning({ id: operatorSessions.id });
    return rows.length;
  }
}
