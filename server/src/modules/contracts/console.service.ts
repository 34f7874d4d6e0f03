import {
  compareDecimal,
  contractLotsProblem,
  contractMarketOpen,
  contractSum,
  type AdminContractBook,
  type AdminContractOrder,
  type AdminContractProduct,
  type ContractExposure,
  type ContractMemberAtRisk,
  type ContractOrderState,
  type ContractProductSettings,
  type ContractSettings,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ContractProductsRepository } from './products.repository.js';
import type { ContractOrdersRepository, OrderRow } from './orders.repository.js';
import { lots2, money4, orderView, productOf, settingsOf, type LiveLookup, type OperatorActor } from './model.js';
import type { ContractsCloser } from './order-close.js';
import type { ContractsPricing } from './pricing.js';
import type { ContractsStopOutService } from './stop-out.service.js';

/**
 * The operator console's contracts (decision 034): the settings and products (audited), the book
 * (exposure per product, members at risk, the book's balance), every member's orders, and an
 * operator's close of an order at market with a reason (audited).
 */
export class ContractsConsoleService {
  constructor(
    private readonly db: Db,
    private readonly products: ContractProductsRepository,
    private readonly orders: ContractOrdersRepository,
    private readonly settings: SettingsService,
    private readonly audit: AuditRepository,
    private readonly pricing: ContractsPricing,
    private readonly closer: ContractsCloser,
    private readonly stopOut: ContractsStopOutService,
  ) {}

  async adminSettings(): Promise<ContractSettings> {
    return this.settings.get('contracts');
  }

  async updateSettings(actor: OperatorActor, next: ContractSettings): Promise<ContractSettings> {
    const before = await this.settings.get('contracts');
    await this.db.transaction(async (tx) => {
      await this.settings.set('contracts', next, actor.operatorId, tx);
      await this.audit.record(
        {
          operatorId: actor.operatorId,
          action: 'contracts.settings_updated',
          targetType: 'setting',
          targetId: 'contracts',
          before,
          after: next,
          ip: actor.origin.ip,
          requestId: actor.origin.requestId,
        },
        tx,
      );
    });
    this.stopOut.request();
    return this.settings.get('contracts');
  }

  async adminProducts(): Promise<{ items: AdminContractProduct[] }> {
    const settings = await this.settings.get('contracts');
    const rows = await this.products.allProducts(this.db, this.pricing.dayAgo(), { openOrders: true });
    return {
      items: rows.map((row) => {
        const product = productOf(row);
        return {
          id: row.id,
          symbol: row.symbol,
          displayName: row.display_name,
          enabled: row.enabled,
          quoteSource: row.source,
          settings: product?.settings ?? null,
          bid: product?.quote?.bid ?? null,
          ask: product?.quote?.ask ?? null,
          quotedAt: product?.quote ? product.quote.at.toISOString() : null,
          tickSource: product?.tickSource ?? null,
          stale: product ? this.pricing.isStale(product.quote, settings) : false,
          marketOpen: product ? contractMarketOpen(product.settings.sessions, this.pricing.now()) : false,
          openOrders: row.open_orders,
        };
      }),
    };
  }

  async updateProduct(actor: OperatorActor, productId: string, input: ContractProductSettings): Promise<{ id: string }> {
    if (contractLotsProblem(input.maxLots, input) !== null && compareDecimal(input.maxLots, input.minLots) !== 0) {
      throw AppError.badRequest('contracts.lots_limits');
    }
    await this.db.transaction(async (tx) => {
      const row = await this.products.product(tx, productId, this.pricing.dayAgo());
      if (!row) throw AppError.notFound('quotes.product_missing');
      if (row.source === 'exchange') throw AppError.badRequest('contracts.exchange_product');
      await this.products.upsertSettings(tx, productId, input);
      await this.audit.record(
        {
          operatorId: actor.operatorId,
          action: 'contracts.product_updated',
          targetType: 'market_product',
          targetId: productId,
          before: settingsOf(row),
          after: { symbol: row.symbol, ...input },
          ip: actor.origin.ip,
          requestId: actor.origin.requestId,
        },
        tx,
      );
    });
    return { id: productId };
  }

