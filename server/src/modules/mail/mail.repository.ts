import { and, count, desc, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';

export type MailRow = typeof mailOutbox.$inferSelect;

/** What the console may see of a mail: everything but its clear copy. */
const outboxColumns = {
  id: mailOutbox.id,
  recipient: mailOutbox.recipient,
  subject: mailOutbox.subject,
  body: mailOutbox.body,
  template: mailOutbox.template,
  locale: mailOutbox.locale,
  status: mailOutbox.status,
  attempts: mailOutbox.attempts,
  lastError: mailOutbox.lastError,
  createdAt: mailOutbox.createdAt,
  sentAt: mailOutbox.sentAt,
};

export class MailRepository {
  constructor(private readonly db: Db) {}

  async insert(row: {
    recipient: string;
    subject: string;
    body: string;
    template: string;
    locale: string;
    pendingDelivery: { subject: string; text: string } | null;
  }): Promise<string> {
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
      .set({ status, sentAt: sql`now()`, lastError: null, lockedUntil: null, pendingDelivery: null })
      .where(eq(mailOutbox.id, id));
  }

  async markFailedAttempt(id: string, error: string, final: boolean): Promise<void> {
    await this.db
      .update(mailOutbox)
      .set({ lastError: error.slice(0, 1000), lockedUntil: null, ...(final ? { status: 'failed', pendingDelivery: null } : {}) })
      .where(eq(mailOutbox.id, id));
  }

  /** Pending mails with a code older than `ageS` (the code has expired) are failed and their clear copy erased. */
  async giveUpSecretMailsOlderThan(ageS: number): Promise<number> {
    const rows = await this.db
      .update(mailOutbox)
      .set({ status: 'failed', pendingDelivery: null, lastError: 'not delivered before its code expired' })
      .where(
        and(
          eq(mailOutbox.status, 'pending'),
          isNotNull(mailOutbox.pendingDelivery),
          lt(mailOutbox.createdAt, sql`now() - make_interval(secs => ${ageS})`),
          or(isNull(mailOutbox.lockedUntil), lt(mailOutbox.lockedUntil, sql`now()`)),
        ),
      )
      .returning({ id: mailOutbox.id });
    return rows.length;
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
      .select(outboxColumns)
      .from(mailOutbox)
      .where(where)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ value: count() }).from(mailOutbox).where(where);
    return { items, total: Number(total?.value ?? 0) };
  }
}
