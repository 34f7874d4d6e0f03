import { and, count, desc, eq } from 'drizzle-orm';
import { toStorableText } from '@custos/contract';
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

/**
 * A copy PostgreSQL can always store: the boundary already refuses NUL and lone surrogates, but an
 * audit record must never be the thing that fails an operator's action (decision 018).
 */
function storable(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return toStorableText(value);
  if (value === null || typeof value !== 'object' || depth > 32 || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((item) => storable(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [toStorableText(key), storable(item, depth + 1)]),
  );
}

function storableOrNull(value: string | undefined): string | null {
  return value === undefined ? null : toStorableText(value);
}

export class AuditRepository {
  constructor(private readonly db: Db) {}

  /** Writes in the caller's transaction when given one, so the action and its record commit together. */
  async record(entry: AuditEntry, tx: Db | Tx = this.db): Promise<void> {
    await tx.insert(auditLog).values({
      operatorId: entry.operatorId,
      action: toStorableText(entry.action),
      targetType: storableOrNull(entry.targetType),
      targetId: storableOrNull(entry.targetId),
      before: storable(entry.before ?? null),
      after: storable(entry.after ?? null),
      ip: storableOrNull(entry.ip),
      requestId: storableOrNull(entry.requestId),
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
