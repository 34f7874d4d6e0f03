import {
  VALID_CUSTODY_USDT,
  maskEmail,
  money,
  registerPathFor,
  type AdminMemberTeam,
  type AdminTeamChildren,
  type AdminTeamNode,
  type ShareInfo,
  type TeamInfo,
  type TeamLevel,
  type TeamLevelConfig,
  type TeamLevelInput,
  type TeamLevelPreview,
  type TeamLevelVersion,
  type TeamMember,
  type TeamScope,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { fourPlaces, withoutTrailingZeros } from '../../lib/decimal-text.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { Clock } from '../../lib/clock.js';
import { addDays, localDate } from '../../lib/platform-time.js';
import type { LevelRow, LevelRule, MemberRow, NodeRow, TeamRepository } from './team.repository.js';

export function toLevel(row: LevelRow): TeamLevel {
  return {
    level: row.level,
    name: row.name,
    minOwnCustody: fourPlaces(row.min_own_custody),
    minValidDirect: row.min_valid_direct,
    minTeamPerformance: fourPlaces(row.min_team_performance),
    minLegs: row.min_legs,
    legsLevel: row.legs_level,
    directRatePct: withoutTrailingZeros(row.direct_rate_pct),
    indirectRatePct: withoutTrailingZeros(row.indirect_rate_pct),
    indirectGenerations: row.indirect_generations,
    communityRatePct: withoutTrailingZeros(row.community_rate_pct),
    managementRatePct: withoutTrailingZeros(row.management_rate_pct),
    dividendRatePct: withoutTrailingZeros(row.dividend_rate_pct),
    promotionBonus: fourPlaces(row.promotion_bonus),
  };
}

function toRow(input: TeamLevelInput): LevelRow {
  return {
    level: input.level,
    name: input.name,
    min_own_custody: input.minOwnCustody,
    min_valid_direct: input.minValidDirect,
    min_team_performance: input.minTeamPerformance,
    min_legs: input.minLegs,
    legs_level: input.minLegs > 0 ? input.legsLevel : null,
    direct_rate_pct: input.directRatePct,
    indirect_rate_pct: input.indirectRatePct,
    indirect_generations: input.indirectGenerations,
    community_rate_pct: input.communityRatePct,
    management_rate_pct: input.managementRatePct,
    dividend_rate_pct: input.dividendRatePct,
    promotion_bonus: input.promotionBonus,
  };
}

/** The level evaluator's form of a table: each leg requirement carries the leg level's thresholds. */
export function rulesOf(levels: LevelRow[]): LevelRule[] {
  return levels.map((row) => {
    const leg = row.min_legs > 0 ? levels.find((candidate) => candidate.level === row.legs_level) : undefined;
    return {
      level: row.level,
      own: row.min_own_custody,
      dir: row.min_valid_direct,
      perf: row.min_team_performance,
      legs: leg ? row.min_legs : 0,
      legOwn: leg?.min_own_custody ?? '0',
      legDir: leg?.min_valid_direct ?? 0,
      legPerf: leg?.min_team_performance ?? '0',
    };
  });
}

/**
 * Refuses a level table that is not V0…Vn without a gap, whose V0 is not open to everyone, whose
 * thresholds do not rise with the level, or whose leg requirement names no lower level. Rates
 * outside 0–100 % never get here (the contract schema refuses them).
 */
export function checkLevels(levels: TeamLevelInput[]): void {
  const sorted = [...levels].sort((a, b) => a.level - b.level);
  sorted.forEach((level, index) => {
    if (level.level !== index) throw AppError.badRequest('team.levels_gap', { level: index });
  });
  const [zero] = sorted;
  const isZero = (value: string) => money.parseMoney(value) === money.ZERO;
  if (
    !zero ||
    !isZero(zero.minOwnCustody) ||
    zero.minValidDirect !== 0 ||
    !isZero(zero.minTeamPerformance) ||
    zero.minLegs !== 0
  ) {
    throw AppError.badRequest('team.level_zero_open');
  }
  for (let index = 1; index < sorted.length; index += 1) {
    const below = sorted[index - 1]!;
    const level = sorted[index]!;
    const own = money.compare(money.parseMoney(level.minOwnCustody), money.parseMoney(below.minOwnCustody));
    const performance = money.compare(money.parseMoney(level.minTeamPerformance), money.parseMoney(below.minTeamPerformance));
    const direct = Math.sign(level.minValidDirect - below.minValidDirect);
    const legs = Math.sign(level.minLegs - below.minLegs);
    if (own < 0 || performance < 0 || direct < 0 || (own === 0 && performance === 0 && direct === 0 && legs <= 0)) {
      throw AppError.badRequest('team.levels_not_rising', { level: level.level });
    }
    if (level.minLegs > 0 && (level.legsLevel === null || level.legsLevel >= level.level)) {
      throw AppError.badRequest('team.legs_level', { level: level.level });
    }
  }
}

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}

