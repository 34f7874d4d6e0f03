import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  VALID_CUSTODY_USDT,
  money,
  type HostingConfig,
  type HostingOrder,
  type HostingOrderStatus,
  type HostingPlan,
  type hostingCreateRequest,
  type hostingPlanInput,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { fingerprint } from '../../lib/fingerprint.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { Clock } from '../../lib/clock.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { SecurityService } from '../security/security.service.js';
import { localTime } from '../../lib/platform-time.js';
import type { HostingRepository, OrderRow, PlanRow } from './hosting.repository.js';
import { fourPlaces, withoutTrailingZeros } from '../../lib/decimal-text.js';

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

export function toPlan(row: PlanRow): HostingPlan {
  return {
    id: row.id,
    name: row.name,
    periodDays: row.period_days,
    dailyRate: withoutTrailingZeros(row.daily_rate),
    minAmount: fourPlaces(row.min_amount),
    maxAmount: fourPlaces(row.max_amount),
    earlyPenaltyRate: withoutTrailingZeros(row.early_penalty_rate),
    autoRenewAllowed: row.auto_renew_allowed,
    status: row.status,
  };
}

export function toOrder(row: OrderRow): HostingOrder {
  return {
    id: row.id,
    planId: row.plan_id,
    planName: row.plan_name,
    amount: fourPlaces(row.amount),
    periodDays: row.period_days,
    dailyRate: withoutTrailingZeros(row.daily_rate),
    earlyPenaltyRate: withoutTrailingZeros(row.early_penalty_rate),
    startDate: row.start_date,
    endDate: row.end_date,
    createdAt: new Date(row.created_at).toISOString(),
    daysAccrued: row.days_accrued,
    interestSoFar: fourPlaces(row.interest_total),
    status: row.status,
    autoRenew: row.auto_renew,
    renewedFromId: row.renewed_from_id,
    closedAt: iso(row.closed_at),
    returnedAmount: row.returned_amount === null ? null : fourPlaces(row.returned_amount),
    penalty: row.penalty === null ? null : fourPlaces(row.penalty),
  };
}

/**
 * Hosting (custody): a member moves USDT from cash into custody on a plan, earns interest for each
 * platform day of the period (paid by the daily settlement), and gets the principal back at the end
 * (or it renews), or early less the penalty (docs/decisions/011-hosting-and-settlement.md).
 */
export class HostingService {
  constructor(
    private readonly db: Db,
    private readonly repository: HostingRepository,
    private readonly ledger: LedgerService,
    private readonly security: SecurityService,
    private readonly audit: AuditRepository,
    private readonly timeZone: string,
    private readonly clock: Clock,
  ) {}

  private today(): string {
    return localTime(this.clock.now(), this.timeZone).date;
  }

  async config(context: MemberSessionContext): Promise<HostingConfig> {
    const accountId = context.account.id;
    const balances = await this.ledger.balancesOf([accountId]);
    const custody = balances.get(`${accountId}:USDT:custody`) ?? money.ZERO;
    return {
      plans: (await this.repository.plans(true)).map(toPlan),
      cashBalance: money.formatMoney(balances.get(`${accountId}:USDT:available`) ?? money.ZERO),
      custodyBalance: money.formatMoney(custody),
      validThreshold: VALID_CUSTODY_USDT,
      isValid: money.compare(custody, money.parseMoney(VALID_CUSTODY_USDT)) >= 0,
      timeZone: this.timeZone,
    };
  }

