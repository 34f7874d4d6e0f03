import {
  contractMarketOpen,
  contractMid,
  money,
  roundDecimal,
  type ContractProduct,
  type ContractProducts,
  type ContractSettings,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ContractProductsRepository } from './products.repository.js';
import { conversionFor, pointsBetween, productOf, type PriceBook, type Product, type Quote } from './model.js';
import type { ContractsPricing } from './pricing.js';

/** The products members trade and their live quotes (decision 034): what the app's market page and the quote stream show. */
export class ContractsProductsService {
  constructor(
    private readonly db: Db,
    private readonly repository: ContractProductsRepository,
    private readonly settings: SettingsService,
    private readonly pricing: ContractsPricing,
  ) {}

  private changePct(product: Product): string | null {
    if (!product.rawMid || !product.dayAgoPrice || !/[1-9]/.test(product.dayAgoPrice)) return null;
    const now = money.parseMoney(roundDecimal(product.rawMid, 4, 'halfUp'));
    const then = money.parseMoney(roundDecimal(product.dayAgoPrice, 4, 'halfUp'));
    if (then <= 0n) return null;
    // (now − then) ÷ then × 100, two places half up.
    const scaled = ((now - then) * 1_000_000n) / then; // percent × 10 000
    const rounded = scaled >= 0n ? (scaled + 50n) / 100n : (scaled - 50n) / 100n;
    const negative = rounded < 0n;
    const abs = negative ? -rounded : rounded;
    return `${negative ? '-' : ''}${(abs / 100n).toString()}.${(abs % 100n).toString().padStart(2, '0')}`;
  }

  private productView(product: Product, settings: ContractSettings, prices: PriceBook): ContractProduct {
    const quote = product.quote;
    const stale = this.pricing.isStale(quote, settings);
    const marketOpen = contractMarketOpen(product.settings.sessions, this.pricing.now());
    const spreadPoints = quote === null ? null : pointsBetween(quote.bid, quote.ask, product.settings.digits);
    return {
      id: product.id,
      symbol: product.symbol,
      displayName: product.displayName,
      baseCurrency: product.baseCurrency,
      quoteCurrency: product.quoteCurrency,
      ...product.settings,
      bid: quote?.bid ?? null,
      ask: quote?.ask ?? null,
      spreadPoints,
      changePct24h: this.changePct(product),
      quotedAt: quote ? quote.at.toISOString() : null,
      stale,
      marketOpen,
      canOpen: settings.enabled && product.settings.tradingEnabled && marketOpen && !stale,
      conversion: conversionFor(
        product.symbol,
        quote ? contractMid(quote.bid, quote.ask, product.settings.digits) : null,
        prices,
      ),
    };
  }

  /** GET /api/contracts/products */
  async products(): Promise<ContractProducts> {
    const settings = await this.settings.get('contracts');
    const prices = await this.pricing.priceBook(this.db);
    const rows = await this.repository.tradedProducts(this.pricing.dayAgo());
    const items = rows
      .map(productOf)
      .filter((product): product is Product => product !== null)
      .map((product) => this.productView(product, settings, prices));
    return { items, asOf: this.pricing.now().toISOString() };
  }

  /** The platform quote of every traded product (the live quote stream polls it). */
  async latestQuotes(): Promise<{ productId: string; tickId: string; bid: string; ask: string; quotedAt: string }[]> {
    const rows = await this.repository.tradedProducts(this.pricing.dayAgo());
    return rows
      .map(productOf)
      .filter((product): product is Product & { quote: Quote } => product?.quote != null)
      .map((product) => ({
        productId: product.id,
        tickId: product.quote.tickId,
        bid: product.quote.bid,
        ask: product.quote.ask,
        quotedAt: product.quote.at.toISOString(),
      }));
  }
}