const VALID_CUSTODY = money.parseMoney(VALID_CUSTODY_USDT);

function isValid(ownCustody: string): boolean {
  return money.compare(money.parseMoney(ownCustody), VALID_CUSTODY) >= 0;
}

function shortfall(required: string, has: string): string {
  return money.formatMoney(money.max(money.ZERO, money.subtract(money.parseMoney(required), money.parseMoney(has))));
}

interface LevelTable {
  effectiveFrom: string;
  levels: LevelRow[];
  rules: LevelRule[];
}

/** How many days' level tables a server keeps (`TeamService.tableOn`): today and a few days of the console's looking back. */
const TABLES_KEPT_MAX = 8;

/**
 * The referral team: figures the database keeps per account (docs/decisions/020-team-tree-and-levels.md),
 * the level table in force on the platform day, and each member's view of their own downline only.
 */
export class TeamService {
  /** The level tables in force on days that have begun, by day (`tableOn`). */
  private readonly tablesInForce = new Map<string, Promise<LevelTable>>();

  constructor(
    private readonly db: Db,
    private readonly repository: TeamRepository,
    private readonly audit: AuditRepository,
    private readonly timeZone: string,
    private readonly clock: Clock,
  ) {}

  private today(): string {
    return localDate(this.clock.now(), this.timeZone);
  }

  /**
   * The level table in force on `day` (one always is: the migration seeds one from 2000-01-01). A
   * table is saved for tomorrow at the earliest, so the table in force on a day that has begun never
   * changes: those are kept here (a few days' worth), and the team page and list, asked on every
   * visit, read no table from the database (decision 040). A later day is read each time.
   */
  private tableOn(day: string): Promise<LevelTable> {
    if (day > this.today()) return this.readTable(day);
    const kept = this.tablesInForce.get(day);
    if (kept) return kept;
    const table = this.readTable(day);
    if (this.tablesInForce.size >= TABLES_KEPT_MAX) this.tablesInForce.delete(this.tablesInForce.keys().next().value!);
    this.tablesInForce.set(day, table);
    // A failed read is not kept: the next call reads again.
    table.catch(() => {
      if (this.tablesInForce.get(day) === table) this.tablesInForce.delete(day);
    });
    return table;
  }

  private async readTable(day: string): Promise<LevelTable> {
    const table = await this.repository.tableOn(day);
    if (!table) throw new Error(`no team level table in force on ${day}`);
    return { effectiveFrom: table.version.effective_from, levels: table.levels, rules: rulesOf(table.levels) };
  }

  private async nodeOf(accountId: string): Promise<NodeRow> {
    const node = await this.repository.node(accountId);
    if (!node) throw new Error(`account ${accountId} has no team node`);
    return node;
  }

