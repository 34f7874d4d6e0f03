import { randomUUID } from 'node:crypto';
import {
  INCOME_TYPES,
  TEAM_EARNING_TYPES,
  VALID_CUSTODY_USDT,
  maskEmail,
  money,
  type AiInfo,
  type DividendPool,
  type IncomeType,
  type TeamEarningType,
  type TeamIncomeDetail,
} from '@custos/contract';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { SettlementService, SettlementStep } from '../hosting/settlement.service.js';
import { NothingToPostError, type LedgerService } from '../ledger/ledger.service.js';
import type { EarningsRepository, TeamIncomeRow } from './earnings.repository.js';
import { fourPlaces, withoutTrailingZeros } from '../../lib/decimal-text.js';

const TEAM_INCOME_TYPES = ['direct', 'indirect', 'community', 'management', 'promotion'] as const;

/** Types whose earnings exist today (the team's: docs/decisions/024-team-earnings.md; airdrops: 025). */
const AVAILABLE_INCOME_TYPES: readonly IncomeType[] = ['static', 'mining', 'dividend', ...TEAM_INCOME_TYPES, 'airdrop'];

/** The team earning types listed under each income type (the level dividend is a dividend). */
function teamTypesOf(type: IncomeType | undefined): TeamEarningType[] {
  if (type === undefined) return [...TEAM_EARNING_TYPES];
  if (type === 'dividend') return ['level_dividend'];
  return (TEAM_INCOME_TYPES as readonly IncomeType[]).includes(type) ? [type as TeamEarningType] : [];
}

/** What a team earning's income row says about its source: the source member's e-mail masked. */
function teamDetail(row: TeamIncomeRow): TeamIncomeDetail {
  return {
    sourceEmail: row.source_email === null ? null : maskEmail(row.source_email),
    sourceNickname: row.source_nickname,
    generation: row.generation,
    level: row.level,
    base: fourPlaces(row.base),
    ratePct: row.rate_pct === null ? null : withoutTrailingZeros(row.rate_pct),
    sharedBy: row.shared_by,
  };
}

/**
 * The AI dividend and the income log. The operator sets a USDT pool per platform day; that day's
 * settlement shares it among valid members (custody ≥ 500 USDT at the end of that day) pro rata to
 * that custody, as claimable shares (no money moves); a claim pays every claimable share at once
 * from the `rewards` account.
 */
export class EarningsService {
  constructor(
    private readonly db: Db,
    private readonly repository: EarningsRepository,
    private readonly ledger: LedgerService,
    private readonly audit: AuditRepository,
    private readonly settlement: Pick<SettlementService, 'acceptsPool' | 'custodyAtDayEnd'>,
    /** The team earnings' income rows (docs/decisions/024-team-earnings.md). */
    private readonly team?: { incomeRows(accountId: string, types: readonly TeamEarningType[]): SQL },
  ) {}

  async info(context: MemberSessionContext, page: number, pageSize: number): Promise<AiInfo> {
    const accountId = context.account.id;
    const [totals, records, lastPool, balances] = await Promise.all([
      this.repository.totals(accountId),
      this.repository.allocations(accountId, pageSize, (page - 1) * pageSize),
      this.repository.lastPool(),
      this.ledger.balancesOf([accountId]),
    ]);
    const custody = balances.get(`${accountId}:USDT:custody`) ?? money.ZERO;
    return {
      claimable: fourPlaces(totals.claimable),
      claimedTotal: fourPlaces(totals.claimed),
      custodyBalance: money.formatMoney(custody),
      validThreshold: VALID_CUSTODY_USDT,
      isValid: money.compare(custody, money.parseMoney(VALID_CUSTODY_USDT)) >= 0,
      lastPool: lastPool ? { day: lastPool.day, amount: fourPlaces(lastPool.amount), members: lastPool.members } : null,
      records: {
        items: records.rows.map((row) => ({
          day: row.day,
          custody: fourPlaces(row.custody),
          amount: fourPlaces(row.amount),
          status: row.status,
          claimedAt: row.claimed_at === null ? null : new Date(row.claimed_at).toISOString(),
        })),
        total: records.total,
        page,
        pageSize,
      },
    };
  }

