import { sql, type SQL } from 'drizzle-orm';
import type { TeamScope } from '@custos/contract';
import { queryRows, type Db, type Tx } from '../../db/client.js';

export interface NodeRow {
  account_id: string;
  seq: string;
  depth: number;
  own_custody: string;
  team_performance: string;
  direct_count: number;
  team_count: number;
  valid_direct_count: number;
  valid_team_count: number;
  joined_at: Date | string;
}

export interface LevelRow {
  level: number;
  name: string;
  min_own_custody: string;
  min_valid_direct: number;
  min_team_performance: string;
  min_legs: number;
  legs_level: number | null;
  direct_rate_pct: string;
  indirect_rate_pct: string;
  indirect_generations: number;
  community_rate_pct: string;
  management_rate_pct: string;
  dividend_rate_pct: string;
  promotion_bonus: string;
}

export interface VersionRow {
  id: string;
  effective_from: string;
  created_at: Date | string;
}

/** The node's own count a downline page reports as its total (kept with the tree; `differences()` checks it). */
function totalColumn(scope: TeamScope): SQL {
  return scope === 'direct' ? sql`n.direct_count` : sql`n.team_count`;
}

/**
 * A page size as SQL text, so each size (at most 100 of them: the contract's bound) is its own
 * prepared statement whose generic plan knows the limit. Anything but a small whole number is refused.
 */
function pageLimit(limit: number): SQL {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new RangeError(`page size ${limit}`);
  return sql.raw(String(limit));
}

/**
 * A near page's offset written into the statement's text, like its size: as a parameter PostgreSQL
 * costed the generic plan of the all-generations list above its custom plans (it guesses an offset of
 * a tenth of the rows), so it planned that statement again on every call (0.6 ms of the 1 ms it
 * costs). Each near page is then a text of its own (only those used often are prepared by name,
 * `db/client.ts`); pages past `LITERAL_OFFSET_MAX` keep the parameter, so paging deep cannot mint
 * an unbounded number of statement texts, and pay the planning.
 */
const LITERAL_OFFSET_MAX = 1000;
function pageOffset(offset: number): SQL {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`page offset ${offset}`);
  return offset <= LITERAL_OFFSET_MAX ? sql.raw(String(offset)) : sql`${offset}`;
}

/** The team page's figures of one member (`pageFigures`). */
export interface PageFiguresRow extends NodeRow {
  level: number;
  opened_today: string;
  opened_month: string;
  next_legs_held: number;
}

/** A listed team member with the figures the level is computed from. */
export interface MemberRow extends NodeRow {
  email: string;
  nickname: string;
  generation: number;
  level: number;
}

/** A level's thresholds as the level evaluator reads them (legs resolved to the leg level's thresholds). */
export interface LevelRule {
  level: number;
  own: string;
  dir: number;
  perf: string;
  legs: number;
  legOwn: string;
  legDir: number;
  legPerf: string;
}

const NODE_COLUMNS = sql.raw(`n.account_id, n.seq::text as seq, n.depth, n.own_custody::text as own_custody,
  n.team_performance::text as team_performance, n.direct_count, n.team_count, n.valid_direct_count, n.valid_team_count, n.joined_at`);
const LEVEL_COLUMNS = sql.raw(`l.level, l.name, l.min_own_custody::text as min_own_custody, l.min_valid_direct,
  l.min_team_performance::text as min_team_performance, l.min_legs, l.legs_level, l.direct_rate_pct::text as direct_rate_pct,
  l.indirect_rate_pct::text as indirect_rate_pct, l.indirect_generations, l.community_rate_pct::text as community_rate_pct,
  l.management_rate_pct::text as management_rate_pct, l.dividend_rate_pct::text as dividend_rate_pct,
  l.promotion_bonus::text as promotion_bonus`);

/**
 * The level of node `n` under `rules`: the highest level whose thresholds it meets, where a leg
 * requirement counts direct members meeting the leg level's own thresholds. Reads only the node's
 * row and, for a leg requirement, its direct members (stopping at the count needed).
 */
