import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  machineDailyOutput,
  money,
  type MachineIndex,
  type MachineProduct,
  type MemberMachine,
  type machineBuyRequest,
  type machineProductInput,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { fingerprint } from '../../lib/fingerprint.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { Clock } from '../../lib/clock.js';
import { forEachRange, type SettlementStep } from '../hosting/settlement.service.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { SecurityService } from '../security/security.service.js';
import { localTime } from '../../lib/platform-time.js';
import type { MachineRow, MachinesRepository, ProductRow } from './machines.repository.js';
import { fourPlaces, withoutTrailingZeros } from '../../lib/decimal-text.js';

function toProduct(row: ProductRow): MachineProduct {
  return {
    id: row.id,
    name: row.name,
    hashrate: withoutTrailingZeros(row.hashrate),
    priceUsdt: fourPlaces(row.price_usdt),
    priceTickets: fourPlaces(row.price_tickets),
    dailyOutputPerT: withoutTrailingZeros(row.daily_output_per_t),
    lifetimeDays: row.lifetime_days,
    status: row.status,
  };
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * Mining machines: bought with USDT (to the treasury) or tickets (available → used); each produces
 * RAB every platform day after its start day for its lifetime, paid by the daily settlement from the
 * `rewards` platform account in set-based chunks (the same scheme as custody interest, decision 011).
 */
export class MachinesService {
  constructor(
    private readonly db: Db,
    private readonly repository: MachinesRepository,
    private readonly ledger: LedgerService,
    private readonly security: SecurityService,
    private readonly audit: AuditRepository,
    private readonly timeZone: string,
    private readonly clock: Clock,
  ) {}

  private today(): string {
    return localTime(this.clock.now(), this.timeZone).date;
  }

  private toMachine(row: MachineRow): MemberMachine {
    const today = this.today();
    return {
      id: row.id,
      productId: row.product_id,
      name: row.name,
      hashrate: withoutTrailingZeros(row.hashrate),
      dailyOutput: fourPlaces(row.daily_output),
      paidAsset: row.paid_asset,
      paidAmount: fourPlaces(row.paid_amount),
      startDate: row.start_date,
      endDate: row.end_date,
      daysLeft: row.status === 'running' ? Math.max(0, daysBetween(today, row.end_date)) : 0,
      daysMined: row.days_mined,
      outputSoFar: fourPlaces(row.output_total),
      status: row.status,
      createdAt: new Date(row.created_at).toISOString(),
    };
  }

  async list(): Promise<MachineProduct[]> {
    return (await this.repository.products(true)).map(toProduct);
  }

  async info(id: string): Promise<MachineProduct> {
    const row = await this.repository.product(this.db, id);
    if (!row) throw AppError.notFound();
    return toProduct(row);
  }

  async buy(context: MemberSessionContext, request: z.infer<typeof machineBuyRequest>): Promise<MemberMachine> {
    const accountId = context.account.id;
    const requestHash = fingerprint({ machineId: request.machineId, payWith: request.payWith });
    const replay = (row: MachineRow) => {
      if (row.request_hash !== requestHash) throw AppError.conflict('ledger.idempotency_mismatch');
      return this.toMachine(row);
    };
    await this.security.verifyTradePassword(context.member, request.tradePassword, context.sessionId);
    const existing = await this.repository.findByClientKey(this.db, accountId, request.idempotencyKey);
    if (existing) return replay(existing);
    const product = await this.repository.product(this.db, request.machineId);
    if (!product) throw AppError.notFound();
    if (product.status !== 'active') throw AppError.conflict('machine.retired');

    const machineId = randomUUID();
    const price = money.parseMoney(request.payWith === 'USDT' ? product.price_usdt : product.price_tickets);
    return this.db.transaction(async (tx) => {
      const posted = await this.ledger.post(tx, {
        idempotencyKey: `machine:${accountId}:${request.idempotencyKey}`,
        kind: 'machine_purchase',
        referenceType: 'member_machine',
        referenceId: machineId,
        postings:
          request.payWith === 'USDT'
            ? [
                {
                  account: { ownerAccountId: accountId, asset: 'USDT', purpose: 'available' },
                  amount: money.negate(price),
                  recordType: 'machine_purchase',
                },
                { account: { platformCode: 'treasury', asset: 'USDT' }, amount: price, recordType: 'machine_purchase' },
              ]
            : [
                // Tickets are spent, not sold: they move from available to used.
                {
                  account: { ownerAccountId: accountId, asset: 'TICKET', purpose: 'available' },
                  amount: money.negate(price),
                  recordType: 'machine_purchase',
                },
                {
                  account: { ownerAccountId: accountId, asset: 'TICKET', purpose: 'used' },
                  amount: price,
                  recordType: 'machine_purchase',
                },
              ],
      });
      if (posted.duplicate) {
        const winner = await this.repository.findByClientKey(tx, accountId, request.idempotencyKey);
        if (!winner) throw new Error(`machine entry ${posted.entryId} has no machine`);
        return replay(winner);
      }
      const row = await this.repository.insertMachine(tx, {
        id: machineId,
        memberId: context.member.id,
        accountId,
        product,
        dailyOutput: money.formatMoney(
          machineDailyOutput({ hashrate: product.hashrate, dailyOutputPerT: product.daily_output_per_t }),
        ),
        paidAsset: request.payWith,
        paidAmount: money.formatMoney(price),
        startDate: this.today(),
        clientKey: request.idempotencyKey,
        requestHash,
      });
      return this.toMachine(row);
    });
  }

  async index(
    context: MemberSessionContext,
    status: 'running' | 'expired' | undefined,
    page: number,
    pageSize: number,
  ): Promise<MachineIndex> {
    const accountId = context.account.id;
    const [summary, machines, balances] = await Promise.all([
      this.repository.summary(accountId),
      this.repository.listMachines({ accountId, status }, pageSize, (page - 1) * pageSize),
      this.ledger.balancesOf([accountId]),
    ]);
    return {
      totalHashrate: withoutTrailingZeros(summary.total_hashrate),
      running: summary.running,
      outputSoFar: fourPlaces(summary.output_total),
      lastDayOutput: fourPlaces(summary.last_day_output),
      ticketsAvailable: money.formatMoney(balances.get(`${accountId}:TICKET:available`) ?? money.ZERO),
      ticketsUsed: money.formatMoney(balances.get(`${accountId}:TICKET:used`) ?? money.ZERO),
      machines: { items: machines.rows.map((row) => this.toMachine(row)), total: machines.total, page, pageSize },
    };
  }

  async records(context: MemberSessionContext, machineId: string | undefined, page: number, pageSize: number) {
    const { rows, total } = await this.repository.records(context.account.id, machineId, pageSize, (page - 1) * pageSize);
    return {
      items: rows.map((row) => ({
        machineId: row.machine_id,
        name: row.name,
        hashrate: withoutTrailingZeros(row.hashrate),
        day: row.day,
        amount: fourPlaces(row.amount),
      })),
      total,
      page,
      pageSize,
    };
  }

  /** The settlement step: a day's output for every running machine, then machines past their end stop. */
  settlementStep(chunkSize: () => bigint): SettlementStep {
    return {
      name: 'machine-output',
      run: async (day) => {
        await forEachRange(await this.repository.maxSeq(), chunkSize(), async (from, to) => {
          if (!(await this.repository.hasOutputDue(day, from, to))) return;
          await this.ledger.transaction((tx) =>
            this.ledger.postSettlement(
              tx,
              {
                idempotencyKey: `machine-output:${day}:${from}-${to}`,
                kind: 'mining_output',
                referenceType: 'settlement_day',
                referenceId: day,
              },
              (entryId) => this.repository.recordOutput(tx, day, from, to, entryId),
              (entryId) => this.repository.outputSource(entryId),
              'RAB',
              [{ purpose: 'available', sign: 1, recordType: 'mining_output' }],
              { platformCode: 'rewards', recordType: 'mining_output' },
            ),
          );
        });
        await this.repository.expireEnded(day);
      },
    };
  }

  // ── Console ────────────────────────────────────────────────────────────────────────────────────

  async adminProducts() {
    return (await this.repository.products(false)).map((row) => ({ ...toProduct(row), running: row.running ?? 0 }));
  }

  private productRow(input: z.infer<typeof machineProductInput>): Omit<ProductRow, 'id' | 'status' | 'running'> {
    return {
      name: input.name,
      hashrate: input.hashrate,
      price_usdt: input.priceUsdt,
      price_tickets: input.priceTickets,
      daily_output_per_t: input.dailyOutputPerT,
      lifetime_days: input.lifetimeDays,
    };
  }

  private recordAudit(
    operatorId: string,
    action: string,
    id: string,
    before: unknown,
    after: unknown,
    origin: RequestOrigin,
    tx: Parameters<AuditRepository['record']>[1],
  ) {
    return this.audit.record(
      {
        operatorId,
        action,
        targetType: 'machine_product',
        targetId: id,
        before,
        after,
        ip: origin.ip,
        requestId: origin.requestId,
      },
      tx,
    );
  }

  createProduct(operatorId: string, input: z.infer<typeof machineProductInput>, origin: RequestOrigin): Promise<MachineProduct> {
    return this.db.transaction(async (tx) => {
      const row = await this.repository.insertProduct(tx, this.productRow(input));
      await this.recordAudit(operatorId, 'machines.product_created', row.id, null, input, origin, tx);
      return toProduct(row);
    });
  }

  /** New terms apply to machines bought from now on; bought ones keep theirs. */
  updateProduct(
    operatorId: string,
    id: string,
    input: z.infer<typeof machineProductInput>,
    origin: RequestOrigin,
  ): Promise<MachineProduct> {
    return this.db.transaction(async (tx) => {
      const before = await this.repository.product(tx, id);
      if (!before) throw AppError.notFound();
      await this.repository.updateProduct(tx, id, this.productRow(input));
      await this.recordAudit(operatorId, 'machines.product_updated', id, toProduct(before), input, origin, tx);
      return toProduct((await this.repository.product(tx, id))!);
    });
  }

  setProductStatus(operatorId: string, id: string, status: 'active' | 'retired', origin: RequestOrigin): Promise<MachineProduct> {
    return this.db.transaction(async (tx) => {
      const before = await this.repository.product(tx, id);
      if (!before) throw AppError.notFound();
      await this.repository.setProductStatus(tx, id, status);
      await this.recordAudit(
        operatorId,
        status === 'retired' ? 'machines.product_retired' : 'machines.product_reactivated',
        id,
        { status: before.status },
        { status },
        origin,
        tx,
      );
      return toProduct((await this.repository.product(tx, id))!);
    });
  }

  async adminMachines(filter: { status?: 'running' | 'expired'; query?: string }, page: number, pageSize: number) {
    const { rows, total } = await this.repository.listMachines(filter, pageSize, (page - 1) * pageSize);
    return {
      items: rows.map((row) => ({ ...this.toMachine(row), memberEmail: row.member_email ?? '', accountId: row.account_id })),
      total,
      page,
      pageSize,
    };
  }
}