  /** Claims every claimable share (to be claimed → claimed) into the member's cash. */
  async receive(context: MemberSessionContext): Promise<{ amount: string; days: number }> {
    const accountId = context.account.id;
    let days = 0;
    try {
      const posted = await this.ledger.transaction((tx) =>
        this.ledger.postSettlement(
          tx,
          {
            idempotencyKey: `dividend-claim:${accountId}:${randomUUID()}`,
            kind: 'dividend_claim',
            referenceType: 'account',
            referenceId: accountId,
          },
          async (entryId) => {
            const claimed = await this.repository.claimAll(tx, accountId, entryId);
            days = claimed.days;
            return claimed.days;
          },
          (entryId) => this.repository.claimSource(entryId),
          'USDT',
          [{ purpose: 'available', sign: 1, recordType: 'dividend' }],
          { platformCode: 'rewards', recordType: 'dividend' },
        ),
      );
      return { amount: money.formatMoney(posted!.total), days };
    } catch (error) {
      if (error instanceof NothingToPostError) throw AppError.conflict('dividend.nothing_to_claim');
      throw error;
    }
  }

  async income(context: MemberSessionContext, type: IncomeType | undefined, page: number, pageSize: number) {
    const teamTypes = teamTypesOf(type);
    const team = this.team && teamTypes.length > 0 ? this.team.incomeRows(context.account.id, teamTypes) : null;
    const { rows, total } = await this.repository.income(context.account.id, type, pageSize, (page - 1) * pageSize, team);
    return {
      items: rows.map(({ team: detail, ...row }) => ({
        ...row,
        amount: fourPlaces(row.amount),
        ...(detail ? { team: teamDetail(detail) } : {}),
      })),
      total,
      page,
      pageSize,
    };
  }

  typeList() {
    return INCOME_TYPES.map((type) => ({ type, available: AVAILABLE_INCOME_TYPES.includes(type) }));
  }

  /** The settlement step: shares the day's pool, once. */
  settlementStep(): SettlementStep {
    return {
      name: 'ai-dividend',
      run: async (day) => {
        if (!(await this.repository.pool(this.db, day))) return;
        await this.db.transaction(async (tx) => {
          // Locked first: a second instance settling the same day waits, then finds it shared out.
          await this.repository.lockPool(tx, day);
          if (await this.repository.isDistributed(tx, day)) return;
          // Valid and weighted by custody as the day ended, not as it stands when the run gets here.
          await this.repository.distribute(tx, day, this.settlement.custodyAtDayEnd(day, VALID_CUSTODY_USDT));
        });
      },
    };
  }

  // ── Console ────────────────────────────────────────────────────────────────────────────────────

  async pools(): Promise<DividendPool[]> {
    return (await this.repository.pools(60)).map((row) => ({
      day: row.day,
      amount: fourPlaces(row.amount),
      distributed: row.distributed === null ? null : fourPlaces(row.distributed),
      members: row.distributed === null ? null : row.members,
      claimed: fourPlaces(row.claimed),
    }));
  }

  /**
   * Sets a day's pool; refused once that day's settlement has started or finished (it would never be
   * shared), or the day is before the first day the settlement covers.
   */
  async setPool(operatorId: string, day: string, amount: string, origin: RequestOrigin): Promise<DividendPool[]> {
    await this.db.transaction(async (tx) => {
      const open = await this.settlement.acceptsPool(tx, day);
      await this.repository.lockPool(tx, day);
      if (await this.repository.isDistributed(tx, day)) throw AppError.conflict('dividend.already_distributed');
      if (!open) throw AppError.conflict('dividend.day_settled');
      const before = await this.repository.pool(tx, day);
      await this.repository.setPool(tx, day, money.formatMoney(money.parseMoney(amount)), operatorId);
      await this.audit.record(
        {
          operatorId,
          action: 'dividend.pool_set',
          targetType: 'dividend_pool',
          targetId: day,
          before,
          after: { amount },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return this.pools();
  }

  /**
   * Removes a day's pool that has not been shared out (audited). The pool row's lock orders it with
   * the dividend step: a run that has not reached the step yet finds no pool, one that has shared it
   * keeps it.
   */
  async removePool(operatorId: string, day: string, origin: RequestOrigin): Promise<DividendPool[]> {
    await this.db.transaction(async (tx) => {
      await this.repository.lockPool(tx, day);
      const before = await this.repository.pool(tx, day);
      if (!before) throw AppError.notFound();
      if (await this.repository.isDistributed(tx, day)) throw AppError.conflict('dividend.already_distributed');
      await this.repository.removePool(tx, day);
      await this.audit.record(
        {
          operatorId,
          action: 'dividend.pool_removed',
          targetType: 'dividend_pool',
          targetId: day,
          before,
          after: null,
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return this.pools();
  }
}
