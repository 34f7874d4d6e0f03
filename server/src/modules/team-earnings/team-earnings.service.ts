import { VALID_CUSTODY_USDT, type TeamEarningsSettings } from '@custos/contract';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { Db } from '../../db/client.js';
import { fourPlaces } from '../../lib/decimal-text.js';
import { addDays } from '../../lib/platform-time.js';
import type { SettlementService, SettlementStep } from '../hosting/settlement.service.js';
import { forEachRange } from '../hosting/settlement.service.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { TeamRepository } from '../team/team.repository.js';
import {
  TEAM_EARNING_TYPES,
  type DayLevelRow,
  type ItemRow,
  type TeamEarningType,
  type TeamEarningsRepository,
} from './team-earnings.repository.js';

/** A day's computation as stored, for the recompute check. */
export interface DayFigures {
  levels: DayLevelRow[];
  items: ItemRow[];
}

// How `recomputeDay` carries its figures out of the transaction it rolls back.
class RolledBack extends Error {
  constructor(readonly figures: DayFigures) {
    super();
  }
}

/**
 * The team earnings (docs/decisions/024-team-earnings.md): the day's settlement computes every
 * member's direct, indirect, community, management, promotion and level-dividend earnings of the day
 * with the level table in force that day and each member's level as the day ended, as "to arrive"
 * rows; the settlement of the operator's delay later posts each as one ledger entry per member, day
 * and type, from the `rewards` platform account.
 */
export class TeamEarningsService {
  constructor(
    private readonly db: Db,
    private readonly repository: TeamEarningsRepository,
    private readonly team: TeamRepository,
    private readonly ledger: LedgerService,
    private readonly settings: SettingsService,
    private readonly settlement: Pick<SettlementService, 'custodyAtDayEnd' | 'chunkSize'>,
    private readonly audit: AuditRepository,
  ) {}

  /** The settlement's steps, after interest, expiry, machines and the AI dividend: compute the day, then arrive what is due. */
  settlementSteps(): SettlementStep[] {
    return [
      { name: 'team-earnings', run: (day) => this.computeDay(day) },
      { name: 'team-earnings-arrive', run: (day) => this.arrive(day) },
    ];
  }

  /** Computes `day` once: a second run, or another instance's, finds the day claimed and does nothing. */
  async computeDay(day: string): Promise<void> {
    const version = await this.team.versionOn(day);
    if (!version) return;
    const { arrivalDelayDays } = await this.settings.get('team_earnings');
    await this.db.transaction(async (tx) => {
      if (!(await this.repository.claimDay(tx, day, version.id, arrivalDelayDays))) return;
      await this.fill(tx, day, version.id, arrivalDelayDays);
    });
  }

  private async fill(tx: Parameters<Parameters<Db['transaction']>[0]>[0], day: string, versionId: string, delay: number) {
    await this.repository.insertDayLevels(tx, day, versionId, this.settlement.custodyAtDayEnd(day, '0'), VALID_CUSTODY_USDT);
    await this.repository.insertItems(tx, day, versionId);
    await this.repository.insertPromotions(tx, day, versionId);
    await this.repository.insertLevelDividend(tx, day, versionId);
    await this.repository.insertEarnings(tx, day, addDays(day, delay));
  }

  /**
   * Posts every earning due by `day` (arrive_on ≤ day), in ranges of the members' `seq`: one
   * transaction per range, one ledger entry per member, day and type (key
   * `team-earning:<account>:<day>:<type>`), so a re-run or a crash never pays twice.
   */
  async arrive(day: string): Promise<void> {
    await forEachRange(await this.repository.maxDueSeq(day), this.settlement.chunkSize, async (from, to) => {
      await this.ledger.transaction(async (tx) => {
        await this.ledger.postEach(
          tx,
          this.repository.dueSource(day, from, to),
          { kind: 'team_earning', referenceType: 'team_earning' },
          'USDT',
          { purpose: 'available', recordType: 'income' },
          { platformCode: 'rewards', recordType: 'income' },
        );
        await this.repository.markArrived(tx, day, from, to);
      });
    });
  }

