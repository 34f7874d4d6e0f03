import { sql } from 'drizzle-orm';
import type { OtcAppealReason, OtcAppealStatus, OtcRole, OtcRuling } from '@custos/contract';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';
import type { AppealRow, SuspensionRow } from './otc.rows.js';
import { textArray, uuidArray } from './otc.sql.js';

const APPEAL_COLUMNS = sql`a.id::text as id, a.order_id::text as order_id, a.by_role, a.by_member_id::text as by_member_id,
  a.opening, a.reason, a.description, a.image_ids::text[] as image_ids, a.status, a.ruling, a.ruling_note,
  op.username as ruled_by_name, a.ruled_at, a.created_at`;

/**
 * The arbitration side of OTC (decision 031): appeals with their evidence, the check that an
 * operator did not reset a party's credentials in the cool-off window, and suspensions.
 */
export class OtcArbitrationRepository {
  constructor(private readonly db: Db) {}

  // ── Appeals ──────────────────────────────────────────────────────────────────────────────────

  /** Whether every image is the member's own upload for OTC that no other appeal uses. */
  async evidenceUsable(tx: Tx, memberId: string, imageIds: readonly string[]): Promise<boolean> {
    if (imageIds.length === 0) return true;
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from uploads u
          where u.id = any(${uuidArray(imageIds)}) and u.owner_member_id = ${memberId}::uuid and u.purpose = 'otc'
            and not exists (select 1 from otc_appeals a where u.id = any(a.image_ids))`,
    );
    return (rows[0]?.n ?? 0) === imageIds.length;
  }

  /** Null when this side has appealed the order already (unique per order and side). */
  async insertAppeal(
    tx: Tx,
    row: {
      orderId: string;
      byRole: OtcRole;
      byMemberId: string;
      opening: boolean;
      reason: OtcAppealReason;
      description: string;
      imageIds: readonly string[];
      now: Date;
    },
  ): Promise<string | null> {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`insert into otc_appeals (order_id, by_role, by_member_id, opening, reason, description, image_ids, created_at)
          values (${row.orderId}::uuid, ${row.byRole}, ${row.byMemberId}::uuid, ${row.opening}, ${row.reason}, ${row.description},
                  ${uuidArray(row.imageIds)}, ${row.now})
          on conflict (order_id, by_role) do nothing returning id::text as id`,
    );
    return rows[0]?.id ?? null;
  }

  async appealsOf(orderIds: readonly string[], db: Db | Tx = this.db): Promise<AppealRow[]> {
    if (orderIds.length === 0) return [];
    return queryRows<AppealRow>(
      db,
      sql`select ${APPEAL_COLUMNS} from otc_appeals a left join operators op on op.id = a.ruled_by
          where a.order_id = any(${uuidArray(orderIds)}) order by a.created_at, a.id`,
    );
  }

  async ruleAppeals(
    tx: Tx,
    orderId: string,
    ruling: { ruling: OtcRuling; note: string; operatorId: string; now: Date },
  ): Promise<number> {
    return runStatement(
      tx,
      sql`update otc_appeals set status = 'ruled', ruling = ${ruling.ruling}, ruling_note = ${ruling.note},
            ruled_by = ${ruling.operatorId}::uuid, ruled_at = ${ruling.now}
          where order_id = ${orderId}::uuid and status = 'open'`,
    );
  }

  /** The queue: each appealed order once (its opening appeal), open first and oldest first. */
  async appealQueue(
    status: OtcAppealStatus,
    limit: number,
    offset: number,
  ): Promise<{ rows: AppealRow[]; total: number; open: number }> {
    const order = status === 'open' ? sql`a.created_at asc` : sql`a.ruled_at desc`;
    const rows = await queryRows<AppealRow>(
      this.db,
      sql`select ${APPEAL_COLUMNS} from otc_appeals a left join operators op on op.id = a.ruled_by
          where a.opening and a.status = ${status} order by ${order}, a.id limit ${limit} offset ${offset}`,
    );
    const [counts] = await queryRows<{ total: number; open: number }>(
      this.db,
      sql`select count(*) filter (where status = ${status})::int as total, count(*) filter (where status = 'open')::int as open
          from otc_appeals where opening`,
    );
    return { rows, total: counts?.total ?? 0, open: counts?.open ?? 0 };
  }

  /** Whether an upload is evidence in an appeal of this order. */
  async evidenceOfOrder(orderId: string, uploadId: string): Promise<{ contentType: string; content: Buffer } | null> {
    const rows = await queryRows<{ content_type: string; content: Buffer | Uint8Array }>(
      this.db,
      sql`select u.content_type, u.content from uploads u
          where u.id = ${uploadId}::uuid
            and exists (select 1 from otc_appeals a where a.order_id = ${orderId}::uuid and u.id = any(a.image_ids))`,
    );
    const row = rows[0];
    return row ? { contentType: row.content_type, content: Buffer.from(row.content) } : null;
  }

  /**
   * Whether the operator ever reset the login password or the authenticator of one of these members
   * whose last security reset (`members.security_reset_at`, on the platform clock) is at or after
   * `since`. Conservative: an operator who reset a member long ago also waits out a later reset of
   * that member; the audit log is the record of who reset whom.
   */
  async operatorResetAny(operatorId: string, memberIds: readonly string[], since: Date): Promise<boolean> {
    const rows = await queryRows<{ found: boolean }>(
      this.db,
      sql`select exists (select 1 from audit_log a join members m on m.id::text = a.target_id
            where a.operator_id = ${operatorId}::uuid and a.target_type = 'member'
              and a.action in ('member.reset_password', 'member.reset_authenticator')
              and a.target_id = any(${textArray(memberIds)}) and m.security_reset_at >= ${since}) as found`,
    );
    return rows[0]?.found ?? false;
  }

  // ── Suspensions ──────────────────────────────────────────────────────────────────────────────

  async suspendedUntil(memberId: string, now: Date, db: Db | Tx = this.db): Promise<Date | null> {
    const rows = await queryRows<{ until: Date | string | null }>(
      db,
      sql`select max(until) as until from otc_suspensions where member_id = ${memberId}::uuid and lifted_at is null and until > ${now}`,
    );
    const until = rows[0]?.until;
    return until ? new Date(until) : null;
  }

  /** Whether a member's listings may be taken now: not suspended from OTC, account not frozen. */
  async listerAvailable(tx: Tx, memberId: string, now: Date): Promise<boolean> {
    const rows = await queryRows<{ ok: boolean }>(
      tx,
      sql`select exists (select 1 from members m where m.id = ${memberId}::uuid and m.status = 'active')
            and not exists (select 1 from otc_suspensions s where s.member_id = ${memberId}::uuid and s.lifted_at is null
                              and s.until > ${now}) as ok`,
    );
    return rows[0]?.ok ?? false;
  }

  async insertSuspension(
    tx: Tx,
    row: { memberId: string; until: Date; reason: string; orderId: string; operatorId: string; now: Date },
  ): Promise<void> {
    await runStatement(
      tx,
      sql`insert into otc_suspensions (member_id, until, reason, order_id, created_by, created_at)
          values (${row.memberId}::uuid, ${row.until}, ${row.reason}, ${row.orderId}::uuid, ${row.operatorId}::uuid, ${row.now})`,
    );
  }

  activeSuspensions(now: Date): Promise<SuspensionRow[]> {
    return queryRows<SuspensionRow>(
      this.db,
      sql`select s.member_id::text as member_id, m.email, a.nickname, s.until, s.reason, o.order_no, s.created_at
          from otc_suspensions s join members m on m.id = s.member_id
          join accounts a on a.member_id = m.id and a.kind = 'main'
          left join otc_orders o on o.id = s.order_id
          where s.lifted_at is null and s.until > ${now} order by s.until desc`,
    );
  }

  async liftSuspensions(tx: Tx, memberId: string, operatorId: string, now: Date): Promise<number> {
    return runStatement(
      tx,
      sql`update otc_suspensions set lifted_at = ${now}, lifted_by = ${operatorId}::uuid
          where member_id = ${memberId}::uuid and lifted_at is null and until > ${now}`,
    );
  }
}
