import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { platformSettings } from '../../db/schema.js';

export class SettingsRepository {
  constructor(private readonly db: Db) {}

  async get(key: string): Promise<unknown> {
    const rows = await this.db
      .select({ value: platformSettings.value })
      .from(platformSettings)
      .where(eq(platformSettings.key, key));
    return rows[0]?.value;
  }

  async getStamped(key: string): Promise<{ value: unknown; updatedAt: Date } | null> {
    const rows = await this.db
      .select({ value: platformSettings.value, updatedAt: platformSettings.updatedAt })
      .from(platformSettings)
      .where(eq(platformSettings.key, key));
    return rows[0] ?? null;
  }

  /** Writes defaults that are missing; never overwrites what an operator set. */
  async insertMissing(entries: Record<string, unknown>): Promise<void> {
    const values = Object.entries(entries).map(([key, value]) => ({ key, value }));
    if (values.length === 0) return;
    await this.db.insert(platformSettings).values(values).onConflictDoNothing({ target: platformSettings.key });
  }

  async set(key: string, value: unknown, operatorId: string | null, tx: Db | Tx = this.db): Promise<void> {
    await tx
      .insert(platformSettings)
      .values({ key, value, updatedBy: operatorId })
      .onConflictDoUpdate({ target: platformSettings.key, set: { value, updatedBy: operatorId, updatedAt: sql`now()` } });
  }
}
