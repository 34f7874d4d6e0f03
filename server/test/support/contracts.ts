import { randomUUID } from 'node:crypto';
import { ALWAYS_OPEN_SESSIONS, type ContractProductSettingsInput, type ManualContractQuoteResult } from '@custos/contract';
import { operatorToken } from './members.js';
import type { TestApp } from './test-app.js';

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

type Method = 'GET' | 'POST' | 'PUT';

/** A member call (session token as the app sends it). */
export async function memberCall<T = unknown>(
  t: TestApp,
  method: Method,
  url: string,
  token: string,
  payload?: object,
  lang = 'EN',
) {
  const response = await t.app.inject({ method, url, headers: { authorization: token, lang }, ...(payload ? { payload } : {}) });
  return response.json<Envelope<T>>();
}

/** A console call. */
export async function consoleCall<T = unknown>(t: TestApp, method: Method, url: string, token: string, payload?: object) {
  const response = await t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
  return response.json<Envelope<T>>();
}

export const EURUSD_SETTINGS: ContractProductSettingsInput = {
  digits: 5,
  contractSize: '100000',
  leverages: [10, 50, 100, 200],
  minLots: '0.01',
  lotStep: '0.01',
  maxLots: '50',
  spreadMarkupPoints: 0,
  sessions: ALWAYS_OPEN_SESSIONS,
  swapEnabled: false,
  swapLongPct: '-0.01',
  swapShortPct: '0.002',
  tradingEnabled: true,
};
export const USDJPY_SETTINGS: ContractProductSettingsInput = { ...EURUSD_SETTINGS, digits: 3 };
export const XAUUSD_SETTINGS: ContractProductSettingsInput = {
  ...EURUSD_SETTINGS,
  digits: 2,
  contractSize: '100',
  leverages: [10, 20, 50],
};

/** Lists a manual pair on the quotes screen and gives it contract settings; answers its id. */
export async function contractProduct(
  t: TestApp,
  operator: string,
  symbol: string,
  settings: ContractProductSettingsInput,
  sortOrder = 0,
): Promise<string> {
  const created = await consoleCall<{ id: string }>(t, 'POST', '/api/admin/quotes/products', operator, {
    symbol,
    displayName: symbol.replace('/', ''),
    sortOrder,
    enabled: true,
    source: 'manual',
  });
  if (created.code !== 200) throw new Error(`product ${symbol}: ${JSON.stringify(created)}`);
  const saved = await consoleCall(t, 'PUT', `/api/admin/contracts/products/${created.data.id}`, operator, settings);
  if (saved.code !== 200) throw new Error(`settings ${symbol}: ${JSON.stringify(saved)}`);
  return created.data.id;
}

/** Second operators who approve the helpers' quote proposals, one per test app (decision 050). */
const approvers = new WeakMap<TestApp, Promise<string>>();
function approverOf(t: TestApp): Promise<string> {
  let approver = approvers.get(t);
  if (!approver) {
    approver = operatorToken(t, `quote-approver-${randomUUID().slice(0, 8)}`, 'finance');
    approvers.set(t, approver);
  }
  return approver;
}

/**
 * An operator's bid/ask through the console's call; one that becomes a proposal (outside the band,
 * no recent independent price, or a live feed: decision 050) is approved by a second operator.
 * Answers once the tick is stored (not walked).
 */
export async function applyQuote(t: TestApp, operator: string, productId: string, bid: string, ask: string): Promise<void> {
  const answer = await consoleCall<ManualContractQuoteResult>(
    t,
    'POST',
    `/api/admin/contracts/products/${productId}/quote`,
    operator,
    {
      bid,
      ask,
    },
  );
  if (answer.code !== 200) throw new Error(`quote: ${JSON.stringify(answer)}`);
  if (answer.data.outcome === 'applied') return;
  const approved = await consoleCall(
    t,
    'POST',
    `/api/admin/contracts/quote-proposals/${answer.data.proposal!.id}/approve`,
    await approverOf(t),
    {},
  );
  if (approved.code !== 200) throw new Error(`quote approval: ${JSON.stringify(approved)}`);
}

/** An operator's bid/ask (approved by a second operator when it must be), walked by the watcher before this resolves. */
export async function setQuote(t: TestApp, operator: string, productId: string, bid: string, ask: string): Promise<void> {
  await applyQuote(t, operator, productId, bid, ask);
  await t.services.contracts.watcher.idle();
}
