import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { money, type SettlementRun } from '@custos/contract';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { Clock } from '../../lib/clock.js';
import { NothingToPostError, type LedgerService } from '../ledger/ledger.service.js';
import { addDays, localTime } from '../../lib/platform-time.js';
import type { HostingRepository, RunRow } from './hosting.repository.js';

/**
 * One step of the daily settlement. Steps run in order for a day; each must be safe to run again
 * (a crash, a re-run, or another instance running the same day at once). Machine output, the AI
 * dividend and team earnings add their steps after the custody ones.
 */
export interface SettlementStep {
  name: string;
  run(day: string): Promise<void>;
}

/** Orders per chunk: one transaction and one ledger entry each. */
export const SETTLEMENT_CHUNK = 5_000n;

/**
 * Runs `work` for each range [from, to) of a dense sequence up to `maxSeq`; a range another run
 * has already paid (nothing to post) is skipped. Settlement steps of every feature use it.
 */
export async function forEachRange(
  maxSeq: bigint,
  chunkSize: bigint,
  work: (from: bigint, to: bigint) => Promise<void>,
): Promise<void> {
  for (let from = 1n; from <= maxSeq; from += chunkSize) {
    try {
      await work(from, from + chunkSize);
    } catch (error) {
      if (!(error instanceof NothingToPostError)) throw error;
    }
  }
}

function toRun(row: RunRow): SettlementRun {
  return {
    day: row.day,
    status: row.status,
    startedAt: new Date(row.started_at).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
    ordersAccrued: row.orders_accrued,
    interestTotal: money.formatMoney(money.parseMoney(row.interest_total)),
    ordersExpired: row.orders_expired,
    ordersRenewed: row.orders_renewed,
    machinesMined: row.machines_mined,
    outputTotal: money.formatMoney(money.parseMoney(row.output_total)),
    dividendShares: row.dividend_shares,
    dividendTotal: money.formatMoney(money.parseMoney(row.dividend_total)),
    error: row.error,
  };
}

/**
 * The daily settlement (docs/decisions/011-hosting-and-settlement.md): for each platform day, in
 * set-based chunks of orders, pays the day's custody interest and then expires or renews the orders
 * that end that day. Every chunk is one transaction that first claims its ledger entry's
 * idempotency key, so a chunk posts once however often or wherever the day is run.
 */
export class SettlementService {
  private readonly steps: SettlementStep[];
  readonly chunkSize: bigint;

  constructor(
    private readonly db: Db,
    private readonly repository: HostingRepository,
    private readonly ledger: LedgerService,
    private readonly audit: AuditRepository,
    private readonly timeZone: string,
    private readonly clock: Clock,
    private readonly logger: FastifyBaseLogger,
    chunkSize: bigint = SETTLEMENT_CHUNK,
  ) {
    this.chunkSize = chunkSize;
    this.steps = [
      { name: 'custody-interest', run: (day) => this.custodyInterest(day) },
      { name: 'custody-expiry', run: (day) => this.custodyExpiry(day) },
    ];
  }

  /** Adds a step after the existing ones (the extension point for later earnings). */
  addStep(step: SettlementStep): void {
    this.steps.push(step);
  }

  /** The last platform day that has ended. */
  yesterday(): string {
    return addDays(localTime(this.clock.now(), this.timeZone).date, -1);
  }

  /**
   * Works through the orders in ranges of `seq`. A range's entry key names the range, and each order
   * is paid at most once by the database (one accrual or expiry row per order), so runs with other
   * chunk sizes, or at the same time, never pay twice; a range someone else paid first is skipped.
   */
  private async chunks(work: (from: bigint, to: bigint) => Promise<void>): Promise<void> {
    await forEachRange(await this.repository.maxSeq(), this.chunkSize, work);
  }

  private async custodyInterest(day: string): Promise<void> {
    await this.chunks(async (from, to) => {
      if (!(await this.repository.hasInterestDue(day, from, to))) return;
      await this.ledger.transaction((tx) =>
        this.ledger.postSettlement(
          tx,
          {
            idempotencyKey: `custody-interest:${day}:${from}-${to}`,
            kind: 'custody_interest',
            referenceType: 'settlement_day',
            referenceId: day,
          },
          (entryId) => this.repository.accrue(tx, day, from, to, entryId),
          (entryId) => this.repository.accrualSource(entryId),
          'USDT',
          [{ purpose: 'available', sign: 1, recordType: 'interest' }],
          { platformCode: 'interest', recordType: 'interest' },
        ),
      );
    });
  }

  private async custodyExpiry(day: string): Promise<void> {
    await this.chunks(async (from, to) => {
      if (!(await this.repository.hasEnding(day, from, to))) return;
      // Renewals move no money (the principal stays in custody); the rest comes back to cash.
      await this.db.transaction((tx) => this.repository.renewEnding(tx, day, from, to));
      if (!(await this.repository.hasEnding(day, from, to))) return;
      await this.ledger.transaction((tx) =>
        this.ledger.postSettlement(
          tx,
          {
            idempotencyKey: `custody-expiry:${day}:${from}-${to}`,
            kind: 'custody_expiry',
            referenceType: 'settlement_day',
            referenceId: day,
          },
          (entryId) => this.repository.expireEnding(tx, day, from, to, entryId),
          (entryId) => this.repository.expirySource(entryId),
          'USDT',
          [
            { purpose: 'custody', sign: -1, recordType: 'custody_redeem' },
            { purpose: 'available', sign: 1, recordType: 'custody_redeem' },
          ],
        ),
      );
    });
  }