  async info(context: MemberSessionContext): Promise<TeamInfo> {
    const today = this.today();
    const table = await this.tableOn(today);
    const node = await this.repository.pageFigures(context.account.id, table.rules, today, `${today.slice(0, 8)}01`);
    if (!node) throw new Error(`account ${context.account.id} has no team node`);
    const level = node.level;
    const current = table.levels.find((row) => row.level === level)!;
    const nextRow = table.levels.find((row) => row.level === level + 1);
    let next: TeamInfo['next'] = null;
    if (nextRow) {
      const rule = table.rules.find((candidate) => candidate.level === nextRow.level)!;
      const legsHeld = node.next_legs_held;
      next = {
        level: nextRow.level,
        name: nextRow.name,
        requires: {
          ownCustody: fourPlaces(nextRow.min_own_custody),
          validDirect: nextRow.min_valid_direct,
          teamPerformance: fourPlaces(nextRow.min_team_performance),
          legs: rule.legs,
          legsLevel: rule.legs > 0 ? nextRow.legs_level : null,
        },
        missing: {
          ownCustody: shortfall(nextRow.min_own_custody, node.own_custody),
          validDirect: Math.max(0, nextRow.min_valid_direct - node.valid_direct_count),
          teamPerformance: shortfall(nextRow.min_team_performance, node.team_performance),
          legs: Math.max(0, rule.legs - legsHeld),
          legsLevel: rule.legs > 0 ? nextRow.legs_level : null,
        },
      };
    }
    return {
      level,
      levelName: current.name,
      inviteCode: context.account.inviteCode,
      ownCustody: fourPlaces(node.own_custody),
      isValid: isValid(node.own_custody),
      validThreshold: VALID_CUSTODY_USDT,
      performance: {
        today: fourPlaces(node.opened_today),
        month: fourPlaces(node.opened_month),
        total: fourPlaces(node.team_performance),
      },
      directCount: node.direct_count,
      indirectCount: node.team_count - node.direct_count,
      validDirectCount: node.valid_direct_count,
      validTeamCount: node.valid_team_count,
      next,
    };
  }

  async members(
    context: MemberSessionContext,
    filter: { scope: TeamScope; query?: string | undefined },
    page: number,
    pageSize: number,
  ): Promise<{ items: TeamMember[]; total: number; page: number; pageSize: number }> {
    const table = await this.tableOn(this.today());
    const found = await this.repository.membersOfAccount(
      context.account.id,
      filter,
      table.rules,
      pageSize,
      (page - 1) * pageSize,
    );
    if (!found) throw new Error(`account ${context.account.id} has no team node`);
    const { rows, total } = found;
    const names = new Map(table.levels.map((row) => [row.level, row.name]));
    return {
      items: rows.map((row) => ({
        nickname: row.nickname,
        maskedEmail: maskEmail(row.email),
        generation: row.generation,
        level: row.level,
        levelName: names.get(row.level) ?? `V${row.level}`,
        isValid: isValid(row.own_custody),
        ownCustody: fourPlaces(row.own_custody),
        teamPerformance: fourPlaces(row.team_performance),
        joinedAt: iso(row.joined_at),
      })),
      total,
      page,
      pageSize,
    };
  }

  share(context: MemberSessionContext): ShareInfo {
    return { inviteCode: context.account.inviteCode, registerPath: registerPathFor(context.account.inviteCode) };
  }

  async levelConfig(context: MemberSessionContext): Promise<TeamLevelConfig> {
    const table = await this.tableOn(this.today());
    const node = await this.nodeOf(context.account.id);
    return {
      effectiveFrom: table.effectiveFrom,
      levels: table.levels.map(toLevel),
      myLevel: await this.repository.levelOfNode(node.seq, table.rules),
      validThreshold: VALID_CUSTODY_USDT,
    };
  }

  // ── Console ────────────────────────────────────────────────────────────────────────────────────

  async versions(): Promise<TeamLevelVersion[]> {
    const versions = await this.repository.versions();
    return Promise.all(
      versions.map(async (version) => ({
        id: version.id,
        effectiveFrom: version.effective_from,
        createdAt: iso(version.created_at),
        levels: (await this.repository.levels(version.id)).map(toLevel),
      })),
    );
  }

