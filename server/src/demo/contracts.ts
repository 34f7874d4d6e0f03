import { randomUUID } from 'node:crypto';
import { ALWAYS_OPEN_SESSIONS, contractOpenRequest, type ContractProductSettings } from '@custos/contract';
import type { DemoContext } from './context.js';

const HOUR = 3600_000;

/** The demo's contract trader (decision 034): open and closed contract orders; the demo passwords. */
export const DEMO_CONTRACT_TRADER = 'kim@custos.example';
const OPENING_USDT = '20000.0000';

const FOREX: Omit<ContractProductSettings, 'digits' | 'contractSize' | 'leverages'> = {
  minLots: '0.01',
  lotStep: '0.01',
  maxLots: '50.00',
  spreadMarkupPoints: 0,
  // Open every day so the demo trades whenever it is started (the usual forex week is FOREX_WEEK_SESSIONS).
  sessions: ALWAYS_OPEN_SESSIONS,
  swapEnabled: false,
  swapLongPct: '-0.0100',
  swapShortPct: '0.0020',
  tradingEnabled: true,
};

/**
 * The contract products. XAU/USD is the quotes demo's pair (seeded before); the others are added
 * here with a price a day ago, so Home shows a 24 h change. `tick` is each product's first bid/ask
 * (its mid is the price Home shows after seeding); `moved` a later one the seed trades against.
 */
export const DEMO_CONTRACT_PRODUCTS = [
  {
    symbol: 'EUR/USD',
    displayName: 'Euro',
    sortOrder: 40,
    dayAgo: '1.0821',
    settings: { ...FOREX, digits: 5, contractSize: '100000', leverages: [10, 50, 100, 200] },
    tick: { bid: '1.084930', ask: '1.085070' },
    moved: { bid: '1.086930', ask: '1.087070' },
  },
  {
    symbol: 'GBP/USD',
    displayName: 'Pound sterling',
    sortOrder: 50,
    dayAgo: '1.2688',
    settings: { ...FOREX, digits: 5, contractSize: '100000', leverages: [10, 50, 100, 200] },
    tick: { bid: '1.264930', ask: '1.265070' },
    moved: { bid: '1.264930', ask: '1.265070' },
  },
  {
    symbol: 'USD/JPY',
    displayName: 'US dollar / yen',
    sortOrder: 60,
    dayAgo: '149.20',
    settings: { ...FOREX, digits: 3, contractSize: '100000', leverages: [10, 50, 100, 200] },
    tick: { bid: '150.1140', ask: '150.1260' },
    moved: { bid: '150.1140', ask: '150.1260' },
  },
  {
    symbol: 'XAU/USD',
    displayName: 'Gold',
    sortOrder: 30,
    dayAgo: null,
    settings: { ...FOREX, digits: 2, contractSize: '100', leverages: [10, 20, 50] },
    tick: { bid: '2671.050', ask: '2671.350' },
    moved: { bid: '2675.050', ask: '2675.350' },
  },
] as const;

/**
 * Contracts in the demo (decision 034): EUR/USD, GBP/USD, USD/JPY and XAU/USD with contract settings
 * and a first tick; kim@custos.example holds three open orders (one partly closed) and has closed
 * orders by hand and by take-profit. The server replays the recorded ticks afterwards (main.ts), so
 * prices and P&L move. Nothing is done when a product already has contract settings.
 */
export async function seedContracts(demo: DemoContext): Promise<void> {
  const { services, financeOperatorId, origin } = demo;
  const { rootInviteCode } = await services.settings.get('registration');
  await demo.join(DEMO_CONTRACT_TRADER, rootInviteCode);
  await demo.creditOnce(DEMO_CONTRACT_TRADER, 'USDT', OPENING_USDT);
  if ((await services.contracts.watcher.contractProductIds()).size > 0) return;

  const actor = { operatorId: financeOperatorId, origin };
  const { products } = await services.quotes.adminQuotes();
  const ids = new Map<string, string>();
  for (const product of DEMO_CONTRACT_PRODUCTS) {
    let id = products.find((existing) => existing.symbol === product.symbol)?.id;
    if (!id) {
      id = (
        await services.quotes.createProduct(
          financeOperatorId,
          {
            symbol: product.symbol,
            displayName: product.displayName,
            sortOrder: product.sortOrder,
            enabled: true,
            source: 'manual',
          },
          origin,
        )
      ).id;
      if (product.dayAgo)
        await services.quotes.setManualPrice(financeOperatorId, id, product.dayAgo, origin, { ageMs: 25 * HOUR });
    }
    ids.set(product.symbol, id);
    await services.contracts.admin.updateProduct(actor, id, { ...product.settings, leverages: [...product.settings.leverages] });
  }
  const tick = async (which: 'tick' | 'moved', symbols: readonly string[]) => {
    await services.contracts.watcher.ingestTicks(
      DEMO_CONTRACT_PRODUCTS.filter((product) => symbols.includes(product.symbol)).map((product) => ({
        productId: ids.get(product.symbol)!,
        ...product[which],
      })),
      'replay',
    );
    await services.contracts.watcher.idle();
  };
  await tick(
    'tick',
    DEMO_CONTRACT_PRODUCTS.map((product) => product.symbol),
  );

  const kim = await demo.actAs(DEMO_CONTRACT_TRADER);
  const open = (symbol: string, body: Record<string, unknown>) =>
    services.contracts.trading.open(
      kim,
      contractOpenRequest.parse({ productId: ids.get(symbol), idempotencyKey: randomUUID(), ...body }),
    );
  const close = (orderId: string, lots?: string) =>
    services.contracts.trading.close(kim, { orderId, idempotencyKey: randomUUID(), ...(lots ? { lots } : {}) });

  // Closed by hand at once: the spread is the loss.
  const gbp = await open('GBP/USD', { side: 'buy', lots: '0.50', leverage: 100 });
  await close(gbp.id);
  // Closed by take-profit when gold moves up; then a sell closed by hand after EUR/USD moved up.
  await open('XAU/USD', { side: 'buy', lots: '0.10', leverage: 20, takeProfit: '2674.00' });
  const eurSell = await open('EUR/USD', { side: 'sell', lots: '0.20', leverage: 100 });
  await tick('moved', ['EUR/USD', 'XAU/USD']);
  await close(eurSell.id);
  await tick('tick', ['EUR/USD', 'XAU/USD']);
  // Open: a EUR/USD buy with targets, a gold sell with a stop-loss, a USD/JPY buy of which a third is closed.
  await open('EUR/USD', { side: 'buy', lots: '1.00', leverage: 100, takeProfit: '1.09500', stopLoss: '1.07500' });
  await open('XAU/USD', { side: 'sell', lots: '0.50', leverage: 20, takeProfit: '2600.00', stopLoss: '2720.00' });
  const jpy = await open('USD/JPY', { side: 'buy', lots: '0.30', leverage: 50 });
  await close(jpy.id, '0.10');
}
