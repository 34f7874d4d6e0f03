import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { ContractsConsoleService } from './console.service.js';
import { ContractsCloser } from './order-close.js';
import { ContractOrdersRepository } from './orders.repository.js';
import { ContractsPricing } from './pricing.js';
import { ContractProductsRepository } from './products.repository.js';
import { ContractsProductsService } from './products.service.js';
import { ContractsStopOutService } from './stop-out.service.js';
import { ContractsSwapService } from './swap.service.js';
import { ContractTicksRepository } from './ticks.repository.js';
import { ContractsTradingService } from './trading.service.js';
import { ContractsWatcherService } from './watcher.service.js';

/** Contracts' SQL, one repository per table family: products and settings, ticks and walks, orders. */
export interface ContractsRepositories {
  products: ContractProductsRepository;
  ticks: ContractTicksRepository;
  orders: ContractOrdersRepository;
}

export function contractsRepositories(db: Db): ContractsRepositories {
  return {
    products: new ContractProductsRepository(db),
    ticks: new ContractTicksRepository(db),
    orders: new ContractOrdersRepository(db),
  };
}

/**
 * Contract (settlement) orders (issue 15, docs/decisions/034-contracts.md), wired from one unit per
 * responsibility: `catalog` (what members trade and its quotes), `trading` (a member's opens,
 * closes, targets and lists), `watcher` (ticks, take-profit and stop-loss, and their settlement),
 * `stopOut` (margin levels and the stop-out), `swap` (the nightly jobs) and `admin` (the operator
 * console). The units share the read side (`ContractsPricing`) and the close that moves money
 * (`ContractsCloser`) and never import one another back. Callers reach the unit they need
 * (`contracts.watcher.idle()`, `contracts.trading.open(…)`); this class only builds them.
 */
export class ContractsService {
  readonly catalog: ContractsProductsService;
  readonly trading: ContractsTradingService;
  readonly watcher: ContractsWatcherService;
  readonly stopOut: ContractsStopOutService;
  readonly swap: ContractsSwapService;
  readonly admin: ContractsConsoleService;

  constructor(
    db: Db,
    { products, ticks, orders }: ContractsRepositories,
    ledger: LedgerService,
    settings: SettingsService,
    audit: AuditRepository,
    memberEvents: MemberEventPublisher,
    options: { timeZone: string; clock: Clock; logger: FastifyBaseLogger },
  ) {
    const pricing = new ContractsPricing(products, options.clock);
    const closer = new ContractsCloser(orders, ledger, memberEvents, pricing, options.timeZone);
    this.stopOut = new ContractsStopOutService(db, orders, settings, pricing, closer, options.logger);
    this.watcher = new ContractsWatcherService(
      db,
      products,
      ticks,
      orders,
      ledger,
      settings,
      memberEvents,
      pricing,
      closer,
      this.stopOut,
      options.logger,
    );
    const watcher = this.watcher;
    this.catalog = new ContractsProductsService(db, products, settings, pricing);
    this.trading = new ContractsTradingService(
      db,
      orders,
      ledger,
      settings,
      pricing,
      closer,
      (productIds) => watcher.walkSoon(productIds),
      options.timeZone,
    );
    this.swap = new ContractsSwapService(db, products, ticks, orders, pricing);
    this.admin = new ContractsConsoleService(db, products, orders, settings, audit, pricing, closer, this.stopOut);
  }
}
