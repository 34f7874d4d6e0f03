import { sql } from 'drizzle-orm';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';
import type { EventRow, EventStore } from './event-hub.js';

/** The NOTIFY channel that says "topic X has new operator events"; its payload is the topic. */
export const OPERATOR_EVENTS_CHANNEL = 'custos_operator_events';

/** The console's event log (decision 029), read by topic like member events are read by member. */
export class OperatorEventsRepository implements EventStore {
  readonly notifyChannel = OPERATOR_EVENTS_CHANNEL;

  constructor(
    private readonly db: Db,
    /** The roles that may listen; a session whose operator lost the role (or was disabled) is closed. */
    private readonly roles: readonly string[],
  ) {}

  /** Stores an event in the caller's transaction; the NOTIFY goes out only if it commits. */
  async insert(tx: Tx | Db, topic: string, kind: string, payload: unknown): Promise<string> {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`insert into operator_events (topic, kind, payload)
          values (${topic}, ${kind}, ${JSON.stringify(payload)}::jsonb) returning id::text as id`,
    );
    await queryRows(tx, sql`select pg_notify(${OPERATOR_EVENTS_CHANNEL}, ${topic})`);
    return rows[0]!.id;
  }

  async after(topic: string, afterId: string, limit: number): Promise<EventRow[]> {
    return queryRows<EventRow>(
      this.db,
      sql`select id::text as id, kind, payload, created_at from operator_events
          where topic = ${topic} and id > ${afterId}::bigint order by id limit ${limit}`,
    );
  }

  async latestId(topic: string): Promise<string> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select coalesce(max(id), 0)::text as id from operator_events where topic = ${topic}`,
    );
    return rows[0]?.id ?? '0';
  }

  async liveSessions(sessionIds: readonly string[]): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select s.id::text as id from operator_sessions s join operators o on o.id = s.operator_id
          where s.id = any(${`{${sessionIds.join(',')}}`}::uuid[]) and o.disabled_at is null
            and o.role = any(${`{${this.roles.join(',')}}`}::text[])
            and s.revoked_at is null and s.expires_at > now()`,
    );
    return new Set(rows.map((row) => row.id));
  }

  async deleteOlderThan(ageS: number): Promise<number> {
    return runStatement(this.db, sql`delete from operator_events where created_at < now() - make_interval(secs => ${ageS})`);
  }
}
