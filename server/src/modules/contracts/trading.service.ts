import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  compareDecimal,
  contractLotsLeft,
  contractLotsProblem,
  contractMargin,
  contractMarginLevel,
  contractOpenPrice,
  contractSpreadCost,
  contractSum,
  contractTargetsProblem,
  decimalPlaces,
  money,
  roundDecimal,
  type ContractCloseResult,
  type ContractOrder,
  type ContractPendingInfo,
  type ContractPendingList,
  type contractCloseRequest,
  type contractOpenRequest,
  type contractSetTargetsRequest,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../http/app-error.js';
import { fingerprint } from '../../lib/fingerprint.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ContractOrdersRepository, OrderRow } from './orders.repository.js';
import { conversionFor, lots2, newOrderNo, orderView, type Product } from './model.js';
import type { ContractsCloser } from './order-close.js';
import type { ContractsPricing } from './pricing.js';
import { ORDER_HOLD } from './settlement.js';

/**
 * A member's own contract orders (decision 034): the lists and the account's margin figures, opening
 * a market order with its margin held in the ledger, closing all or part of one at market, and
 * setting its take-profit and stop-loss. New orders are handed to the watcher (`walkSoon`) at once.
 */
export class ContractsTradingService {
  constructor(
    private readonly db: Db,
    private readonly orders: ContractOrdersRepository,
    private readonly ledger: LedgerService,
    private readonly settings: SettingsService,
    private readonly pricing: ContractsPricing,
    private readonly closer: ContractsCloser,
    /** Walks products' ticks (the watcher's `walkSoon`): a new order is checked against the ticks walked meanwhile. */
    private readonly walkSoon: (productIds: string[]) => void,
    private readonly timeZone: string,
  ) {}

  /** GET /api/contracts/pending_list */
  async pendingList(context: MemberSessionContext): Promise<ContractPendingList> {
    const rows = await this.orders.openOrdersOf(this.db, context.account.id);
    const live = await this.pricing.liveContext(this.db);
    return { items: rows.map((row) => orderView(row, this.pricing.liveFor(row, live))), asOf: this.pricing.now().toISOString() };
  }

  /** GET /api/contracts/pending_info */
  async pendingInfo(context: MemberSessionContext): Promise<ContractPendingInfo> {
    const settings = await this.settings.get('contracts');
    const rows = await this.orders.openOrdersOf(this.db, context.account.id);
    const live = await this.pricing.liveContext(this.db);
    const views = rows.map((row) => orderView(row, this.pricing.liveFor(row, live)));
    const balances = await this.ledger.balancesOf([context.account.id]);
    const freeMargin = money.formatMoney(balances.get(`${context.account.id}:USDT:available`) ?? money.ZERO);
    const usedMargin = contractSum(views.map((view) => view.margin));
    const floatingPnl = contractSum(views.flatMap((view) => [view.pnl ?? '0', view.swap]));
    const equity = contractSum([usedMargin, floatingPnl]);
    return {
      freeMargin,
      usedMargin,
      floatingPnl,
      equity,
      marginLevel: contractMarginLevel(equity, usedMargin),
      stopOutLevelPct: settings.stopOutLevelPct,
      marginCallLevelPct: settings.marginCallLevelPct,
      openOrders: views.length,
      enabled: settings.enabled,
      asOf: this.pricing.now().toISOString(),
    };
  }

  /** GET /api/contracts/closed_list */
  async closedList(context: MemberSessionContext, productId: string | undefined, page: number, pageSize: number) {
    const { rows, total } = await this.orders.closedOf(context.account.id, productId, page, pageSize);
    return { items: rows.map((row) => orderView(row, null)), total, page, pageSize };
  }

  /** GET /api/contracts/order_info: one of the account's own orders (another's answers "not found"). */
  async orderInfo(context: MemberSessionContext, id: string): Promise<ContractOrder> {
    const row = await this.orders.order(this.db, id);
    if (!row || row.account_id !== context.account.id) throw AppError.notFound();
    const live = row.state === 'open' ? this.pricing.liveFor(row, await this.pricing.liveContext(this.db)) : null;
    return orderView(row, live);
  }

  // ── Open ──

  private checkTargetDigits(product: Product, targets: { takeProfit: string | null; stopLoss: string | null }): void {
    for (const value of [targets.takeProfit, targets.stopLoss]) {
      if (
        value !== null &&
        decimalPlaces(value) > product.settings.digits &&
        compareDecimal(roundDecimal(value, product.settings.digits, 'floor'), value) !== 0
      ) {
        throw AppError.badRequest('contracts.price_digits', { symbol: product.symbol, digits: product.settings.digits });
      }
    }
  }

  private normaliseTarget(product: Product, value: string | null): string | null {
    return value === null ? null : roundDecimal(value, product.settings.digits, 'halfUp');
  }

