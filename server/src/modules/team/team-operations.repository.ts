import { sql } from 'drizzle-orm';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';
import { RECOMPUTED_FIGURES } from './team.repository.js';

export type MoveOutcome = 'moved' | 'unknown_member' | 'sub_account' | 'unknown_inviter' | 'self' | 'cycle' | 'same_inviter';

export interface PlaceRow {
  account_id: string;
  email: string;
  depth: number;
  team_count: number;
  inviter_account_id: string | null;
  inviter_email: string | null;
}

/** The console's operations on the tree (docs/decisions/025-team-operations.md): moves and repairs. */
export class TeamOperationsRepository {
  constructor(private readonly db: Db) {}

  /** The account an e-mail, member id or account id names (a member's main account for the first two). */
  async accountOf(token: string): Promise<string | null> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(token);
    const rows = await queryRows<{ id: string }>(
      this.db,
      isUuid
        ? sql`select a.id from accounts a where a.id = ${token}::uuid
              union all select a.id from accounts a where a.member_id = ${token}::uuid and a.kind = 'main' limit 1`
        : sql`select a.id from accounts a join members m on m.id = a.member_id
              where a.kind = 'main' and lower(m.email) = lower(${token})`,
    );
    return rows[0]?.id ?? null;
  }

  /** Where an account stands in the tree: its inviter (a person's main account) and depth. */
  async place(db: Db | Tx, accountId: string): Promise<PlaceRow | null> {
    const rows = await queryRows<PlaceRow>(
      db,
      sql`select n.account_id, m.email, n.depth, n.team_count, p.account_id as inviter_account_id, pm.email as inviter_email
          from team_nodes n join accounts a on a.id = n.account_id join members m on m.id = a.member_id
            left join team_nodes p on p.seq = n.inviter_seq left join accounts pa on pa.id = p.account_id
            left join members pm on pm.id = pa.member_id
          where n.account_id = ${accountId}::uuid`,
    );
    return rows[0] ?? null;
  }

  /** Moves the member's subtree under the new inviter (the `team_move` function, one transaction). */
  async move(tx: Tx, accountId: string, inviterAccountId: string): Promise<MoveOutcome> {
    const [row] = await queryRows<{ outcome: MoveOutcome }>(
      tx,
      sql`select team_move(${accountId}::uuid, ${inviterAccountId}::uuid) as outcome`,
    );
    return row!.outcome;
  }

  /**
   * Sets every stored figure that differs from the recompute to the recomputed value, with writers
   * held off (EXCLUSIVE) so no custody change lands between reading the orders and writing the
   * figures. Returns how many nodes changed.
   */
  async repair(tx: Tx): Promise<number> {
    await runStatement(tx, sql`lock table team_nodes, team_closure in exclusive mode`);
    const [row] = await queryRows<{ nodes: number }>(
      tx,
      sql`${RECOMPUTED_FIGURES}, changed as (
            update team_nodes n set own_custody = x.own_custody, team_performance = x.performance, direct_count = x.direct,
              team_count = x.team, valid_direct_count = x.valid_direct, valid_team_count = x.valid_team
            from computed x
            where x.seq = n.seq and (n.own_custody <> x.own_custody or n.team_performance <> x.performance
              or n.direct_count <> x.direct or n.team_count <> x.team or n.valid_direct_count <> x.valid_direct
              or n.valid_team_count <> x.valid_team)
            returning n.seq
          )
          select count(*)::int as nodes from changed`,
    );
    return row?.nodes ?? 0;
  }

  async emails(accountIds: string[]): Promise<Map<string, string>> {
    if (accountIds.length === 0) return new Map();
    const rows = await queryRows<{ id: string; email: string }>(
      this.db,
      sql`select a.id, m.email from accounts a join members m on m.id = a.member_id
          where a.id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(accountIds)}::jsonb))`,
    );
    return new Map(rows.map((row) => [row.id, row.email]));
  }
}
