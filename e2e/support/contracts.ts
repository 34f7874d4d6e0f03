import { expect, type APIRequestContext } from '@playwright/test';
import { ALWAYS_OPEN_SESSIONS, type ContractProductSettings } from '@custos/contract';
import type { TestMember, TestOperator } from './fixtures';

type Envelope<T> = { code: number; message: string; data: T };

async function call<T>(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  authorization: string,
  data?: object,
): Promise<T> {
  const response = await request.fetch(path, { method, headers: { authorization }, data });
  const envelope = (await response.json()) as Envelope<T>;
  expect(envelope.code, `${method} ${path}: ${envelope.message}`).toBe(200);
  return envelope.data;
}

/** A forex-style product of one test's own, open around the clock, quoted by hand. */
export interface TestContractProduct {
  id: string;
  symbol: string;
  /** The finance operator who made it (quotes.manage and contracts.manage) and quotes it. */
  operator: TestOperator;
  /** A second finance operator, who approves its quotes that need one (decision 050). */
  approver: TestOperator;
}

export const TEST_PRODUCT_SETTINGS: ContractProductSettings = {
  digits: 5,
  contractSize: '100000',
  leverages: [100],
  minLots: '0.01',
  lotStep: '0.01',
  maxLots: '10.00',
  spreadMarkupPoints: 0,
  sessions: ALWAYS_OPEN_SESSIONS,
  swapEnabled: false,
  swapLongPct: '0',
  swapShortPct: '0',
  tradingEnabled: true,
};

/**
 * A market product of the test's own (a random symbol quoted in USD, so P&L converts to USDT at par),
 * set up for contracts through the console's API by a finance operator, the way an operator does it:
 * no two tests trade on one product, so one test's quotes never move another's orders.
 */
export async function createContractProduct(
  request: APIRequestContext,
  operator: TestOperator,
  approver: TestOperator,
  settings: ContractProductSettings = TEST_PRODUCT_SETTINGS,
): Promise<TestContractProduct> {
  const letters = Array.from(crypto.getRandomValues(new Uint8Array(5)), (byte) => 'ABCDEFGHJKLMNPQRSTUVWXYZ'[byte % 24]).join('');
  const symbol = `E2E${letters}/USD`;
  const bearer = `Bearer ${operator.token}`;
  const product = await call<{ id: string }>(request, 'POST', '/api/admin/quotes/products', bearer, {
    symbol,
    displayName: `E2E ${letters}`,
    sortOrder: 9000,
    enabled: true,
    source: 'manual',
  });
  await call(request, 'PUT', `/api/admin/contracts/products/${product.id}`, bearer, settings);
  return { id: product.id, symbol, operator, approver };
}

/**
 * A tick: the operator's manual bid and ask through the console's API (the price watcher acts on it).
 * A quote that needs a second operator (a first price, or one outside the band: decision 050) is
 * approved by the product's approver.
 */
export async function quote(request: APIRequestContext, product: TestContractProduct, bid: string, ask: string): Promise<void> {
  const answer = await call<{ outcome: 'applied' | 'proposed'; proposal: { id: string } | null }>(
    request,
    'POST',
    `/api/admin/contracts/products/${product.id}/quote`,
    `Bearer ${product.operator.token}`,
    { bid, ask },
  );
  if (answer.outcome === 'applied') return;
  await call(
    request,
    'POST',
    `/api/admin/contracts/quote-proposals/${answer.proposal!.id}/approve`,
    `Bearer ${product.approver.token}`,
    {},
  );
}

/** Opens an order through the member API (the screens that do the same are tested in contracts.spec). */
export async function openOrderViaApi(
  request: APIRequestContext,
  member: TestMember,
  order: { productId: string; side: 'buy' | 'sell'; lots: string; leverage: number; takeProfit?: string; stopLoss?: string },
): Promise<{ id: string; orderNo: string }> {
  return call(request, 'POST', '/api/contracts/open', member.token, { ...order, idempotencyKey: crypto.randomUUID() });
}
