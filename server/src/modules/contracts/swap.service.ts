import { contractMid, contractSwap } from '@custos/contract';
import type { Db } from '../../db/client.js';
import type { ContractProductsRepository } from './products.repository.js';
import type { ContractTicksRepository } from './ticks.repository.js';
import type { ContractOrdersRepository } from './orders.repository.js';
import { conversionFor, productOf } from './model.js';
import type { ContractsPricing } from './pricing.js';

/** Swap rollover: 21:00 UTC (17:00 New York), the forex day's end. */
const ROLLOVER_HOUR_UTC = 21;
const SWAP_BATCH = 500;

/** The nightly jobs on open orders (decision 034): one night's swap per order, and the purge of walked ticks. */
export class ContractsSwapService {
  constructor(
    private readonly db: Db,
    private readonly products: ContractProductsRepository,
    private readonly ticks: ContractTicksRepository,
    private readonly orders: ContractOrdersRepository,
    private readonly pricing: ContractsPricing,
  ) {}

  /** The last rollover (21:00 UTC) at or before now, and the day it closes. */
  private lastRollover(): { at: Date; day: string } {
    const now = this.pricing.now();
    const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), ROLLOVER_HOUR_UTC));
    if (at.getTime() > now.getTime()) at.setUTCDate(at.getUTCDate() - 1);
    return { at, day: at.toISOString().slice(0, 10) };
  }

  /**
   * Charges (or pays) one night's swap on open orders of products with swap on, once per rollover per
   * order (the order's `swap_day`), at the mid price; accrued on the order and settled with its P&L.
   */
  async chargeSwap(): Promise<number> {
    const { at, day } = this.lastRollover();
    const prices = await this.pricing.priceBook(this.db);
    let charged = 0;
    for (const row of await this.products.allProducts(this.db, this.pricing.dayAgo())) {
      const product = productOf(row);
      if (!product?.settings.swapEnabled || !product.quote) continue;
      const mid = contractMid(product.quote.bid, product.quote.ask, product.settings.digits);
      const conversion = conversionFor(product.symbol, mid, prices);
      if (!conversion) continue;
      for (;;) {
        const batch = await this.db.transaction(async (tx) => {
          const due = await this.orders.swapDue(tx, product.id, day, at, SWAP_BATCH);
          for (const order of due) {
            const swap = contractSwap({
              lots: order.lots,
              contractSize: order.contract_size,
              price: mid,
              dailyPct: order.side === 'buy' ? product.settings.swapLongPct : product.settings.swapShortPct,
              conversion,
            });
            await this.orders.addSwap(tx, order.id, swap, day);
          }
          return due.length;
        });
        charged += batch;
        if (batch < SWAP_BATCH) break;
      }
    }
    return charged;
  }

  /** Removes walked ticks older than two days (the quotes history keeps the prices). */
  purgeTicks(): Promise<number> {
    return this.ticks.purgeTicks(new Date(this.pricing.now().getTime() - 2 * 86_400_000));
  }
}