  async create(context: MemberSessionContext, request: z.infer<typeof hostingCreateRequest>): Promise<HostingOrder> {
    const accountId = context.account.id;
    const requestHash = fingerprint({ planId: request.planId, amount: request.amount, autoRenew: String(request.autoRenew) });
    const replay = (row: OrderRow) => {
      if (row.request_hash !== requestHash) throw AppError.conflict('ledger.idempotency_mismatch');
      return toOrder(row);
    };
    await this.security.verifyTradePassword(context.member, request.tradePassword, context.sessionId);
    const existing = await this.repository.findByClientKey(this.db, accountId, request.idempotencyKey);
    if (existing) return replay(existing);

    const plan = await this.repository.plan(this.db, request.planId);
    if (!plan) throw AppError.notFound();
    if (plan.status !== 'active') throw AppError.conflict('hosting.plan_retired');
    const amount = money.parseMoney(request.amount);
    if (
      money.compare(amount, money.parseMoney(plan.min_amount)) < 0 ||
      money.compare(amount, money.parseMoney(plan.max_amount)) > 0
    ) {
      throw AppError.conflict('hosting.amount_range', { min: fourPlaces(plan.min_amount), max: fourPlaces(plan.max_amount) });
    }
    if (request.autoRenew && !plan.auto_renew_allowed) throw AppError.conflict('hosting.auto_renew_not_allowed');

    const orderId = randomUUID();
    return this.db.transaction(async (tx) => {
      const posted = await this.ledger.post(tx, {
        idempotencyKey: `hosting:${accountId}:${request.idempotencyKey}`,
        kind: 'custody_deposit',
        referenceType: 'hosting_order',
        referenceId: orderId,
        postings: [
          {
            account: { ownerAccountId: accountId, asset: 'USDT', purpose: 'available' },
            amount: money.negate(amount),
            recordType: 'custody_deposit',
          },
          { account: { ownerAccountId: accountId, asset: 'USDT', purpose: 'custody' }, amount, recordType: 'custody_deposit' },
        ],
      });
      if (posted.duplicate) {
        const winner = await this.repository.findByClientKey(tx, accountId, request.idempotencyKey);
        if (!winner) throw new Error(`hosting entry ${posted.entryId} has no order`);
        return replay(winner);
      }
      const today = this.today();
      const row = await this.repository.insertOrder(tx, {
        id: orderId,
        memberId: context.member.id,
        accountId,
        plan,
        amount: money.formatMoney(amount),
        startDate: today,
        autoRenew: request.autoRenew,
        clientKey: request.idempotencyKey,
        requestHash,
      });
      await this.repository.addEvent(tx, orderId, 'created', money.formatMoney(amount), today);
      return toOrder(row);
    });
  }

  private async owned(context: MemberSessionContext, orderId: string): Promise<OrderRow> {
    const row = await this.repository.find(this.db, orderId);
    // Another member's order is simply not found.
    if (!row || row.account_id !== context.account.id) throw AppError.notFound();
    return row;
  }

  async orders(context: MemberSessionContext, status: HostingOrderStatus | undefined, page: number, pageSize: number) {
    const { rows, total } = await this.repository.listOrders(
      { accountId: context.account.id, status },
      pageSize,
      (page - 1) * pageSize,
    );
    return { items: rows.map(toOrder), total, page, pageSize };
  }

  /** Early redemption: the principal less the penalty (rounded up, as fees are) back to cash. */
  async redeem(context: MemberSessionContext, orderId: string, tradePassword: string): Promise<HostingOrder> {
    await this.owned(context, orderId);
    await this.security.verifyTradePassword(context.member, tradePassword, context.sessionId);
    await this.db.transaction(async (tx) => {
      const order = await this.repository.lock(tx, orderId);
      if (!order || order.status !== 'active') throw AppError.conflict('hosting.not_active');
      const today = this.today();
      // Its term is over and the settlement has not yet run for its last day: no early penalty, no
      // lost interest; the settlement returns it in full.
      if (order.end_date < today) throw AppError.conflict('hosting.maturing');
      const amount = money.parseMoney(order.amount);
      const penalty = money.multiply(amount, order.early_penalty_rate, 'up');
      const returned = money.subtract(amount, penalty);
      await this.ledger.post(tx, {
        idempotencyKey: `hosting-redeem:${orderId}`,
        kind: 'custody_redeem',
        referenceType: 'hosting_order',
        referenceId: orderId,
        postings: [
          {
            account: { ownerAccountId: order.account_id, asset: 'USDT', purpose: 'custody' },
            amount: money.negate(amount),
            recordType: 'custody_redeem',
          },
          ...(returned > 0n
            ? [
                {
                  account: { ownerAccountId: order.account_id, asset: 'USDT' as const, purpose: 'available' as const },
                  amount: returned,
                  recordType: 'custody_redeem' as const,
                },
              ]
            : []),
          ...(penalty > 0n
            ? [
                {
                  account: { platformCode: 'fees' as const, asset: 'USDT' as const },
                  amount: penalty,
                  recordType: 'custody_penalty' as const,
                },
              ]
            : []),
        ],
      });
      await this.repository.closeRedeemed(tx, orderId, money.formatMoney(returned), money.formatMoney(penalty), today);
      await this.repository.addEvent(tx, orderId, 'redeemed', money.formatMoney(returned), today);
    });
    return toOrder((await this.repository.find(this.db, orderId))!);
  }

