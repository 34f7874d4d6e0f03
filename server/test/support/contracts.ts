import { ALWAYS_OPEN_SESSIONS, type ContractProductSettingsInput } from '@custos/contract';
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

/** An operator's bid/ask, walked by the watcher before this resolves. */
export async function setQuote(t: TestApp, operator: string, productId: string, bid: string, ask: string): Promise<void> {
  const answer = await consoleCall(t, 'POST', `/api/admin/contracts/products/${productId}/quote`, operator, { bid, ask });
  if (answer.code !== 200) throw new Error(`quote: ${JSON.stringify(answer)}`);
  await t.services.contracts.idle();
}