  /**
   * Each account's custody (account_id, custody) at the end of platform `day`, for accounts holding at
   * least `threshold`: what every daily figure that depends on custody (the AI dividend, valid members)
   * reads, so a day pays the same whenever it is run (decision 021).
   */
  custodyAtDayEnd(day: string, threshold: string): SQL {
    return this.repository.custodyAtDayEnd(day, threshold);
  }

  /** The first day the settlement covers: see `HostingRepository.firstDay`; with nothing at all, yesterday. */
  async firstDay(db: Db | Tx = this.db): Promise<string> {
    return (await this.repository.firstDay(db)) ?? this.yesterday();
  }

  /**
   * Where `day` stands in the order days settle in (docs/decisions/017-settlement-days-in-order.md):
   * 'completed', or 'next' when it is the one day that may run now. Any other day is refused: one
   * that has not ended, one before the first day, or one whose previous day has not completed.
   */
  async placeOf(day: string): Promise<'completed' | 'next'> {
    if (day > this.yesterday()) throw AppError.conflict('settlement.day_not_over');
    const first = await this.firstDay();
    if (day < first) throw AppError.conflict('settlement.before_first_day', { day: first });
    const next = await this.repository.nextDay(first);
    if (day === next) return 'next';
    if (day < next) return 'completed';
    throw AppError.conflict('settlement.out_of_order', { day: next });
  }

  /**
   * Settles one day, strictly in order: only a day that has ended and whose previous day has completed
   * (or the first day). A completed day is left alone (null). Throws what failed, after recording it.
   */
  async settle(day: string, operatorId: string | null = null): Promise<SettlementRun | null> {
    // Completed is final (nothing sets a completed day back), so a day found next stays allowed to run.
    if ((await this.placeOf(day)) === 'completed') return null;
    const run = await this.repository.startRun(day, operatorId);
    if (!run) return null;
    const startedAt = Date.now();
    try {
      for (const step of this.steps) await step.run(day);
      const finished = toRun(await this.repository.finishRun(day));
      this.logger.info({ ...finished, durationMs: Date.now() - startedAt }, 'settlement: day completed');
      return finished;
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      this.logger.error({ day, err: error }, 'settlement: day failed');
      // Guarded: another instance may have completed the day meanwhile, or restarted it.
      if (!(await this.repository.failRun(day, run.attempt!, message))) {
        this.logger.warn({ day }, 'settlement: this attempt failed, but the day is completed or run by another attempt');
      }
      throw error;
    }
  }

  /**
   * Whether a dividend pool may be set for `day` in `tx`: not before the first day, and the day's run
   * not started or finished (a failed day runs every step again). Takes the day's lock until `tx`
   * ends, so the day's run cannot start between this answer and the pool's commit.
   */
  async acceptsPool(tx: Tx, day: string): Promise<boolean> {
    await this.repository.lockDay(tx, day);
    const status = await this.repository.runStatus(tx, day);
    if (status === 'running' || status === 'completed') return false;
    return day >= (await this.firstDay(tx));
  }

  /** The job: every ended day not yet completed from the first day on, oldest first (at most 60 per run). */
  async settleDue(): Promise<SettlementRun[]> {
    const yesterday = this.yesterday();
    const first = await this.firstDay();
    const runs: SettlementRun[] = [];
    for (let count = 0; count < 60; count += 1) {
      const day = await this.repository.nextDay(first);
      if (day > yesterday) break;
      const run = await this.settle(day);
      if (run) runs.push(run);
    }
    return runs;
  }

  async runs(): Promise<SettlementRun[]> {
    return (await this.repository.runs(60)).map(toRun);
  }

  /** The console's "run again" for a failed (or never run) past day: only the next day in order. */
  async rerun(operatorId: string, day: string, origin: RequestOrigin): Promise<SettlementRun> {
    // Refused before anything is recorded: a day out of order, not over, or settled already.
    if ((await this.placeOf(day)) === 'completed') throw AppError.conflict('settlement.already_completed');
    const record = (action: string, after: unknown) =>
      this.audit.record({
        operatorId,
        action,
        targetType: 'settlement_day',
        targetId: day,
        before: null,
        after,
        ip: origin.ip,
        requestId: origin.requestId,
      });
    // Recorded before it runs: a run that commits some chunks and then fails has moved money too.
    await record('settlement.rerun_started', { day });
    const run = await this.settle(day, operatorId).catch(async (error: unknown) => {
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      await record('settlement.rerun_failed', { error: message });
      if (error instanceof AppError) throw error;
      throw AppError.conflict('settlement.failed', { error: message });
    });
    // Another instance completed it between the check and the start.
    if (!run) throw AppError.conflict('settlement.already_completed');
    await record('settlement.rerun', run);
    return run;
  }
}
