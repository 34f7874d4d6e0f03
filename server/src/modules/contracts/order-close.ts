import { randomUUID } from 'node:crypto';
import {
  compareDecimal,
  contractClosePrice,
  contractLotsLeft,
  contractPnl,
  contractSettledPnl,
  contractShare,
  contractSum,
  money,
  type ContractCloseReason,
  type ContractOrderState,
  type ContractSettings,
} from '@custos/contract';
import type { Tx } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { CloseFields, ContractOrdersRepository, OrderRow } from './orders.repository.js';
import { conversionFor, currenciesOf, lots2, newOrderNo, type PriceBook, type Quote } from './model.js';
import type { ContractsPricing } from './pricing.js';
import { ORDER_HOLD, resultWithin, settlementOf } from './settlement.js';

/** What a close may carry besides its order, lots, quote and reason. */
export interface CloseExtra {
  note?: string | null;
  closedBy?: string | null;
  closeKey?: string | null;
  closeHash?: string | null;
  prices?: PriceBook;
  /** Needed to close the account's other orders when a loss goes beyond what the account has. */
  settings?: ContractSettings;
  /** Orders `coverLoss` closed besides this one (the stop-out leaves them out of its count). */
  closedOut?: Set<string>;
}

/**
 * Closing an order at market and settling it through the ledger at once (a member's close, an
 * operator's, the stop-out), and cross margin's negative-balance protection (decision 049), which the
 * watcher's settlement uses too. The member hears of every order it changes.
 */
export class ContractsCloser {
  constructor(
    private readonly orders: ContractOrdersRepository,
    private readonly ledger: LedgerService,
    private readonly memberEvents: MemberEventPublisher,
    private readonly pricing: ContractsPricing,
    private readonly timeZone: string,
  ) {}

  async publishOrder(
    tx: Tx,
    memberId: string,
    order: {
      id: string;
      orderNo: string | null;
      state: ContractOrderState;
      closeReason: ContractCloseReason | null;
      pnl: string | null;
    },
  ): Promise<void> {
    let orderNo = order.orderNo;
    if (orderNo === null) orderNo = (await this.orders.order(tx, order.id))?.order_no ?? '';
    await this.memberEvents.publish(tx, memberId, {
      kind: 'contracts.order',
      orderId: order.id,
      orderNo,
      state: order.state,
      closeReason: order.closeReason,
      pnl: order.pnl,
    });
  }

  /**
   * Closes `closeLots` of a locked open order at `quote` and settles it through the ledger: the
   * margin comes back, a profit is paid by the book, a loss goes to the book, and a loss beyond the
   * margin is paid from the account's available USDT (decision 049; see `coverLoss`). A partial close
   * first moves the part's share of the hold to the new closed row.
   * Answers the closed row's id; `null` when the order was no longer open (nothing moved).
   */
  async settleClose(
    tx: Tx,
    order: OrderRow,
    closeLots: string,
    quote: Quote,
    reason: ContractCloseReason,
    extra: CloseExtra,
  ): Promise<string | null> {
    if (order.state !== 'open') return null;
    const closePrice = contractClosePrice(order.side, quote);
    const prices = extra.prices ?? (await this.pricing.priceBook(tx));
    const conversion = conversionFor(order.symbol, closePrice, prices);
    if (!conversion) throw AppError.conflict('contracts.no_conversion', { currency: currenciesOf(order.symbol).quote });
    const full = compareDecimal(closeLots, order.lots) >= 0;
    const lots = full ? lots2(order.lots) : closeLots;
    const margin = contractShare(order.margin, lots, order.lots);
    const swap = contractShare(order.swap, lots, order.lots);
    const spreadCost = contractShare(order.spread_cost, lots, order.lots);
    const pnl = contractPnl({
      side: order.side,
      lots,
      contractSize: order.contract_size,
      openPrice: order.open_price,
      closePrice,
      conversion,
    });
    const settled = await this.coverLoss(tx, order, margin, contractSettledPnl(pnl, swap, margin), {
      prices,
      settings: extra.settings ?? null,
      closedOut: extra.closedOut ?? null,
    });
    const closedAt = this.pricing.now();
    const fields: CloseFields = {
      closePrice,
      closedAt,
      closeTickId: quote.tickId,
      reason,
      pnl: settled,
      swap,
      note: extra.note ?? null,
      closedBy: extra.closedBy ?? null,
      closeKey: extra.closeKey ?? null,
      closeHash: extra.closeHash ?? null,
    };
    let closedId = order.id;
    if (full) {
      if (!(await this.orders.closeOrder(tx, order.id, fields))) return null;
    } else {
      closedId = randomUUID();
      const left = {
        lots: contractLotsLeft(order.lots, lots),
        margin: contractSum([order.margin, `-${margin}`]),
        spreadCost: contractSum([order.spread_cost, `-${spreadCost}`]),
        swap: contractSum([order.swap, `-${swap}`]),
      };
      if (!(await this.orders.shrinkOrder(tx, order.id, left))) return null;
      await this.orders.insertOrder(tx, {
        id: closedId,
        orderNo: newOrderNo(closedAt, this.timeZone),
        memberId: order.member_id,
        accountId: order.account_id,
        productId: order.product_id,
        parentId: order.id,
        side: order.side,
        lots,
        leverage: order.leverage,
        contractSize: order.contract_size,
        digits: order.digits,
        openPrice: order.open_price,
        openedAt: new Date(order.opened_at),
        openTickId: order.open_tick_id,
        margin,
        spreadCost,
        takeProfit: order.take_profit,
        stopLoss: order.stop_loss,
        swap: '0',
        clientKey: null,
        requestHash: null,
        awaitingWalk: false,
      });
      await this.ledger.moveHold(tx, {
        from: { referenceType: ORDER_HOLD, referenceId: order.id },
        to: { referenceType: ORDER_HOLD, referenceId: closedId },
        amount: money.parseMoney(margin),
        idempotencyKey: `contracts:split:${closedId}`,
        recordType: 'contract_margin',
      });
      if (!(await this.orders.closeOrder(tx, closedId, fields))) throw new Error(`closed part ${closedId} was not open`);
    }
    await this.settleLedger(tx, order.account_id, closedId, margin, settled);
    await this.publishOrder(tx, order.member_id, {
      id: closedId,
      orderNo: null,
      state: 'closed',
      closeReason: reason,
      pnl: settled,
    });
    if (!full)
      await this.publishOrder(tx, order.member_id, {
        id: order.id,
        orderNo: order.order_no,
        state: 'open',
        closeReason: null,
        pnl: null,
      });
    return closedId;
  }

