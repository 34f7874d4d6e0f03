import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { verificationCodes } from '../../db/schema.js';

export type CodePurpose = 'register' | 'login' | 'reset_password' | 'trade_password';
export type CodeRow = typeof verificationCodes.$inferSelect;

export class VerificationCodeRepository {
  constructor(private readonly db: Db) {}

  async insert(row: { email: string; purpose: CodePurpose; codeHash: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(verificationCodes).values(row);
  }

  /** The newest code for this address and purpose, whatever its state. */
  async latest(email: string, purpose: CodePurpose): Promise<(CodeRow & { ageS: number; expired: boolean }) | null> {
    const rows = await this.db
      .select({
        code: verificationCodes,
        ageS: sql<number>`extract(epoch from (now() - ${verificationCodes.createdAt}))::float8`,
        expired: sql<boolean>`${verificationCodes.expiresAt} <= now()`,
      })
      .from(verificationCodes)
      .where(and(eq(verificationCodes.email, email), eq(verificationCodes.purpose, purpose)))
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    const row = rows[0];
    return row ? { ...row.code, ageS: Number(row.ageS), expired: Boolean(row.expired) } : null;
  }

  /**
   * Counts a try before the code is compared, in one statement, while the code is live and has
   * tries left; returns the new count, or null when none are left (or the code was used or ran out
   * of time meanwhile). Concurrent guesses queue on the row, so at most `maxAttempts` are compared.
   */
  async claimAttempt(id: string, maxAttempts: number): Promise<number | null> {
    const rows = await this.db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(
        and(
          eq(verificationCodes.id, id),
          isNull(verificationCodes.consumedAt),
          sql`${verificationCodes.expiresAt} > now()`,
          sql`${verificationCodes.attempts} < ${maxAttempts}`,
        ),
      )
      .returning({ attempts: verificationCodes.attempts });
    return rows[0]?.attempts ?? null;
  }

  /** Gives back a try that turned out to be the right code (checked without being used up). */
  async releaseAttempt(id: string): Promise<void> {
    await this.db
      .update(verificationCodes)
      .set({ attempts: sql`greatest(${verificationCodes.attempts} - 1, 0)` })
      .where(eq(verificationCodes.id, id));
  }

  /** Uses the code up; false when it was already used (two requests raced with one code). */
  async consume(id: string): Promise<boolean> {
    const rows = await this.db
      .update(verificationCodes)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)))
      .returning({ id: verificationCodes.id });
    return rows.length === 1;
  }
}
