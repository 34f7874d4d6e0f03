import { contractClosePrice, contractMarketOpen, contractMid, contractPnl, type ContractSettings } from '@custos/contract';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { ContractProductsRepository } from './products.repository.js';
import type { OrderRow } from './orders.repository.js';
import {
  conversionFor,
  currenciesOf,
  iso,
  productOf,
  type LiveFigures,
  type LiveLookup,
  type PriceBook,
  type Product,
  type Quote,
} from './model.js';

/**
 * The prices every contracts service reads (decision 034): the platform's clock, the price book of
 * last prices, products with their quotes, whether a quote is stale, and open orders priced live.
 * It only reads; what moves money is `ContractsCloser`'s.
 */
export class ContractsPricing {
  constructor(
    private readonly products: ContractProductsRepository,
    private readonly clock: Clock,
  ) {}

  now(): Date {
    return this.clock.now();
  }

  dayAgo(): Date {
    return new Date(this.now().getTime() - 86_400_000);
  }

  async priceBook(db: Db | Tx): Promise<PriceBook> {
    const rows = await this.products.lastPrices(db);
    const book: PriceBook = new Map();
    for (const row of rows) {
      const price = row.bid !== null && row.ask !== null ? contractMid(row.bid, row.ask, 8) : row.price;
      if (price !== null && /[1-9]/.test(price)) book.set(row.symbol, price);
    }
    return book;
  }

  isStale(quote: Quote | null, settings: ContractSettings): boolean {
    return quote === null || this.now().getTime() - quote.at.getTime() > settings.priceStaleAfterS * 1000;
  }

  /** Refuses trading on a product whose market is closed or whose price is missing or stale. */
  requireTradable(product: Product, settings: ContractSettings): Quote {
    if (!product.quote) throw AppError.conflict('contracts.no_price', { symbol: product.symbol });
    if (!contractMarketOpen(product.settings.sessions, this.now())) {
      throw AppError.conflict('contracts.market_closed', { symbol: product.symbol });
    }
    if (this.isStale(product.quote, settings)) throw AppError.conflict('contracts.price_stale', { symbol: product.symbol });
    return product.quote;
  }

  async loadProduct(db: Db | Tx, id: string): Promise<Product | null> {
    const row = await this.products.product(db, id, this.dayAgo());
    return row ? productOf(row) : null;
  }

  /** Live figures of open orders: each product's quote and conversion, loaded once. */
  async liveContext(db: Db | Tx): Promise<LiveLookup> {
    return (await this.liveProducts(db)).live;
  }

  /** Each configured product's quote and conversion (`liveContext`), and the products themselves. */
  async liveProducts(db: Db | Tx): Promise<{ products: Product[]; live: LiveLookup }> {
    const rows = await this.products.allProducts(db, this.dayAgo());
    const prices = await this.priceBook(db);
    const products = rows.map(productOf).filter((product): product is Product => product !== null);
    const byId = new Map<string, LiveFigures & { symbol: string }>();
    for (const product of products) byId.set(product.id, { quote: product.quote, conversion: null, symbol: product.symbol });
    const live = (productId: string): LiveFigures => {
      const entry = byId.get(productId);
      if (!entry) return { quote: null, conversion: null };
      if (!entry.quote) return { quote: null, conversion: null };
      // A USD/XXX pair converts its P&L at the price it would close at; others through the price book.
      return { quote: entry.quote, conversion: conversionFor(entry.symbol, null, prices) ?? null };
    };
    return { products, live };
  }

  /** One order's live figures: a USD/XXX pair converts at the price this order would close at. */
  liveFor(row: Pick<OrderRow, 'side' | 'symbol' | 'product_id'>, live: LiveLookup): LiveFigures {
    const entry = live(row.product_id);
    if (!entry.quote) return entry;
    const own = currenciesOf(row.symbol);
    if (row.symbol === `USD/${own.quote}`) {
      return { quote: entry.quote, conversion: { op: 'div' as const, rate: contractClosePrice(row.side, entry.quote) } };
    }
    return entry;
  }

  /** An open order's P&L at its product's live quote, or null when the product has no live quote or conversion. */
  livePnl(
    row: Pick<OrderRow, 'side' | 'symbol' | 'product_id' | 'lots' | 'contract_size' | 'open_price'>,
    live: LiveLookup,
  ): string | null {
    const { quote, conversion } = this.liveFor(row, live);
    if (!quote || !conversion) return null;
    return contractPnl({
      side: row.side,
      lots: row.lots,
      contractSize: row.contract_size,
      openPrice: row.open_price,
      closePrice: contractClosePrice(row.side, quote),
      conversion,
    });
  }

  /**
   * Locked open orders priced at their products' last quotes (P&L, swap, whether the product can
   * trade now), for the stop-out and for closing an account's orders to cover a loss.
   */
  async priceOrders(tx: Tx, orders: readonly OrderRow[], settings: ContractSettings, prices: PriceBook) {
    const productRows = await this.products.allProducts(tx, this.dayAgo());
    const products = new Map(
      productRows
        .map(productOf)
        .filter((product): product is Product => product !== null)
        .map((product) => [product.id, product]),
    );
    return orders.map((order) => {
      const product = products.get(order.product_id);
      const quote = product?.quote ?? null;
      const closePrice = quote ? contractClosePrice(order.side, quote) : null;
      const conversion = closePrice ? conversionFor(order.symbol, closePrice, prices) : null;
      const pnl =
        closePrice && conversion
          ? contractPnl({
              side: order.side,
              lots: order.lots,
              contractSize: order.contract_size,
              openPrice: order.open_price,
              closePrice,
              conversion,
            })
          : '0';
      const tradable = Boolean(
        product && quote && contractMarketOpen(product.settings.sessions, this.now()) && !this.isStale(quote, settings),
      );
      return { order, quote, pnl, swap: order.swap, openedAt: iso(order.opened_at), orderNo: order.order_no, tradable };
    });
  }
}

export type PricedOrder = Awaited<ReturnType<ContractsPricing['priceOrders']>>[number];
