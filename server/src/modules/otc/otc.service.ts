// The OTC module's one entry (decision 031): the container builds it, the routes, the jobs and the
// tests call it. It only wires the parts, each of one responsibility, and hands every call to its part.
import type { Db } from '../../db/client.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { OperatorEventsService } from '../notifications/operator-events.service.js';
import type { RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { SecurityService } from '../security/security.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { SupportChatService } from '../support-chat/support-chat.service.js';
import type { OtcArbitrationRepository } from './otc-arbitration.repository.js';
import type { OtcRepository } from './otc.repository.js';
import type { OtcDeps, OtcServiceOptions } from './otc.shared.js';
import { OtcEscrow } from './otc.escrow.js';
import { OtcViews } from './otc.views.js';
import { OtcListingsService } from './otc-listings.service.js';
import { OtcOrdersService } from './otc-orders.service.js';
import { OtcChatService } from './otc-chat.service.js';
import { OtcTimersService } from './otc-timers.service.js';
import { OtcRulingsService } from './otc-rulings.service.js';
import { OtcConsoleService } from './otc-console.service.js';

export { OTC_CHAT_PER_MINUTE, platformDay, type OperatorActor, type OtcServiceOptions } from './otc.shared.js';

/**
 * OTC trading (issue 14, docs/decisions/031-otc.md): listings, takes, the order flow, order chat,
 * appeals, operator rulings and the timers. Escrow only moves through the ledger's holds; each state
 * change is one transaction that first holds the listing row (takes, cancellations, releases and
 * rulings of one listing go one at a time) and then changes the order only if it is still in the
 * state the action expects, so of two racing actions exactly one wins.
 */
export class OtcService {
  private readonly listings: OtcListingsService;
  private readonly orders: OtcOrdersService;
  private readonly chat: OtcChatService;
  private readonly timers: OtcTimersService;
  private readonly rulings: OtcRulingsService;
  private readonly console: OtcConsoleService;
  private readonly views: OtcViews;

  constructor(
    db: Db,
    repository: OtcRepository,
    arbitration: OtcArbitrationRepository,
    ledger: LedgerService,
    security: SecurityService,
    settings: SettingsService,
    audit: AuditRepository,
    memberEvents: MemberEventPublisher,
    operatorEvents: OperatorEventsService,
    chat: SupportChatService,
    rateLimits: RateLimitService,
    options: OtcServiceOptions,
  ) {
    const deps: OtcDeps = {
      db,
      repository,
      arbitration,
      ledger,
      security,
      settings,
      audit,
      memberEvents,
      operatorEvents,
      chat,
      rateLimits,
      options,
    };
    const escrow = new OtcEscrow(deps);
    const views = new OtcViews(deps);
    this.views = views;
    this.listings = new OtcListingsService(deps, escrow, views);
    this.orders = new OtcOrdersService(deps, escrow, views);
    this.chat = new OtcChatService(deps, views);
    this.timers = new OtcTimersService(deps, escrow);
    this.rulings = new OtcRulingsService(deps, escrow, views);
    this.console = new OtcConsoleService(deps, escrow, views);
  }

  info(...args: Parameters<OtcListingsService['info']>) {
    return this.listings.info(...args);
  }
  market(...args: Parameters<OtcListingsService['market']>) {
    return this.listings.market(...args);
  }
  listingInfo(...args: Parameters<OtcListingsService['listingInfo']>) {
    return this.listings.listingInfo(...args);
  }
  myListings(...args: Parameters<OtcListingsService['myListings']>) {
    return this.listings.myListings(...args);
  }
  post(...args: Parameters<OtcListingsService['post']>) {
    return this.listings.post(...args);
  }
  revoke(...args: Parameters<OtcListingsService['revoke']>) {
    return this.listings.revoke(...args);
  }

  buy(...args: Parameters<OtcOrdersService['buy']>) {
    return this.orders.buy(...args);
  }
  sell(...args: Parameters<OtcOrdersService['sell']>) {
    return this.orders.sell(...args);
  }
  confirmPay(...args: Parameters<OtcOrdersService['confirmPay']>) {
    return this.orders.confirmPay(...args);
  }
  buyerCancel(...args: Parameters<OtcOrdersService['buyerCancel']>) {
    return this.orders.buyerCancel(...args);
  }
  sellerCancel(...args: Parameters<OtcOrdersService['sellerCancel']>) {
    return this.orders.sellerCancel(...args);
  }
  release(...args: Parameters<OtcOrdersService['release']>) {
    return this.orders.release(...args);
  }
  appeal(...args: Parameters<OtcOrdersService['appeal']>) {
    return this.orders.appeal(...args);
  }
  myOrders(...args: Parameters<OtcOrdersService['myOrders']>) {
    return this.orders.myOrders(...args);
  }
  pendingList(...args: Parameters<OtcOrdersService['pendingList']>) {
    return this.orders.pendingList(...args);
  }
  pendingInfo(...args: Parameters<OtcOrdersService['pendingInfo']>) {
    return this.orders.pendingInfo(...args);
  }
  orderInfo(...args: Parameters<OtcOrdersService['orderInfo']>) {
    return this.orders.orderInfo(...args);
  }

  chatHistory(...args: Parameters<OtcChatService['chatHistory']>) {
    return this.chat.chatHistory(...args);
  }
  chatSend(...args: Parameters<OtcChatService['chatSend']>) {
    return this.chat.chatSend(...args);
  }
  chatRead(...args: Parameters<OtcChatService['chatRead']>) {
    return this.chat.chatRead(...args);
  }
  chatImage(...args: Parameters<OtcChatService['chatImage']>) {
    return this.chat.chatImage(...args);
  }
  evidenceImage(...args: Parameters<OtcChatService['evidenceImage']>) {
    return this.chat.evidenceImage(...args);
  }

  runTimers(...args: Parameters<OtcTimersService['runTimers']>) {
    return this.timers.runTimers(...args);
  }
  expire(...args: Parameters<OtcTimersService['expire']>) {
    return this.timers.expire(...args);
  }
  markOverdue(...args: Parameters<OtcTimersService['markOverdue']>) {
    return this.timers.markOverdue(...args);
  }

  adminChatSend(...args: Parameters<OtcRulingsService['adminChatSend']>) {
    return this.rulings.adminChatSend(...args);
  }
  rule(...args: Parameters<OtcRulingsService['rule']>) {
    return this.rulings.rule(...args);
  }
  appealQueue(...args: Parameters<OtcRulingsService['appealQueue']>) {
    return this.rulings.appealQueue(...args);
  }
  suspensions(...args: Parameters<OtcRulingsService['suspensions']>) {
    return this.rulings.suspensions(...args);
  }
  liftSuspension(...args: Parameters<OtcRulingsService['liftSuspension']>) {
    return this.rulings.liftSuspension(...args);
  }

  getSettings(...args: Parameters<OtcConsoleService['getSettings']>) {
    return this.console.getSettings(...args);
  }
  updateSettings(...args: Parameters<OtcConsoleService['updateSettings']>) {
    return this.console.updateSettings(...args);
  }
  adminListings(...args: Parameters<OtcConsoleService['adminListings']>) {
    return this.console.adminListings(...args);
  }
  adminRevoke(...args: Parameters<OtcConsoleService['adminRevoke']>) {
    return this.console.adminRevoke(...args);
  }
  adminOrders(...args: Parameters<OtcConsoleService['adminOrders']>) {
    return this.console.adminOrders(...args);
  }
  adminChat(...args: Parameters<OtcConsoleService['adminChat']>) {
    return this.console.adminChat(...args);
  }
  adminChatImage(...args: Parameters<OtcConsoleService['adminChatImage']>) {
    return this.console.adminChatImage(...args);
  }
  adminEvidence(...args: Parameters<OtcConsoleService['adminEvidence']>) {
    return this.console.adminEvidence(...args);
  }
  escrowProblems(...args: Parameters<OtcConsoleService['escrowProblems']>) {
    return this.console.escrowProblems(...args);
  }

  adminOrder(...args: Parameters<OtcViews['adminOrder']>) {
    return this.views.adminOrder(...args);
  }
}