  /**
   * Saves a new level table, in force from the next platform day (a table saved again the same day
   * replaces that one); today's table, and every past day's, stay as they were.
   */
  async saveLevels(operatorId: string, levels: TeamLevelInput[], origin: RequestOrigin): Promise<TeamLevelVersion> {
    checkLevels(levels);
    const rows = [...levels].sort((a, b) => a.level - b.level).map(toRow);
    const effectiveFrom = addDays(this.today(), 1);
    const before = await this.tableOn(effectiveFrom);
    const id = await this.db.transaction(async (tx) => {
      const saved = await this.repository.saveVersion(tx, effectiveFrom, operatorId, rows);
      await this.audit.record(
        {
          operatorId,
          action: 'team.levels_saved',
          targetType: 'team_level_version',
          targetId: saved,
          before: { effectiveFrom: before.effectiveFrom, levels: before.levels.map(toLevel) },
          after: { effectiveFrom, levels: rows.map(toLevel) },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return saved;
    });
    // Saved for tomorrow, it changes no kept day; but a clock set back (tests, an operator's
    // correction) could make tomorrow a kept day.
    this.tablesInForce.clear();
    return (await this.versions()).find((version) => version.id === id)!;
  }

  /** Who would change level if `levels` were in force instead of the table in force today. */
  async preview(levels: TeamLevelInput[]): Promise<TeamLevelPreview> {
    checkLevels(levels);
    const today = this.today();
    const current = await this.tableOn(today);
    const proposed = rulesOf([...levels].sort((a, b) => a.level - b.level).map(toRow));
    const { total, sample } = await this.repository.levelChanges(current.rules, proposed, 100);
    return {
      effectiveFrom: addDays(today, 1),
      changes: total,
      sample: sample.map((row) => ({
        accountId: row.account_id,
        email: row.email,
        nickname: row.nickname,
        from: row.from,
        to: row.to,
      })),
    };
  }

  /** A member's (main account's) place in the tree for the console: upline to the top, downline paged. */
  async memberTeam(memberId: string, page: number, pageSize: number): Promise<AdminMemberTeam> {
    const accountId = await this.repository.mainAccountOf(memberId);
    if (!accountId) throw AppError.notFound();
    const table = await this.tableOn(this.today());
    const self = await this.repository.nodeWithLevel(accountId, table.rules);
    if (!self) throw AppError.notFound();
    const toNode = (row: MemberRow): AdminTeamNode => ({
      accountId: row.account_id,
      email: row.email,
      nickname: row.nickname,
      generation: row.generation,
      level: row.level,
      ownCustody: fourPlaces(row.own_custody),
      teamPerformance: fourPlaces(row.team_performance),
      directCount: row.direct_count,
      teamCount: row.team_count,
      validTeamCount: row.valid_team_count,
      joinedAt: iso(row.joined_at),
    });
    const downline = await this.repository.members(self.seq, { scope: 'all' }, table.rules, pageSize, (page - 1) * pageSize);
    return {
      self: toNode(self),
      upline: (await this.repository.upline(self.seq, table.rules)).map(toNode),
      downline: { items: downline.rows.map(toNode), total: downline.total, page, pageSize },
    };
  }

  /** The direct members of a person's node for the console's downline tree (loaded a level at a time). */
  async children(accountId: string, page: number, pageSize: number): Promise<AdminTeamChildren> {
    const node = await this.repository.node(accountId);
    if (!node) throw AppError.notFound();
    const table = await this.tableOn(this.today());
    const { rows, total } = await this.repository.members(
      node.seq,
      { scope: 'direct' },
      table.rules,
      pageSize,
      (page - 1) * pageSize,
    );
    return {
      items: rows.map((row) => ({
        accountId: row.account_id,
        email: row.email,
        nickname: row.nickname,
        generation: row.generation,
        level: row.level,
        ownCustody: fourPlaces(row.own_custody),
        teamPerformance: fourPlaces(row.team_performance),
        directCount: row.direct_count,
        teamCount: row.team_count,
        validTeamCount: row.valid_team_count,
        joinedAt: iso(row.joined_at),
        isValid: isValid(row.own_custody),
      })),
      total,
      page,
      pageSize,
    };
  }

  /** Stored figures that differ from a full recompute (empty when the tree is consistent). */
  differences() {
    return this.repository.differences();
  }
}