  /** The stored levels and items of a computed day. */
  async dayFigures(day: string): Promise<DayFigures> {
    return { levels: await this.repository.dayLevels(this.db, day), items: await this.repository.dayItems(this.db, day) };
  }

  /**
   * Computes `day` again from the orders, the tree and the day's level table, in a transaction that is
   * rolled back, and returns what it computed: equal to `dayFigures(day)` when the day pays the same
   * however late it is run again (settings changed since included).
   */
  async recomputeDay(day: string): Promise<DayFigures> {
    const version = await this.team.versionOn(day);
    const { arrivalDelayDays } = await this.settings.get('team_earnings');
    try {
      return await this.db.transaction(async (tx): Promise<never> => {
        await this.repository.removeDay(tx, day);
        if (version) {
          await this.repository.claimDay(tx, day, version.id, arrivalDelayDays);
          await this.fill(tx, day, version.id, arrivalDelayDays);
        }
        throw new RolledBack({
          levels: await this.repository.dayLevels(tx, day),
          items: await this.repository.dayItems(tx, day),
        });
      });
    } catch (error) {
      if (error instanceof RolledBack) return error.figures;
      throw error;
    }
  }

  // ── Member ─────────────────────────────────────────────────────────────────────────────────────

  /** The member's team earnings per type (to arrive, arrived); a sub-account sees its main account's. */
  async summary(accountId: string) {
    const person = (await this.repository.personOf(accountId)) ?? accountId;
    const rows = new Map((await this.repository.summary(person)).map((row) => [row.type, row]));
    return TEAM_EARNING_TYPES.map((type) => ({
      type,
      toArrive: fourPlaces(rows.get(type)?.to_arrive ?? '0'),
      arrived: fourPlaces(rows.get(type)?.arrived ?? '0'),
    }));
  }

  incomeRows(accountId: string, types: readonly TeamEarningType[]) {
    return this.repository.incomeRows(accountId, types);
  }

  // ── Console ────────────────────────────────────────────────────────────────────────────────────

  async earnings(filter: Parameters<TeamEarningsRepository['earnings']>[0]) {
    const { rows, total } = await this.repository.earnings(filter);
    return {
      items: rows.map((row) => ({
        accountId: row.account_id,
        email: row.email,
        nickname: row.nickname,
        day: row.day,
        type: row.type,
        amount: fourPlaces(row.amount),
        status: row.status,
        arriveOn: row.arrive_on,
        arrivedAt: row.arrived_at === null ? null : new Date(row.arrived_at).toISOString(),
      })),
      total,
    };
  }

  async promotions(limit: number, offset: number, email?: string) {
    const { rows, total } = await this.repository.promotions(limit, offset, email);
    return {
      items: rows.map((row) => ({
        accountId: row.account_id,
        email: row.email,
        nickname: row.nickname,
        level: row.level,
        day: row.day,
        bonus: fourPlaces(row.bonus),
      })),
      total,
    };
  }

  arrivalSettings(): Promise<TeamEarningsSettings> {
    return this.settings.get('team_earnings');
  }

  /**
   * Sets the arrival delay (audited): days computed from now on arrive that many days after their own
   * day; a day already computed keeps the delay it was computed with.
   */
  async saveSettings(operatorId: string, value: TeamEarningsSettings, origin: RequestOrigin): Promise<TeamEarningsSettings> {
    const before = await this.settings.get('team_earnings');
    await this.db.transaction(async (tx) => {
      await this.settings.set('team_earnings', value, operatorId, tx);
      await this.audit.record(
        {
          operatorId,
          action: 'team.earnings_settings_saved',
          targetType: 'setting',
          targetId: 'team_earnings',
          before,
          after: value,
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return this.settings.get('team_earnings');
  }
}
