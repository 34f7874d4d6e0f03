import type { z } from 'zod';
import type {
  ContractProductSettings,
  ContractSettings,
  ContractTickSource,
  ContractOrderState,
  contractCloseRequest,
  contractOpenRequest,
  contractSetTargetsRequest,
} from '@custos/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { ContractsConsoleService } from './console.service.js';
import type { ContractsRepository } from './contracts.repository.js';
import type { IncomingTick, OperatorActor } from './model.js';
import { ContractsCloser } from './order-close.js';
import { ContractsPricing } from './pricing.js';
import { ContractsProductsService } from './products.service.js';
import { ORDER_HOLD } from './settlement.js';
import { ContractsStopOutService } from './stop-out.service.js';
import { ContractsSwapService } from './swap.service.js';
import { ContractsTradingService } from './trading.service.js';
import { ContractsWatcherService } from './watcher.service.js';

export { ORDER_HOLD };
export { conversionFor, type IncomingTick, type OperatorActor } from './model.js';

/**
 * Contract (settlement) orders (issue 15, docs/decisions/034-contracts.md), wired from one unit per
 * responsibility: `catalog` (what members trade and its quotes), `trading` (a member's opens,
 * closes, targets and lists), `watcher` (ticks, take-profit and stop-loss, and their settlement),
 * `stopOut` (margin levels and the stop-out), `swap` (the nightly jobs) and `admin` (the operator
 * console). The units share the read side (`ContractsPricing`) and the close that moves money
 * (`ContractsCloser`) and never import one another back. The methods below keep the module's one
 * entry point for the container, the jobs, the watcher thread and the replay.
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
    repository: ContractsRepository,
    ledger: LedgerService,
    settings: SettingsService,
    audit: AuditRepository,
    memberEvents: MemberEventPublisher,
    options: { timeZone: string; clock: Clock; logger: FastifyBaseLogger },
  ) {
    const pricing = new ContractsPricing(repository, options.clock);
    const closer = new ContractsCloser(repository, ledger, memberEvents, pricing, options.timeZone);
    this.stopOut = new ContractsStopOutService(db, repository, settings, pricing, closer, options.logger);
    this.watcher = new ContractsWatcherService(
      db,
      repository,
      ledger,
      settings,
      memberEvents,
      pricing,
      closer,
      this.stopOut,
      options.logger,
    );
    const watcher = this.watcher;
    this.catalog = new ContractsProductsService(db, repository, settings, pricing);
    this.trading = new ContractsTradingService(
      db,
      repository,
      ledger,
      settings,
      pricing,
      closer,
      (productIds) => watcher.walkSoon(productIds),
      options.timeZone,
    );
    this.swap = new ContractsSwapService(db, repository, pricing);
    this.admin = new ContractsConsoleService(db, repository, settings, audit, pricing, closer, this.stopOut);
  }

  // ── The watcher: ticks, take-profit and stop-loss, settlement ──

  contractProductIds() {
    return this.watcher.contractProductIds();
  }
  ingestTicks(ticks: readonly IncomingTick[], source: ContractTickSource) {
    return this.watcher.ingestTicks(ticks, source);
  }
  ingestFeed(quotes: Parameters<ContractsWatcherService['ingestFeed']>[0]) {
    return this.watcher.ingestFeed(quotes);
  }
  manualQuote(tx: Tx, productId: string, quote: { bid: string; ask: string }) {
    return this.watcher.manualQuote(tx, productId, quote);
  }
  walkManualTick(productId: string): void {
    this.watcher.walkManualTick(productId);
  }
  useWalker(walker: ((productIds: string[]) => void) | null): void {
    this.watcher.useWalker(walker);
  }
  kick(productId: string): void {
    this.watcher.kick(productId);
  }
  idle(): Promise<void> {
    return this.watcher.idle();
  }
  stop(): Promise<void> {
    return this.watcher.stop();
  }
  watchAll(): Promise<void> {
    return this.watcher.watchAll();
  }
  watchProduct(productId: string): Promise<number> {
    return this.watcher.watchProduct(productId);
  }
  walkProducts(productIds: readonly string[]): Promise<number> {
    return this.watcher.walkProducts(productIds);
  }
  settlePending(): Promise<number> {
    return this.watcher.settlePending();
  }

  // ── Stop-out ──

  requestStopOut(): void {
    this.stopOut.request();
  }
  stopOutSweep(): Promise<number> {
    return this.stopOut.stopOutSweep();
  }
  stopOutAccount(accountId: string, settings: ContractSettings): Promise<number> {
    return this.stopOut.stopOutAccount(accountId, settings);
  }

  // ── Jobs ──

  chargeSwap(): Promise<number> {
    return this.swap.chargeSwap();
  }
  purgeTicks(): Promise<number> {
    return this.swap.purgeTicks();
  }

  // ── Members ──

  products() {
    return this.catalog.products();
  }
  latestQuotes() {
    return this.catalog.latestQuotes();
  }
  pendingList(context: MemberSessionContext) {
    return this.trading.pendingList(context);
  }
  pendingInfo(context: MemberSessionContext) {
    return this.trading.pendingInfo(context);
  }
  closedList(context: MemberSessionContext, productId: string | undefined, page: number, pageSize: number) {
    return this.trading.closedList(context, productId, page, pageSize);
  }
  orderInfo(context: MemberSessionContext, id: string) {
    return this.trading.orderInfo(context, id);
  }
  open(context: MemberSessionContext, body: z.output<typeof contractOpenRequest>) {
    return this.trading.open(context, body);
  }
  close(context: MemberSessionContext, body: z.output<typeof contractCloseRequest>) {
    return this.trading.close(context, body);
  }
  setTargets(context: MemberSessionContext, body: z.output<typeof contractSetTargetsRequest>) {
    return this.trading.setTargets(context, body);
  }

  // ── Console ──

  adminSettings() {
    return this.admin.adminSettings();
  }
  updateSettings(actor: OperatorActor, next: ContractSettings) {
    return this.admin.updateSettings(actor, next);
  }
  adminProducts() {
    return this.admin.adminProducts();
  }
  updateProduct(actor: OperatorActor, productId: string, input: ContractProductSettings) {
    return this.admin.updateProduct(actor, productId, input);
  }
  book() {
    return this.admin.book();
  }
  adminOrders(filter: { state?: ContractOrderState; productId?: string; query?: string }, page: number, pageSize: number) {
    return this.admin.adminOrders(filter, page, pageSize);
  }
  adminOrder(id: string) {
    return this.admin.adminOrder(id);
  }
  adminClose(actor: OperatorActor, id: string, reason: string) {
    return this.admin.adminClose(actor, id, reason);
  }
  marginProblems() {
    return this.admin.marginProblems();
  }
}
