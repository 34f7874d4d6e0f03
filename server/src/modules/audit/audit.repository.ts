import { and, count, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { auditLog, operators } from '../../db/schema.js';

export interface AuditEntry {
  operatorId: string | null;
  action: string;
  targetType?: string | undefined;
  targetId?: string | undefined;
  before?: unknown;
  after?: unknown;
  ip?: string | undefined;
  requestId?: string | undefined;
}

export class AuditRepository {
  constructor(private readonly db: Db) {}

  /** Writes in the caller's transaction when given one, so the action and its record commit together. */
  async record(entry: AuditEntry, tx: Db | Tx = this.db): Promise<void> {
    await tx.insert(auditLog).values({
      operatorId: entry.operatorId,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
      ip: entry.ip ?? null,
      requestId: entry.requestId ?? null,
    });
  }

  /** Newest first, optionally one action or one target. */
  async list(filter: { action?: string | undefined; targetId?: string | undefined }, limit: number, offset: number) {
    const where = and(
      filter.action ? eq(auditLog.action, filter.action) : undefined,
      filter.targetId ? eq(auditLog.targetId, filter.targetId) : undefined,
    );
    const items = await this.db
      .select({ entry: auditLog, operator: operators.username })
      .from(auditLog)
      .leftJoin(operators, eq(operators.id, auditLog.operatorId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ value: count() }).from(auditLog).where(where);
    return { items, total: Number(total?.value ?? 0) };
  }
}