  /** The ledger side of one close (`settlementOf`), its hold read under lock and checked against the margin. */
  private async settleLedger(tx: Tx, accountId: string, closedId: string, margin: string, settled: string): Promise<void> {
    const held = await this.ledger.heldFor(tx, { referenceType: ORDER_HOLD, referenceId: closedId });
    const { settlement, entries } = settlementOf({ id: closedId, accountId, margin, result: settled, held });
    await this.ledger.settleHolds(tx, [settlement], entries);
  }

  /**
   * Cross margin with negative-balance protection per account (decision 049). A result within the
   * order's margin settles as it is. A loss beyond it is paid from the account's available USDT; when
   * that is short and `settings` is given, the account's other open orders on tradable products close
   * at market first (winners first, reason `stop_out`) and what they bring pays too. Whatever the
   * account still cannot pay is written off to the book: the answer is then −(margin + everything the
   * account had). The account's open orders are locked here before its ledger rows (the module's lock
   * order); a caller settling several accounts locks them all before any ledger row.
   */
  async coverLoss(
    tx: Tx,
    order: OrderRow,
    margin: string,
    result: string,
    options: { prices: PriceBook; settings: ContractSettings | null; closedOut: Set<string> | null },
  ): Promise<string> {
    if (compareDecimal(result, `-${margin}`) >= 0) return result;
    const others = options.settings
      ? (await this.orders.openOrdersOf(tx, order.account_id, { lock: true })).filter(
          (other) => other.id !== order.id && !options.closedOut?.has(other.id),
        )
      : [];
    const available = { ownerAccountId: order.account_id, asset: 'USDT' as const, purpose: 'available' as const };
    let payable = (await this.ledger.lockBalances(tx, [available]))(available);
    const beyond = money.subtract(money.negate(money.parseMoney(result)), money.parseMoney(margin));
    if (payable < beyond && others.length > 0 && options.settings) {
      const figures = await this.pricing.priceOrders(tx, others, options.settings, options.prices);
      const winnersFirst = figures
        .filter((figure) => figure.tradable && figure.quote)
        .sort((a, b) => compareDecimal(contractSum([b.pnl, b.swap]), contractSum([a.pnl, a.swap])));
      for (const figure of winnersFirst) {
        // Each of these pays its own loss from what the account has at that point, never more.
        await this.settleClose(tx, figure.order, figure.order.lots, figure.quote!, 'stop_out', { prices: options.prices });
        options.closedOut?.add(figure.order.id);
      }
      payable = (await this.ledger.lockBalances(tx, [available]))(available);
    }
    return resultWithin(result, margin, payable);
  }
}
