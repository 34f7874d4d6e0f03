import { desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';

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

  listByOperator(operatorId: string, limit: number) {
    return this.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.operatorId, operatorId))
      .orderBy(desc(auditLog.createdAt))
      .limit(limit);
  }
}
