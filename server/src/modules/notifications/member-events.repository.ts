import { sql } from 'drizzle-orm';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';
import type { EventRow, EventStore } from './event-hub.js';

/** The NOTIFY channel that says "member X has new events"; its payload is the member id. */
export const MEMBER_EVENTS_CHANNEL = 'custos_member_events';

export type MemberEventRow = EventRow;

export class MemberEventsRepository implements EventStore {
  readonly notifyChannel = MEMBER_EVENTS_CHANNEL;

  constructor(private readonly db: Db) {}

  /**
   * Stores an event in the caller's transaction and queues the NOTIFY, which PostgreSQL sends only
   * if that transaction commits (so nobody hears of an event that was rolled back).
   */
  async insert(tx: Tx | Db, memberId: string, kind: string, payload: unknown): Promise<string> {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`insert into member_events (member_id, kind, payload)
          values (${memberId}::uuid, ${kind}, ${JSON.stringify(payload)}::jsonb) returning id::text as id`,
    );
    await queryRows(tx, sql`select pg_notify(${MEMBER_EVENTS_CHANNEL}, ${memberId})`);
    return rows[0]!.id;
  }

  /** `insert` for many events in one statement (a batch of contract closes), each member told once. */
  async insertMany(tx: Tx | Db, events: readonly { memberId: string; kind: string; payload: unknown }[]): Promise<void> {
    if (events.length === 0) return;
    const source = JSON.stringify(
      events.map((event, ord) => ({ member_id: event.memberId, kind: event.kind, payload: event.payload, ord })),
    );
    await queryRows(
      tx,
      sql`with inserted as (
            insert into member_events (member_id, kind, payload)
            select e.member_id, e.kind, e.payload from jsonb_to_recordset(${source}::jsonb) as e(member_id uuid, kind text, payload jsonb, ord int)
            order by e.ord
            returning member_id
          )
          select pg_notify(${MEMBER_EVENTS_CHANNEL}, m.member_id::text) from (select distinct member_id from inserted) m`,
    );
  }

  /** The member's events after `afterId`, oldest first. */
  async after(memberId: string, afterId: string, limit: number): Promise<MemberEventRow[]> {
    return queryRows<MemberEventRow>(
      this.db,
      sql`select id::text as id, kind, payload, created_at from member_events
          where member_id = ${memberId}::uuid and id > ${afterId}::bigint
          order by id limit ${limit}`,
    );
  }

  /** The member's newest event id ("0" when none): a fresh channel starts after it. */
  async latestId(memberId: string): Promise<string> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select coalesce(max(id), 0)::text as id from member_events where member_id = ${memberId}::uuid`,
    );
    return rows[0]?.id ?? '0';
  }

  /** Which of these sessions are still live (not revoked, within both expiries, member not frozen). */
  async liveSessions(sessionIds: readonly string[]): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select s.id::text as id from member_sessions s join members m on m.id = s.member_id
          where s.id = any(${`{${sessionIds.join(',')}}`}::uuid[]) and m.status <> 'frozen'
            and s.revoked_at is null and s.idle_expires_at > now() and s.absolute_expires_at > now()`,
    );
    return new Set(rows.map((row) => row.id));
  }

  /** Removes events older than `ageS` (a channel that was away longer refetches its screens anyway). */
  async deleteOlderThan(ageS: number): Promise<number> {
    return runStatement(this.db, sql`delete from member_events where created_at < now() - make_interval(secs => ${ageS})`);
  }
}
