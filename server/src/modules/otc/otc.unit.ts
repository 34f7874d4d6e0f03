import { BusinessCode, type OtcOrderStep, type OtcRole, type OtcSettings } from '@custos/contract';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { OperatorEventsService } from '../notifications/operator-events.service.js';
import type { RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { SecurityService } from '../security/security.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { coolingOffParams, coolingOffUntil } from '../withdraw/cooling-off.js';
import type { SupportChatService } from '../support-chat/support-chat.service.js';
import type { OrderRow } from './otc.rows.js';
import { platformDay, roleOf, type OtcServiceOptions, type OperatorActor, type OtcDeps } from './otc.shared.js';
import type { OtcArbitrationRepository } from './otc-arbitration.repository.js';
import type { OtcRepository } from './otc.repository.js';

/**
 * What every part of the OTC module shares: its wiring, the clock, the member's eligibility checks,
 * the order lookup of a party, the order's announcement and the operator's audit record.
 */
export abstract class OtcUnit {
  protected readonly db: Db;
  protected readonly repository: OtcRepository;
  protected readonly arbitration: OtcArbitrationRepository;
  protected readonly ledger: LedgerService;
  protected readonly security: SecurityService;
  protected readonly settings: SettingsService;
  protected readonly audit: AuditRepository;
  protected readonly memberEvents: MemberEventPublisher;
  protected readonly operatorEvents: OperatorEventsService;
  protected readonly chat: SupportChatService;
  protected readonly rateLimits: RateLimitService;
  protected readonly options: OtcServiceOptions;

  constructor(deps: OtcDeps) {
    this.db = deps.db;
    this.repository = deps.repository;
    this.arbitration = deps.arbitration;
    this.ledger = deps.ledger;
    this.security = deps.security;
    this.settings = deps.settings;
    this.audit = deps.audit;
    this.memberEvents = deps.memberEvents;
    this.operatorEvents = deps.operatorEvents;
    this.chat = deps.chat;
    this.rateLimits = deps.rateLimits;
    this.options = deps.options;
  }

  protected now(): Date {
    return this.options.clock.now();
  }

  protected today(now = this.now()): string {
    return platformDay(now, this.options.timeZone);
  }

  // ── Eligibility ──────────────────────────────────────────────────────────────────────────────

  /** Trading is open, the member is real-name approved and not suspended. */
  protected async requireTrader(context: MemberSessionContext): Promise<OtcSettings> {
    const settings = await this.settings.get('otc');
    if (!settings.enabled) throw AppError.conflict('otc.disabled');
    if (!(await this.repository.realNameApproved(context.member.id))) throw AppError.forbidden('otc.real_name_required');
    const until = await this.arbitration.suspendedUntil(context.member.id, this.now());
    if (until) throw new AppError(BusinessCode.FORBIDDEN, 'otc.suspended', { until: until.toISOString() });
    return settings;
  }

  /**
   * The pause after a security reset (decisions 016, 051) covers every OTC step that commits the
   * member's USDT to leave the account: selling into a buy listing, posting a listing (a sell
   * listing's escrow, any listing's deposit) and releasing. Buying USDT stays open.
   */
  protected async requireNotCoolingOff(context: MemberSessionContext): Promise<void> {
    const { securityCoolingOffHours } = await this.settings.get('withdraw');
    const until = coolingOffUntil(context.member.securityResetAt, securityCoolingOffHours, this.now());
    if (until)
      throw AppError.conflict('otc.cooling_off', coolingOffParams(until, securityCoolingOffHours, this.options.timeZone));
  }

  protected async requireNotBarred(context: MemberSessionContext, settings: OtcSettings, tx: Db | Tx = this.db): Promise<void> {
    const cancels = await this.repository.takerCancels(tx, context.member.id, this.today());
    if (cancels >= settings.takerDailyCancelLimit)
      throw new AppError(BusinessCode.FORBIDDEN, 'otc.taking_barred', { limit: settings.takerDailyCancelLimit });
  }

  /** An order of the member's, with their role in it; another member's is simply not found. */
  protected async partyOrder(context: MemberSessionContext, orderId: string): Promise<{ order: OrderRow; role: OtcRole }> {
    const order = await this.repository.findOrder(orderId);
    const role = order ? roleOf(order, context.member.id) : null;
    if (!order || !role) throw AppError.notFound();
    return { order, role };
  }

  /** Why an action found the order in another state than it needs. */
  protected stateError(order: OrderRow): AppError {
    if (order.state === 'appeal') return AppError.conflict('otc.frozen');
    return AppError.conflict('otc.wrong_state');
  }

  /** Tells both parties (and the console) that an order took a step. */
  protected async announce(tx: Tx, order: OrderRow, step: OtcOrderStep): Promise<void> {
    const data = { kind: 'otc.order' as const, orderId: order.id, orderNo: order.order_no, state: order.state, step };
    await this.memberEvents.publish(tx, order.buyer_member_id, data);
    await this.memberEvents.publish(tx, order.seller_member_id, data);
    await this.operatorEvents.publishOtc(tx, { kind: 'otc.order', orderId: order.id, state: order.state, step });
  }

  protected async recordAudit(
    tx: Tx,
    actor: OperatorActor,
    action: string,
    targetType: string,
    targetId: string,
    before: unknown,
    after: unknown,
  ): Promise<void> {
    await this.audit.record(
      {
        operatorId: actor.operatorId,
        action,
        targetType,
        targetId,
        before,
        after,
        ip: actor.origin.ip,
        requestId: actor.origin.requestId,
      },
      tx,
    );
  }
}