export function levelOf(rules: LevelRule[], node: SQL = sql`n`): SQL {
  return sql`(select coalesce(max(lv.level), 0) from jsonb_to_recordset(${JSON.stringify(rules)}::jsonb)
      as lv(level int, own numeric, dir int, perf numeric, legs int, "legOwn" numeric, "legDir" int, "legPerf" numeric)
    where ${node}.own_custody >= lv.own and ${node}.valid_direct_count >= lv.dir and ${node}.team_performance >= lv.perf
      and (lv.legs = 0 or (select count(*) from (select 1 from team_nodes c where c.inviter_seq = ${node}.seq
            and c.own_custody >= lv."legOwn" and c.valid_direct_count >= lv."legDir" and c.team_performance >= lv."legPerf"
            limit lv.legs) q) >= lv.legs))`;
}

/**
 * Every node's figures recomputed from the orders and the closure table, set-based: the CTEs `own`,
 * `team` and `computed` (seq, account_id, own_custody, performance, direct, team, valid_direct,
 * valid_team). `differences()` compares them with the stored figures and the console's repair sets them.
 */
export const RECOMPUTED_FIGURES = sql.raw(`with own as (
            select n.seq, n.account_id, coalesce(sum(o.amount) filter (where o.status = 'active'), 0) as own_custody
            from team_nodes n left join accounts a on coalesce(a.main_account_id, a.id) = n.account_id
              left join hosting_orders o on o.account_id = a.id
            group by n.seq, n.account_id
          ), team as (
            select c.ancestor_seq as seq, sum(d.own_custody) as performance, count(*) filter (where c.depth = 1) as direct,
              count(*) as team, count(*) filter (where c.depth = 1 and d.own_custody >= 500) as valid_direct,
              count(*) filter (where d.own_custody >= 500) as valid_team
            from team_closure c join own d on d.seq = c.descendant_seq group by c.ancestor_seq
          ), computed as (
            select own.seq, own.account_id, own.own_custody, coalesce(team.performance, 0) as performance,
              coalesce(team.direct, 0) as direct, coalesce(team.team, 0) as team, coalesce(team.valid_direct, 0) as valid_direct,
              coalesce(team.valid_team, 0) as valid_team
            from own left join team on team.seq = own.seq
          )`);

/** The team tree, its figures and the level tables: the only SQL of the team module. */
export class TeamRepository {
  constructor(private readonly db: Db) {}

  /** The node of the person holding `accountId`: a sub-account has none of its own, it is its main account's. */
  async node(accountId: string, db: Db | Tx = this.db): Promise<NodeRow | null> {
    const rows = await queryRows<NodeRow>(
      db,
      sql`select ${NODE_COLUMNS} from accounts a join team_nodes n on n.account_id = coalesce(a.main_account_id, a.id)
          where a.id = ${accountId}::uuid`,
    );
    return rows[0] ?? null;
  }

  /**
   * Everything the team page reads about one member in one statement (it answers on every visit):
   * the node's figures, its level under `rules`, the new team custody of `today` and of the month
   * from `monthStart`, and how many direct members meet the next level's leg requirement (0 when
   * that level asks for none).
   */
  async pageFigures(accountId: string, rules: LevelRule[], today: string, monthStart: string): Promise<PageFiguresRow | null> {
    const rows = await queryRows<PageFiguresRow>(
      this.db,
      sql`with node as (
            select n.*, ${levelOf(rules)} as level
            from accounts a join team_nodes n on n.account_id = coalesce(a.main_account_id, a.id) where a.id = ${accountId}::uuid
          )
          select ${NODE_COLUMNS}, n.level,
            (select coalesce(sum(p.opened), 0)::text from team_performance_days p
              where p.account_seq = n.seq and p.day = ${today}::date) as opened_today,
            (select coalesce(sum(p.opened), 0)::text from team_performance_days p
              where p.account_seq = n.seq and p.day between ${monthStart}::date and ${today}::date) as opened_month,
            coalesce((select (select count(*)::int from (select 1 from team_nodes c where c.inviter_seq = n.seq
                  and c.own_custody >= lv."legOwn" and c.valid_direct_count >= lv."legDir" and c.team_performance >= lv."legPerf"
                  limit lv.legs) q)
                from jsonb_to_recordset(${JSON.stringify(rules)}::jsonb)
                  as lv(level int, legs int, "legOwn" numeric, "legDir" int, "legPerf" numeric)
                where lv.level = n.level + 1 and lv.legs > 0), 0) as next_legs_held
          from node n`,
    );
    return rows[0] ?? null;
  }