  async setAutoRenew(context: MemberSessionContext, orderId: string, autoRenew: boolean): Promise<HostingOrder> {
    await this.owned(context, orderId);
    await this.db.transaction(async (tx) => {
      const order = await this.repository.lock(tx, orderId);
      if (!order || order.status !== 'active') throw AppError.conflict('hosting.not_active');
      // Its last day has ended: that day's settlement renews it or not as the day ended, since the
      // renewal is custody held at the end of that day (decision 021).
      if (order.end_date < this.today()) throw AppError.conflict('hosting.renewal_fixed');
      const plan = await this.repository.plan(tx, order.plan_id);
      if (autoRenew && !plan?.auto_renew_allowed) throw AppError.conflict('hosting.auto_renew_not_allowed');
      if (order.auto_renew === autoRenew) return;
      await this.repository.setAutoRenew(tx, orderId, autoRenew);
      await this.repository.addEvent(tx, orderId, autoRenew ? 'auto_renew_on' : 'auto_renew_off', null, this.today());
    });
    return toOrder((await this.repository.find(this.db, orderId))!);
  }

  async log(context: MemberSessionContext, orderId: string, page: number, pageSize: number) {
    await this.owned(context, orderId);
    const { rows, total } = await this.repository.log(orderId, pageSize, (page - 1) * pageSize);
    return {
      items: rows.map((row) => ({
        event: row.event as 'created',
        amount: row.amount === null ? null : fourPlaces(row.amount),
        day: row.day,
        at: new Date(row.at).toISOString(),
      })),
      total,
      page,
      pageSize,
    };
  }

  // ── Console ────────────────────────────────────────────────────────────────────────────────────

  async adminPlans() {
    return (await this.repository.plans(false)).map((row) => ({ ...toPlan(row), activeOrders: row.active_orders ?? 0 }));
  }

  private planRow(input: z.infer<typeof hostingPlanInput>): Omit<PlanRow, 'id' | 'status' | 'active_orders'> {
    return {
      name: input.name,
      period_days: input.periodDays,
      daily_rate: input.dailyRate,
      min_amount: input.minAmount,
      max_amount: input.maxAmount,
      early_penalty_rate: input.earlyPenaltyRate,
      auto_renew_allowed: input.autoRenewAllowed,
    };
  }

  private async recordAudit(
    operatorId: string,
    action: string,
    planId: string,
    before: unknown,
    after: unknown,
    origin: RequestOrigin,
    tx: Parameters<AuditRepository['record']>[1],
  ) {
    await this.audit.record(
      {
        operatorId,
        action,
        targetType: 'hosting_plan',
        targetId: planId,
        before,
        after,
        ip: origin.ip,
        requestId: origin.requestId,
      },
      tx,
    );
  }

  async createPlan(operatorId: string, input: z.infer<typeof hostingPlanInput>, origin: RequestOrigin): Promise<HostingPlan> {
    return this.db.transaction(async (tx) => {
      const row = await this.repository.insertPlan(tx, this.planRow(input));
      await this.recordAudit(operatorId, 'hosting.plan_created', row.id, null, input, origin, tx);
      return toPlan(row);
    });
  }

  /** New terms apply to new orders and renewals; running orders keep the terms they were made with. */
  async updatePlan(
    operatorId: string,
    id: string,
    input: z.infer<typeof hostingPlanInput>,
    origin: RequestOrigin,
  ): Promise<HostingPlan> {
    return this.db.transaction(async (tx) => {
      const before = await this.repository.plan(tx, id);
      if (!before) throw AppError.notFound();
      await this.repository.updatePlan(tx, id, this.planRow(input));
      await this.recordAudit(operatorId, 'hosting.plan_updated', id, toPlan(before), input, origin, tx);
      return toPlan((await this.repository.plan(tx, id))!);
    });
  }

  async setPlanStatus(operatorId: string, id: string, status: 'active' | 'retired', origin: RequestOrigin): Promise<HostingPlan> {
    return this.db.transaction(async (tx) => {
      const before = await this.repository.plan(tx, id);
      if (!before) throw AppError.notFound();
      await this.repository.setPlanStatus(tx, id, status);
      await this.recordAudit(
        operatorId,
        status === 'retired' ? 'hosting.plan_retired' : 'hosting.plan_reactivated',
        id,
        { status: before.status },
        { status },
        origin,
        tx,
      );
      return toPlan((await this.repository.plan(tx, id))!);
    });
  }

  async adminOrders(filter: { status?: HostingOrderStatus; query?: string }, page: number, pageSize: number) {
    const { rows, total } = await this.repository.listOrders(filter, pageSize, (page - 1) * pageSize);
    return {
      items: rows.map((row) => ({ ...toOrder(row), memberEmail: row.member_email ?? '', accountId: row.account_id })),
      total,
      page,
      pageSize,
    };
  }
}
