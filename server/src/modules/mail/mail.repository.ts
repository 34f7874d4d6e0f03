import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';

export type MailRow = typeof mailOutbox.$inferSelect;

export class MailRepository {
  constructor(private readonly db: Db) {}

  async insert(row: { recipient: string; subject: string; body: string; template: string; locale: string }): Promise<string> {
    const [inserted] = await this.db.insert(mailOutbox).values(row).returning({ id: mailOutbox.id });
    return inserted!.id;
  }

  async findById(id: string): Promise<MailRow | null> {
    const rows = await this.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    return rows[0] ?? null;
  }

  /**
   * Claims a pending mail for one delivery attempt under a lease; null when another worker holds it
   * or it is done. The attempt is counted before sending, so a crash mid-send cannot retry forever.
   */
  async claim(id: string, leaseS: number): Promise<MailRow | null> {
    const rows = await this.db
      .update(mailOutbox)
      .set({ attempts: sql`${mailOutbox.attempts} + 1`, lockedUntil: sql`now() + make_interval(secs => ${leaseS})` })
      .where(
        and(
          eq(mailOutbox.id, id),
          eq(mailOutbox.status, 'pending'),
          or(isNull(mailOutbox.lockedUntil), lt(mailOutbox.lockedUntil, sql`now()`)),
        ),
      )
      .returning();
    return rows[0] ?? null;
  }

  async markDelivered(id: string, status: 'sent' | 'logged'): Promise<void> {
    await this.db
      .update(mailOutbox)
      .set({ status, sentAt: sql`now()`, lastError: null, lockedUntil: null })
      .where(eq(mailOutbox.id, id));
  }

  async markFailedAttempt(id: string, error: string, final: boolean): Promise<void> {
    await this.db
      .update(mailOutbox)
      .set({ lastError: error.slice(0, 1000), lockedUntil: null, ...(final ? { status: 'failed' } : {}) })
      .where(eq(mailOutbox.id, id));
  }

  /** Pending mails older than `ageS` (their first attempt failed or never ran). */
  async pendingOlderThan(ageS: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'pending'), lt(mailOutbox.createdAt, sql`now() - make_interval(secs => ${ageS})`)))
      .orderBy(mailOutbox.createdAt)
      .limit(limit);
    return rows.map((row) => row.id);
  }

  async listRecent(limit: number, offset: number, recipient?: string) {
    const where = recipient ? eq(mailOutbox.recipient, recipient) : undefined;
    const items = await this.db
      .select()
      .from(mailOutbox)
      .where(where)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ value: count() }).from(mailOutbox).where(where);
    return { items, total: Number(total?.value ?? 0) };
  }
}