  async levelOfNode(seq: string, rules: LevelRule[]): Promise<number> {
    const rows = await queryRows<{ level: number }>(
      this.db,
      sql`select ${levelOf(rules)} as level from team_nodes n where n.seq = ${seq}::bigint`,
    );
    return rows[0]?.level ?? 0;
  }

  /** Whether `descendantAccountId` is below `ancestorSeq` in the tree. */
  async isBelow(ancestorSeq: string, descendantAccountId: string): Promise<boolean> {
    const rows = await queryRows<{ below: boolean }>(
      this.db,
      sql`select exists (select 1 from team_closure c join team_nodes d on d.seq = c.descendant_seq
            where c.ancestor_seq = ${ancestorSeq}::bigint and d.account_id = ${descendantAccountId}::uuid) as below`,
    );
    return rows[0]?.below ?? false;
  }

  /**
   * The downline of `seq`, newest first: direct members only or every generation, optionally those
   * whose nickname contains `query`. Answered from the closure table's index, never by walking the tree.
   */
  async members(
    seq: string,
    filter: { scope: TeamScope; query?: string | undefined },
    rules: LevelRule[],
    limit: number,
    offset: number,
  ): Promise<{ rows: MemberRow[]; total: number }> {
    if (!filter.query) {
      return (
        (await this.page(
          sql`select n.seq, ${totalColumn(filter.scope)} as total from team_nodes n where n.seq = ${seq}::bigint`,
          filter.scope,
          rules,
          limit,
          offset,
        )) ?? { rows: [], total: 0 }
      );
    }
    const parts: SQL[] = [sql`c.ancestor_seq = ${seq}::bigint`];
    if (filter.scope === 'direct') parts.push(sql`c.depth = 1`);
    parts.push(sql`strpos(lower(a.nickname), lower(${filter.query})) > 0`);
    const where = sql.join(parts, sql` and `);
    const rows = await queryRows<MemberRow>(
      this.db,
      sql`select ${NODE_COLUMNS}, m.email, a.nickname, c.depth as generation, ${levelOf(rules)} as level
          from team_closure c join team_nodes n on n.seq = c.descendant_seq
            join accounts a on a.id = n.account_id join members m on m.id = a.member_id
          where ${where} order by c.descendant_seq desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from team_closure c join team_nodes n on n.seq = c.descendant_seq
            join accounts a on a.id = n.account_id where ${where}`,
    );
    return { rows, total: count?.total ?? 0 };
  }

  /**
   * The member's own downline page as `members()` answers it, with the node resolved from the
   * account in the same statement: one round trip for the list a member pages through (a search
   * takes the general path). Null when the account has no node.
   */
  async membersOfAccount(
    accountId: string,
    filter: { scope: TeamScope; query?: string | undefined },
    rules: LevelRule[],
    limit: number,
    offset: number,
  ): Promise<{ rows: MemberRow[]; total: number } | null> {
    if (filter.query) {
      const node = await this.node(accountId);
      return node ? this.members(node.seq, filter, rules, limit, offset) : null;
    }
    return this.page(
      sql`select n.seq, ${totalColumn(filter.scope)} as total
          from accounts a join team_nodes n on n.account_id = coalesce(a.main_account_id, a.id) where a.id = ${accountId}::uuid`,
      filter.scope,
      rules,
      limit,
      offset,
    );
  }