  /** POST /api/contracts/open: a market order; the margin is held in the ledger. */
  async open(context: MemberSessionContext, body: z.output<typeof contractOpenRequest>): Promise<ContractOrder> {
    const memberId = context.member.id;
    const accountId = context.account.id;
    const requestHash = fingerprint({
      productId: body.productId,
      side: body.side,
      lots: lots2(body.lots),
      leverage: String(body.leverage),
      takeProfit: body.takeProfit ?? '',
      stopLoss: body.stopLoss ?? '',
    });
    const replay = (row: OrderRow) => {
      if (row.request_hash !== requestHash) throw AppError.conflict('contracts.idempotency_mismatch');
      return this.orderInfo(context, row.id);
    };
    const earlier = await this.orders.orderByClientKey(this.db, memberId, body.idempotencyKey);
    if (earlier) return replay(earlier);

    const settings = await this.settings.get('contracts');
    if (!settings.enabled) throw AppError.conflict('contracts.disabled');
    const product = await this.pricing.loadProduct(this.db, body.productId);
    if (!product || !product.enabled || !product.settings.tradingEnabled)
      throw AppError.conflict('contracts.product_unavailable');
    const quote = this.pricing.requireTradable(product, settings);
    const lots = lots2(body.lots);
    const lotsProblem = contractLotsProblem(lots, product.settings);
    if (lotsProblem === 'lots_out_of_range') {
      throw AppError.badRequest('contracts.lots_out_of_range', { min: product.settings.minLots, max: product.settings.maxLots });
    }
    if (lotsProblem === 'lots_off_step') {
      throw AppError.badRequest('contracts.lots_off_step', { step: product.settings.lotStep, min: product.settings.minLots });
    }
    if (!product.settings.leverages.includes(body.leverage)) {
      throw AppError.badRequest('contracts.leverage_not_offered', { leverages: product.settings.leverages.join(', ') });
    }
    this.checkTargetDigits(product, body);
    const targets = {
      takeProfit: this.normaliseTarget(product, body.takeProfit),
      stopLoss: this.normaliseTarget(product, body.stopLoss),
    };
    const targetProblem = contractTargetsProblem(body.side, quote, targets);
    if (targetProblem) throw AppError.badRequest(`contracts.${targetProblem}`);
    const openPrice = contractOpenPrice(body.side, quote);
    const conversion = conversionFor(product.symbol, openPrice, await this.pricing.priceBook(this.db));
    if (!conversion) throw AppError.conflict('contracts.no_conversion', { currency: product.quoteCurrency });
    const margin = contractMargin({
      lots,
      contractSize: product.settings.contractSize,
      price: openPrice,
      leverage: body.leverage,
      conversion,
    });
    const spreadCost = contractSpreadCost({
      lots,
      contractSize: product.settings.contractSize,
      bid: quote.bid,
      ask: quote.ask,
      conversion,
    });
    const id = randomUUID();
    const now = this.pricing.now();

    try {
      await this.db.transaction(async (tx) => {
        // The account's balances are locked first: its opens (and their count) go one at a time.
        const balanceOf = await this.ledger.lockBalances(tx, [
          { ownerAccountId: accountId, asset: 'USDT', purpose: 'available' },
          { ownerAccountId: accountId, asset: 'USDT', purpose: 'held' },
        ]);
        const winner = await this.orders.orderByClientKey(tx, memberId, body.idempotencyKey);
        if (winner) return;
        const open = await this.orders.countOpen(tx, accountId);
        if (open >= settings.maxOpenOrders)
          throw AppError.conflict('contracts.too_many_open_orders', { count: settings.maxOpenOrders });
        const available = balanceOf({ ownerAccountId: accountId, asset: 'USDT', purpose: 'available' });
        if (available < money.parseMoney(margin)) {
          throw AppError.conflict('contracts.insufficient_margin', { required: margin, available: money.formatMoney(available) });
        }
        await this.orders.insertOrder(tx, {
          id,
          orderNo: newOrderNo(now, this.timeZone),
          memberId,
          accountId,
          productId: product.id,
          parentId: null,
          side: body.side,
          lots,
          leverage: body.leverage,
          contractSize: product.settings.contractSize,
          digits: product.settings.digits,
          openPrice,
          openedAt: now,
          openTickId: quote.tickId,
          margin,
          spreadCost,
          takeProfit: targets.takeProfit,
          stopLoss: targets.stopLoss,
          swap: '0',
          clientKey: body.idempotencyKey,
          requestHash,
          awaitingWalk: true,
        });
        await this.ledger.hold(tx, {
          ownerAccountId: accountId,
          asset: 'USDT',
          amount: money.parseMoney(margin),
          referenceType: ORDER_HOLD,
          referenceId: id,
          recordType: 'contract_margin',
        });
        await this.closer.publishOrder(tx, memberId, { id, orderNo: null, state: 'open', closeReason: null, pnl: null });
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.orders.orderByClientKey(this.db, memberId, body.idempotencyKey);
      if (!winner) throw error;
      return replay(winner);
    }
    // The new order is checked at once against the ticks walked while it was being opened.
    this.walkSoon([product.id]);
    const row = await this.orders.orderByClientKey(this.db, memberId, body.idempotencyKey);
    return replay(row!);
  }

  private checkCloseLots(order: OrderRow, product: Product, requested: string | undefined): string {
    if (requested === undefined) return lots2(order.lots);
    const lots = lots2(requested);
    if (compareDecimal(lots, order.lots) > 0)
      throw AppError.badRequest('contracts.close_lots_too_large', { lots: lots2(order.lots) });
    if (compareDecimal(lots, order.lots) === 0) return lots;
    const problem = contractLotsProblem(lots, { ...product.settings, maxLots: order.lots });
    if (problem === 'lots_off_step') {
      throw AppError.badRequest('contracts.lots_off_step', { step: product.settings.lotStep, min: product.settings.minLots });
    }
    if (problem === 'lots_out_of_range') {
      throw AppError.badRequest('contracts.lots_out_of_range', { min: product.settings.minLots, max: lots2(order.lots) });
    }
    if (compareDecimal(contractLotsLeft(order.lots, lots), product.settings.minLots) < 0) {
      throw AppError.badRequest('contracts.close_leaves_too_little', { min: product.settings.minLots });
    }
    return lots;
  }

  /** POST /api/contracts/close: at market, all or part. */
  async close(context: MemberSessionContext, body: z.output<typeof contractCloseRequest>): Promise<ContractCloseResult> {
    const memberId = context.member.id;
    const closeHash = fingerprint({ orderId: body.orderId, lots: body.lots === undefined ? 'all' : lots2(body.lots) });
    const replay = async (closed: OrderRow): Promise<ContractCloseResult> => {
      if (closed.close_hash !== closeHash) throw AppError.conflict('contracts.idempotency_mismatch');
      const live = await this.pricing.liveContext(this.db);
      const parentId = closed.parent_id ?? null;
      const remainingRow = parentId ? await this.orders.order(this.db, parentId) : undefined;
      const remaining =
        remainingRow && remainingRow.state === 'open' ? orderView(remainingRow, this.pricing.liveFor(remainingRow, live)) : null;
      return { closed: orderView(closed, null), remaining };
    };
    const earlier = await this.orders.orderByCloseKey(this.db, memberId, body.idempotencyKey);
    if (earlier) return replay(earlier);
    const found = await this.orders.order(this.db, body.orderId);
    if (!found || found.account_id !== context.account.id) throw AppError.notFound();
    if (found.state !== 'open') throw AppError.conflict('contracts.order_closed');
    const settings = await this.settings.get('contracts');
    const product = await this.pricing.loadProduct(this.db, found.product_id);
    if (!product) throw AppError.conflict('contracts.product_unavailable');
    const quote = this.pricing.requireTradable(product, settings);
    const prices = await this.pricing.priceBook(this.db);
    let closedId: string;
    try {
      closedId = await this.db.transaction(async (tx) => {
        const order = await this.orders.order(tx, body.orderId, { lock: true });
        if (!order || order.state !== 'open') throw AppError.conflict('contracts.order_closed');
        const lots = this.checkCloseLots(order, product, body.lots);
        const id = await this.closer.settleClose(tx, order, lots, quote, 'member', {
          closeKey: body.idempotencyKey,
          closeHash,
          prices,
          settings,
        });
        if (!id) throw AppError.conflict('contracts.order_closed');
        return id;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.orders.orderByCloseKey(this.db, memberId, body.idempotencyKey);
      if (!winner) throw error;
      return replay(winner);
    }
    const closed = await this.orders.order(this.db, closedId);
    return replay(closed!);
  }

  /** POST /api/contracts/set_targets */
  async setTargets(context: MemberSessionContext, body: z.output<typeof contractSetTargetsRequest>): Promise<ContractOrder> {
    const found = await this.orders.order(this.db, body.orderId);
    if (!found || found.account_id !== context.account.id) throw AppError.notFound();
    if (found.state !== 'open') throw AppError.conflict('contracts.order_closed');
    const product = await this.pricing.loadProduct(this.db, found.product_id);
    if (!product) throw AppError.conflict('contracts.product_unavailable');
    if (!product.quote) throw AppError.conflict('contracts.no_price', { symbol: product.symbol });
    this.checkTargetDigits(product, body);
    const targets = {
      takeProfit: this.normaliseTarget(product, body.takeProfit),
      stopLoss: this.normaliseTarget(product, body.stopLoss),
    };
    const problem = contractTargetsProblem(found.side, product.quote, targets);
    if (problem) throw AppError.badRequest(`contracts.${problem}`);
    await this.db.transaction(async (tx) => {
      const order = await this.orders.order(tx, body.orderId, { lock: true });
      if (!order || order.state !== 'open') throw AppError.conflict('contracts.order_closed');
      await this.orders.setTargets(tx, order.id, targets);
      await this.closer.publishOrder(tx, order.member_id, {
        id: order.id,
        orderNo: order.order_no,
        state: 'open',
        closeReason: null,
        pnl: null,
      });
    });
    return this.orderInfo(context, body.orderId);
  }
}
