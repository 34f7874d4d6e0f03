import type { DemoContext } from './context.js';

const HOUR = 3600_000;

/**
 * Demo quotes (decision 027): three manual pairs with a price from a day ago and one from now, so
 * Home shows a real 24 h change in both directions; the feed stays off (no network in a demo).
 * Written through the console's own service calls (audited). Nothing is added when a pair besides
 * RAB/USDT exists already, so repeated starts change nothing.
 */
export const DEMO_QUOTES = [
  { symbol: 'BTC/USDT', displayName: 'Bitcoin', sortOrder: 10, dayAgo: '88000', now: '90534.5' },
  { symbol: 'ETH/USDT', displayName: 'Ether', sortOrder: 20, dayAgo: '3200', now: '3104' },
  { symbol: 'XAU/USD', displayName: 'Gold', sortOrder: 30, dayAgo: '2650', now: '2671.2' },
] as const;

export async function seedQuotes(demo: DemoContext): Promise<void> {
  const { services, financeOperatorId, origin } = demo;
  const { products } = await services.quotes.adminQuotes();
  if (products.some((product) => product.source !== 'exchange')) return;
  for (const pair of DEMO_QUOTES) {
    const { id } = await services.quotes.createProduct(
      financeOperatorId,
      { symbol: pair.symbol, displayName: pair.displayName, sortOrder: pair.sortOrder, enabled: true, source: 'manual' },
      origin,
    );
    await services.quotes.setManualPrice(financeOperatorId, id, pair.dayAgo, origin, { ageMs: 25 * HOUR });
    await services.quotes.setManualPrice(financeOperatorId, id, pair.now, origin);
  }
}