  /**
   * One page of the downline of the node `me` selects (its `seq` and the `total` to report), in one
   * statement. The page's keys are cut from the closure index first and only those rows are joined:
   * joined first, PostgreSQL sorted a large team's every member to keep twenty. The keys are a
   * lateral subquery of `me` because the statement is prepared by name: its generic plan, with the
   * node a subquery's value and the limit a parameter, read the whole closure table in parallel.
   * The direct list reads `depth` from the partial index's predicate: an index-only scan in key order.
   * The page size and offset are written into the text (`pageLimit`, `pageOffset`): as parameters the
   * generic plan's cost, guessing a tenth of the table, was above the custom plans', so PostgreSQL
   * planned the statement again on every call.
   */
  private async page(
    me: SQL,
    scope: TeamScope,
    rules: LevelRule[],
    limit: number,
    offset: number,
  ): Promise<{ rows: MemberRow[]; total: number } | null> {
    const keys =
      scope === 'direct'
        ? sql`select c.descendant_seq, 1 as depth from team_closure c where c.ancestor_seq = me.seq and c.depth = 1`
        : sql`select c.descendant_seq, c.depth from team_closure c where c.ancestor_seq = me.seq`;
    const rows = await queryRows<MemberRow & { total: number; sort_key: string }>(
      this.db,
      sql`with me as (${me}), keys as (select k.* from me cross join lateral (${keys} order by c.descendant_seq desc limit ${pageLimit(limit)} offset ${pageOffset(offset)}) k),
          page as (
            select ${NODE_COLUMNS}, m.email, a.nickname, k.depth as generation, ${levelOf(rules)} as level, k.descendant_seq as sort_key
            from keys k join team_nodes n on n.seq = k.descendant_seq
              join accounts a on a.id = n.account_id join members m on m.id = a.member_id
          )
          select me.total, page.* from me left join page on true order by page.sort_key desc`,
    );
    if (rows.length === 0) return null;
    const total = rows[0]!.total;
    const listed = rows[0]!.seq === null ? [] : rows;
    return { total, rows: listed.map(({ total: _total, sort_key: _sortKey, ...row }) => row) };
  }

  /** The upline of `seq`, from the direct inviter to the top (console only). */
  async upline(seq: string, rules: LevelRule[]): Promise<MemberRow[]> {
    return queryRows<MemberRow>(
      this.db,
      sql`select ${NODE_COLUMNS}, m.email, a.nickname, -c.depth as generation, ${levelOf(rules)} as level
          from team_closure c join team_nodes n on n.seq = c.ancestor_seq
            join accounts a on a.id = n.account_id join members m on m.id = a.member_id
          where c.descendant_seq = ${seq}::bigint order by c.depth`,
    );
  }