  async book(): Promise<AdminContractBook> {
    const settings = await this.settings.get('contracts');
    const live = await this.pricing.liveContext(this.db);
    const orders = await this.orders.allOpenOrders();
    const byProduct = new Map<
      string,
      { symbol: string; count: number; long: string[]; short: string[]; results: string[]; margins: string[] }
    >();
    for (const row of (await this.products.allProducts(this.db, this.pricing.dayAgo())).filter((product) => product.configured)) {
      byProduct.set(row.id, { symbol: row.symbol, count: 0, long: [], short: [], results: [], margins: [] });
    }
    for (const order of orders) {
      const entry = byProduct.get(order.product_id) ?? {
        symbol: order.symbol,
        count: 0,
        long: [],
        short: [],
        results: [],
        margins: [],
      };
      byProduct.set(order.product_id, entry);
      entry.count += 1;
      (order.side === 'buy' ? entry.long : entry.short).push(order.lots);
      entry.margins.push(order.margin);
      entry.results.push(order.swap);
      const pnl = this.pricing.livePnl(order, live);
      if (pnl !== null) entry.results.push(pnl);
    }
    const exposure: ContractExposure[] = [...byProduct.entries()].map(([productId, entry]) => {
      const longLots = lots2(contractSum(entry.long));
      const shortLots = lots2(contractSum(entry.short));
      return {
        productId,
        symbol: entry.symbol,
        openOrders: entry.count,
        longLots,
        shortLots,
        netLots: lots2(contractSum([longLots, `-${shortLots}`])),
        floatingPnl: contractSum(entry.results),
        marginHeld: contractSum(entry.margins),
      };
    });
    const levels = await this.stopOut.accountLevels();
    const membersAtRisk: ContractMemberAtRisk[] = levels
      .filter((account) => account.level !== null && compareDecimal(account.level, settings.marginCallLevelPct) < 0)
      .sort((a, b) => compareDecimal(a.level!, b.level!))
      .slice(0, 100)
      .map((account) => ({
        memberId: account.memberId,
        email: account.email,
        openOrders: account.orders,
        usedMargin: account.usedMargin,
        equity: account.equity,
        marginLevel: account.level,
      }));
    return {
      exposure,
      membersAtRisk,
      bookBalance: money4(await this.orders.bookBalance()),
      totals: {
        openOrders: orders.length,
        marginHeld: contractSum(exposure.map((item) => item.marginHeld)),
        floatingPnl: contractSum(exposure.map((item) => item.floatingPnl)),
      },
      stopOutLevelPct: settings.stopOutLevelPct,
      marginCallLevelPct: settings.marginCallLevelPct,
      asOf: this.pricing.now().toISOString(),
    };
  }

  private adminView(row: OrderRow, live: LiveLookup | null): AdminContractOrder {
    const view = orderView(row, row.state === 'open' && live ? this.pricing.liveFor(row, live) : null);
    return { ...view, memberId: row.member_id, email: row.email };
  }

  async adminOrders(filter: { state?: ContractOrderState; productId?: string; query?: string }, page: number, pageSize: number) {
    const { rows, total } = await this.orders.adminOrders(filter, page, pageSize);
    const live = await this.pricing.liveContext(this.db);
    return { items: rows.map((row) => this.adminView(row, live)), total, page, pageSize };
  }

  async adminOrder(id: string): Promise<AdminContractOrder> {
    const row = await this.orders.order(this.db, id);
    if (!row) throw AppError.notFound();
    return this.adminView(row, await this.pricing.liveContext(this.db));
  }

  /** POST /api/admin/contracts/orders/:id/close: closes a member's order at market with a reason (audited). */
  async adminClose(actor: OperatorActor, id: string, reason: string): Promise<AdminContractOrder> {
    const found = await this.orders.order(this.db, id);
    if (!found) throw AppError.notFound();
    if (found.state !== 'open') throw AppError.conflict('contracts.order_closed');
    const settings = await this.settings.get('contracts');
    const product = await this.pricing.loadProduct(this.db, found.product_id);
    if (!product) throw AppError.conflict('contracts.product_unavailable');
    const quote = this.pricing.requireTradable(product, settings);
    await this.db.transaction(async (tx) => {
      const order = await this.orders.order(tx, id, { lock: true });
      if (!order || order.state !== 'open') throw AppError.conflict('contracts.order_closed');
      const closedId = await this.closer.settleClose(tx, order, order.lots, quote, 'operator', {
        note: reason,
        closedBy: actor.operatorId,
        settings,
      });
      if (!closedId) throw AppError.conflict('contracts.order_closed');
      const closed = await this.orders.order(tx, closedId);
      await this.audit.record(
        {
          operatorId: actor.operatorId,
          action: 'contracts.order_closed',
          targetType: 'contract_order',
          targetId: id,
          before: { state: 'open', lots: order.lots, margin: order.margin },
          after: {
            state: 'closed',
            reason,
            closePrice: closed?.close_price ?? null,
            pnl: closed?.pnl ?? null,
            memberId: order.member_id,
          },
          ip: actor.origin.ip,
          requestId: actor.origin.requestId,
        },
        tx,
      );
    });
    return this.adminOrder(id);
  }

  /** Problems between contract orders and their margin holds (empty when every open order holds exactly its margin). */
  async marginProblems(): Promise<{ id: string; problem: string }[]> {
    return this.orders.marginProblems();
  }
}
