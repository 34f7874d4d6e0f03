// The OTC module's one entry (decision 031): the container builds it; the routes, the jobs and the
// tests call the part they need (`otc.orders.buy(…)`, `otc.timers.runTimers()`). It only wires them.
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
  readonly listings: OtcListingsService;
  readonly orders: OtcOrdersService;
  readonly chat: OtcChatService;
  readonly timers: OtcTimersService;
  readonly rulings: OtcRulingsService;
  readonly console: OtcConsoleService;
  readonly views: OtcViews;

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
}