  async mainAccountOf(memberId: string): Promise<string | null> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select id from accounts where member_id = ${memberId}::uuid and kind = 'main'`,
    );
    return rows[0]?.id ?? null;
  }

  async nodeWithLevel(accountId: string, rules: LevelRule[]): Promise<MemberRow | null> {
    const rows = await queryRows<MemberRow>(
      this.db,
      sql`select ${NODE_COLUMNS}, m.email, a.nickname, 0 as generation, ${levelOf(rules)} as level
          from team_nodes n join accounts a on a.id = n.account_id join members m on m.id = a.member_id
          where n.account_id = ${accountId}::uuid`,
    );
    return rows[0] ?? null;
  }

  // ── Level tables ───────────────────────────────────────────────────────────────────────────────

  /** The version in force on `day`: the latest one effective on or before it. */
  /** The version in force on `day` with its levels, in one statement. */
  async tableOn(day: string): Promise<{ version: VersionRow; levels: LevelRow[] } | null> {
    const rows = await queryRows<VersionRow & { levels: LevelRow[] }>(
      this.db,
      sql`select v.id, v.effective_from::text as effective_from, v.created_at,
            coalesce((select json_agg(l order by l.level) from (select ${LEVEL_COLUMNS} from team_levels l where l.version_id = v.id) l), '[]')
              as levels
          from team_level_versions v where v.effective_from <= ${day}::date order by v.effective_from desc limit 1`,
    );
    const row = rows[0];
    if (!row) return null;
    const { levels, ...version } = row;
    return { version, levels };
  }

  async versionOn(day: string, db: Db | Tx = this.db): Promise<VersionRow | null> {
    const rows = await queryRows<VersionRow>(
      db,
      sql`select id, effective_from::text as effective_from, created_at from team_level_versions
          where effective_from <= ${day}::date order by effective_from desc limit 1`,
    );
    return rows[0] ?? null;
  }

  async versions(): Promise<VersionRow[]> {
    return queryRows<VersionRow>(
      this.db,
      sql`select id, effective_from::text as effective_from, created_at from team_level_versions order by effective_from desc`,
    );
  }

  async levels(versionId: string, db: Db | Tx = this.db): Promise<LevelRow[]> {
    return queryRows<LevelRow>(
      db,
      sql`select ${LEVEL_COLUMNS} from team_levels l where l.version_id = ${versionId}::uuid order by l.level`,
    );
  }

  /** Saves the table for `effectiveFrom`, replacing one saved earlier for that same day. Returns the version id. */
  async saveVersion(tx: Tx, effectiveFrom: string, operatorId: string, levels: LevelRow[]): Promise<string> {
    const [version] = await queryRows<{ id: string }>(
      tx,
      sql`insert into team_level_versions (effective_from, created_by) values (${effectiveFrom}::date, ${operatorId}::uuid)
          on conflict (effective_from) do update set created_by = excluded.created_by, updated_at = now()
          returning id`,
    );
    const id = version!.id;
    await tx.execute(sql`delete from team_levels where version_id = ${id}::uuid`);
    for (const level of levels) {
      await tx.execute(
        sql`insert into team_levels (version_id, level, name, min_own_custody, min_valid_direct, min_team_performance, min_legs,
              legs_level, direct_rate_pct, indirect_rate_pct, indirect_generations, community_rate_pct, management_rate_pct,
              dividend_rate_pct, promotion_bonus)
            values (${id}::uuid, ${level.level}, ${level.name}, ${level.min_own_custody}::numeric, ${level.min_valid_direct},
              ${level.min_team_performance}::numeric, ${level.min_legs}, ${level.legs_level}, ${level.direct_rate_pct}::numeric,
              ${level.indirect_rate_pct}::numeric, ${level.indirect_generations}, ${level.community_rate_pct}::numeric,
              ${level.management_rate_pct}::numeric, ${level.dividend_rate_pct}::numeric, ${level.promotion_bonus}::numeric)`,
      );
    }
    return id;
  }

  /** Members whose level differs between two level tables (the console's preview), and a sample of them. */
  async levelChanges(
    from: LevelRule[],
    to: LevelRule[],
    limit: number,
  ): Promise<{ total: number; sample: { account_id: string; email: string; nickname: string; from: number; to: number }[] }> {
    const changed = sql`select n.account_id, ${levelOf(from)} as "from", ${levelOf(to)} as "to", n.seq from team_nodes n`;
    const sample = await queryRows<{ account_id: string; email: string; nickname: string; from: number; to: number }>(
      this.db,
      sql`select x.account_id, m.email, a.nickname, x."from", x."to" from (${changed}) x
            join accounts a on a.id = x.account_id join members m on m.id = a.member_id
          where x."from" <> x."to" order by x.seq limit ${limit}`,
    );
    const [count] = await queryRows<{ total: number }>(
      this.db,
      sql`select count(*)::int as total from (${changed}) x where x."from" <> x."to"`,
    );
    return { total: count?.total ?? 0, sample };
  }

  /**
   * Recomputes every node's figures from the orders and the closure table, set-based, and returns the
   * nodes whose stored figures differ (none when the triggers kept them right). A person's own custody
   * is that of their main account and its sub-accounts; a sub-account holding a node of its own is
   * listed as field `node`.
   */
  async differences(): Promise<{ account_id: string; field: string; stored: string; computed: string }[]> {
    return queryRows(
      this.db,
      sql`${RECOMPUTED_FIGURES}
          select d.account_id, d.field, d.stored, d.computed from (
          select x.account_id, f.field, f.stored, f.computed, x.seq from computed x join team_nodes n on n.seq = x.seq
          cross join lateral (values
            ('own_custody', n.own_custody::text, x.own_custody::text),
            ('team_performance', n.team_performance::text, x.performance::text),
            ('direct_count', n.direct_count::text, x.direct::text),
            ('team_count', n.team_count::text, x.team::text),
            ('valid_direct_count', n.valid_direct_count::text, x.valid_direct::text),
            ('valid_team_count', n.valid_team_count::text, x.valid_team::text)
          ) f(field, stored, computed)
          where f.stored::numeric <> f.computed::numeric
          union all
          select n.account_id, 'node', '1', '0', n.seq from team_nodes n join accounts a on a.id = n.account_id
          where a.main_account_id is not null
          ) d order by d.seq, d.field`,
    );
  }
}
