import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminQuotes, ForexProducts } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { QUOTES_FEED_JOB, jobHandlers } from '../src/jobs/handlers.js';
import { JobRunner } from '../src/jobs/runner.js';
import { createLogger } from '../src/lib/logger.js';
import { FakeBinance } from './support/fake-binance.js';
import { operatorToken } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

// The platform's clock: real time moved by an offset the tests advance.
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const HOUR = 3600_000;

let t: TestApp;
let binance: FakeBinance;
let finance: string;
let support: string;

beforeAll(async () => {
  binance = new FakeBinance();
  await binance.start();
  // Operator sessions outlive the days these tests move the clock through.
  t = await createTestApp({ OPERATOR_SESSION_TTL_HOURS: '720' }, { clock });
  finance = await operatorToken(t, 'finance-quotes', 'finance');
  support = await operatorToken(t, 'support-quotes', 'support');
});
afterAll(async () => {
  await t.close();
  await binance.stop();
});

type Method = 'GET' | 'POST' | 'PUT';
function operatorCall(method: Method, url: string, token: string, payload?: object, lang = 'EN') {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, lang },
    ...(payload ? { payload } : {}),
  });
}
async function dataOf<T>(response: Promise<{ json: <J>() => J }> | { json: <J>() => J }): Promise<T> {
  const body = (await response).json<{ code: number; message: string; data: T }>();
  expect(body, body.message).toMatchObject({ code: 200 });
  return body.data;
}
async function home(lang = 'EN'): Promise<ForexProducts> {
  return dataOf<ForexProducts>(t.app.inject({ method: 'GET', url: '/api/common/forex_products', headers: { lang } }));
}
async function homeItem(symbol: string) {
  return (await home()).items.find((item) => item.symbol === symbol);
}
async function addPair(symbol: string, source: 'manual' | 'feed', extra: object = {}): Promise<string> {
  return (
    await dataOf<{ id: string }>(
      operatorCall('POST', '/api/admin/quotes/products', finance, { symbol, displayName: symbol, source, ...extra }),
    )
  ).id;
}
async function setPrice(id: string, price: string) {
  return dataOf(operatorCall('POST', `/api/admin/quotes/products/${id}/price`, finance, { price }));
}
async function setFeed(
  settings: Partial<{ enabled: boolean; baseUrl: string; timeoutMs: number; staleAfterS: number; intervalS: number }>,
) {
  const current = (await dataOf<AdminQuotes>(operatorCall('GET', '/api/admin/quotes', finance))).feed;
  return dataOf(operatorCall('PUT', '/api/admin/quotes/feed', finance, { ...current, ...settings }));
}
async function count(table: 'market_products' | 'market_prices'): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  );
  return row!.n;
}
async function auditActions(): Promise<{ action: string; username: string }[]> {
  return queryRows(
    t.testDatabase.database.db,
    sql`select a.action, o.username from audit_log a join operators o on o.id = a.operator_id
        where a.action like 'quotes.%' order by a.id`,
  );
}
/** The job as pg-boss runs it (the handler registered under its name). */
async function runJob(): Promise<void> {
  const handler = jobHandlers(t.services).find((job) => job.name === QUOTES_FEED_JOB)!;
  await handler.run({});
}

describe('feed off by default', () => {
  it('makes no request while off, even when the job runs and a pair uses the feed', async () => {
    const admin = await dataOf<AdminQuotes>(operatorCall('GET', '/api/admin/quotes', finance));
    expect(admin.feed).toEqual({
      enabled: false,
      baseUrl: 'https://api.binance.com',
      timeoutMs: 5000,
      staleAfterS: 300,
      intervalS: 60,
    });
    await addPair('DOGE/USDT', 'feed', { enabled: true });
    await runJob();
    await runJob();
    expect(binance.requests).toEqual([]);
    const doge = await homeItem('DOGE/USDT');
    expect(doge).toMatchObject({ price: null, changePct24h: null, stale: false, ageS: null });
  });
});

describe('RAB/USDT follows the exchange price', () => {
  it('shows the exchange price first, and its change once the price moves', async () => {
    const rab = (await home()).items[0]!;
    expect(rab).toMatchObject({ symbol: 'RAB/USDT', source: 'exchange', price: '0.5', changePct24h: '0.00', stale: false });
    const settings = await t.services.exchange.getSettings();
    await t.services.exchange.updateSettings(
      (await queryRows<{ id: string }>(t.testDatabase.database.db, sql`select id from operators limit 1`))[0]!.id,
      { ...settings, rabPriceUsdt: '0.55' },
      { ip: '127.0.0.1', userAgent: null, requestId: 'test' },
    );
    expect(await homeItem('RAB/USDT')).toMatchObject({ price: '0.55', changePct24h: '10.00' });
    // Reading again, or the job on another instance, adds nothing.
    const rows = await count('market_prices');
    await home();
    await runJob();
    expect(await count('market_prices')).toBe(rows);
  });
});

describe('manual prices and the 24 h change', () => {
  beforeEach(() => {
    binance.mode = 'ok';
  });

  it('computes the change against the price in force 24 h earlier, kept as history', async () => {
    const id = await addPair('XAU/USD', 'manual', { displayName: 'Gold', sortOrder: 5 });
    expect(await homeItem('XAU/USD')).toMatchObject({ displayName: 'Gold', price: null, changePct24h: null });
    await setPrice(id, '2000');
    expect(await homeItem('XAU/USD')).toMatchObject({ price: '2000', changePct24h: '0.00', stale: false });
    offsetMs += 12 * HOUR;
    await setPrice(id, '2100.5');
    // Younger than a day: against its first price.
    expect(await homeItem('XAU/USD')).toMatchObject({ price: '2100.5', changePct24h: '5.03' });
    offsetMs += 13 * HOUR;
    // 25 h after the first price: 2000 was in force 24 h ago.
    expect(await homeItem('XAU/USD')).toMatchObject({ price: '2100.5', changePct24h: '5.03' });
    await setPrice(id, '1890.45');
    expect(await homeItem('XAU/USD')).toMatchObject({ price: '1890.45', changePct24h: '-5.48' });
    offsetMs += 12 * HOUR;
    // 24 h ago the price was 2100.5: (1890.45 − 2100.5) / 2100.5 = −10.00 %.
    expect(await homeItem('XAU/USD')).toMatchObject({ price: '1890.45', changePct24h: '-10.00', stale: false });
    // A manual price never goes stale.
    offsetMs += 72 * HOUR;
    expect(await homeItem('XAU/USD')).toMatchObject({ changePct24h: '0.00', stale: false, ageS: null });
  });

  it('hides a disabled pair from members and keeps the operator’s order', async () => {
    const hidden = await addPair('EUR/USD', 'manual', { sortOrder: 1, enabled: false });
    await setPrice(hidden, '1.0845');
    const symbols = (await home()).items.map((item) => item.symbol);
    expect(symbols).not.toContain('EUR/USD');
    expect(symbols.indexOf('RAB/USDT')).toBeLessThan(symbols.indexOf('XAU/USD'));
    await dataOf(
      operatorCall('PUT', `/api/admin/quotes/products/${hidden}`, finance, {
        symbol: 'EUR/USD',
        displayName: 'Euro',
        sortOrder: 1,
        enabled: true,
        source: 'manual',
      }),
    );
    expect(await homeItem('EUR/USD')).toMatchObject({ displayName: 'Euro', price: '1.0845' });
  });
});

describe('operator validation and rules', () => {
  it('refuses bad input in the operator’s language and stores nothing', async () => {
    const before = await count('market_products');
    const bad = await operatorCall('POST', '/api/admin/quotes/products', finance, {
      symbol: 'btc-usdt',
      displayName: 'Bitcoin',
      source: 'manual',
    });
    expect(bad.json()).toEqual({ code: 400, message: 'pair: must look like BTC/USDT (capital letters and digits)', data: null });
    const zh = await operatorCall(
      'POST',
      '/api/admin/quotes/products',
      finance,
      { symbol: 'BTC/USDT', displayName: '', source: 'manual' },
      'CN',
    );
    expect(zh.json()).toEqual({ code: 400, message: '请输入显示名称', data: null });
    const ja = await operatorCall(
      'POST',
      '/api/admin/quotes/products',
      finance,
      { symbol: 'BTC/USDT', displayName: 'x', source: 'exchange' },
      'JP',
    );
    const jaBody = ja.json<{ code: number; message: string }>();
    expect(jaBody.code).toBe(400);
    expect(jaBody.message).toContain('RAB/USDT は両替価格で決まります');
    const taken = await operatorCall('POST', '/api/admin/quotes/products', finance, {
      symbol: 'xau/usd',
      displayName: 'Gold',
      source: 'manual',
    });
    expect(taken.json()).toMatchObject({ message: 'The pair XAU/USD is already listed' });
    expect(await count('market_products')).toBe(before);

    const prices = await count('market_prices');
    const admin = await dataOf<AdminQuotes>(operatorCall('GET', '/api/admin/quotes', finance));
    const gold = admin.products.find((product) => product.symbol === 'XAU/USD')!;
    for (const price of ['0', '-1', '1.123456789', '1e5', 'abc']) {
      const refused = await operatorCall('POST', `/api/admin/quotes/products/${gold.id}/price`, finance, { price }, 'KO');
      expect(refused.json<{ code: number }>().code, price).toBe(400);
    }
    const ko = await operatorCall('POST', `/api/admin/quotes/products/${gold.id}/price`, finance, { price: '1.123456789' }, 'KO');
    expect(ko.json<{ message: string }>().message).toBe('가격: 0보다 크고 소수점 8자리 이하인 가격을 입력하세요');
    const doge = admin.products.find((product) => product.symbol === 'DOGE/USDT')!;
    expect(
      (await operatorCall('POST', `/api/admin/quotes/products/${doge.id}/price`, finance, { price: '1' })).json(),
    ).toMatchObject({
      code: 409,
      message: 'Only a pair priced by hand takes a manual price',
    });
    const rab = admin.products.find((product) => product.symbol === 'RAB/USDT')!;
    const rabToManual = await operatorCall('PUT', `/api/admin/quotes/products/${rab.id}`, finance, {
      symbol: 'RAB/USDT',
      displayName: 'RAB',
      sortOrder: 0,
      enabled: true,
      source: 'manual',
    });
    expect(rabToManual.json()).toMatchObject({ code: 400 });
    expect(await count('market_prices')).toBe(prices);

    const feed = await operatorCall('PUT', '/api/admin/quotes/feed', finance, {
      ...admin.feed,
      baseUrl: 'ftp://example.com',
      timeoutMs: 10,
    });
    expect(feed.json()).toMatchObject({ code: 400 });
    const th = await operatorCall('PUT', '/api/admin/quotes/feed', finance, { ...admin.feed, timeoutMs: 10 }, 'DE');
    expect(th.json<{ message: string }>().message).toBe('เวลาหมดอายุคำขอ: ตั้งแต่ 500 ถึง 30000 มิลลิวินาที');
    expect((await dataOf<AdminQuotes>(operatorCall('GET', '/api/admin/quotes', finance))).feed).toEqual(admin.feed);
  });

  it('refuses operators without the permission and callers without a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/quotes' })).json()).toMatchObject({ code: 401 });
    expect((await operatorCall('GET', '/api/admin/quotes', support)).json()).toMatchObject({ code: 403 });
    const before = await count('market_products');
    const refused = await operatorCall('POST', '/api/admin/quotes/products', support, {
      symbol: 'ETH/USDT',
      displayName: 'Ether',
      source: 'manual',
    });
    expect(refused.json()).toMatchObject({ code: 403 });
    expect((await operatorCall('PUT', '/api/admin/quotes/feed', support, { enabled: true })).json()).toMatchObject({ code: 403 });
    expect(await count('market_products')).toBe(before);
  });
});

describe('the ticker feed', () => {
  let btc: string;

  beforeAll(async () => {
    btc = await addPair('BTC/USDT', 'feed');
    await addPair('ETH/USDT', 'feed');
    binance.set('BTCUSDT', { lastPrice: '91234.56000000', priceChangePercent: '-1.236', closeTime: clock.now().getTime() });
    binance.set('ETHUSDT', { lastPrice: '3050.10000000', priceChangePercent: '2.500', closeTime: clock.now().getTime() });
    binance.set('DOGEUSDT', { lastPrice: '0.16543000', priceChangePercent: '0.004', closeTime: clock.now().getTime() });
    await setFeed({ enabled: true, baseUrl: binance.url, timeoutMs: 800, staleAfterS: 300, intervalS: 60 });
  });
  beforeEach(() => {
    binance.mode = 'ok';
  });

  it('prices every feed pair with one request per interval, on any number of instances', async () => {
    const before = binance.requests.length;
    // Two instances (two services on one database) run the job for the same minute.
    await Promise.all([runJob(), runJob()]);
    expect(binance.requests.length - before).toBe(1);
    expect(JSON.parse(binance.requests.at(-1)!)).toEqual(['BTCUSDT', 'DOGEUSDT', 'ETHUSDT']);
    expect(await homeItem('BTC/USDT')).toMatchObject({ source: 'feed', price: '91234.56', changePct24h: '-1.24', stale: false });
    expect(await homeItem('ETH/USDT')).toMatchObject({ price: '3050.1', changePct24h: '2.50' });
    expect(await homeItem('DOGE/USDT')).toMatchObject({ price: '0.16543', changePct24h: '0.00' });
    const status = (await dataOf<AdminQuotes>(operatorCall('GET', '/api/admin/quotes', finance))).feedStatus;
    expect(status).toMatchObject({ lastError: null, lastUpdated: 3 });
    // The same observation written again (a retried job) is one row.
    const rows = await count('market_prices');
    await dataOf(operatorCall('POST', '/api/admin/quotes/feed/fetch', finance));
    expect(await count('market_prices')).toBe(rows);
  });

  it('gives up on an answer that hangs after the time-out and keeps the last good value', async () => {
    binance.mode = 'hang';
    const started = Date.now();
    const result = await dataOf<{ fetched: boolean; updated: number; error: string }>(
      operatorCall('POST', '/api/admin/quotes/feed/fetch', finance),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result).toEqual({ fetched: true, updated: 0, error: 'no answer within 800 ms' });
    expect(await homeItem('BTC/USDT')).toMatchObject({ price: '91234.56', changePct24h: '-1.24', stale: false });
    const status = (await dataOf<AdminQuotes>(operatorCall('GET', '/api/admin/quotes', finance))).feedStatus;
    expect(status.lastError).toBe('no answer within 800 ms');
    expect(status.lastSuccessAt).not.toBeNull();
  });

  it('takes no price from garbage, an error status, or the broken part of a partial answer', async () => {
    const rows = await count('market_prices');
    binance.mode = 'garbage';
    expect(await dataOf(operatorCall('POST', '/api/admin/quotes/feed/fetch', finance))).toMatchObject({
      updated: 0,
      error: 'HTTP 200: the answer is not JSON',
    });
    binance.mode = 'server_error';
    expect(await dataOf(operatorCall('POST', '/api/admin/quotes/feed/fetch', finance))).toMatchObject({
      updated: 0,
      error: 'HTTP 502: Internal error; unable to process your request. Please try again.',
    });
    expect(await count('market_prices')).toBe(rows);

    offsetMs += 30_000;
    binance.mode = 'partial';
    binance.set('BTCUSDT', { lastPrice: '92000.00000000', priceChangePercent: '0.5', closeTime: clock.now().getTime() });
    binance.set('DOGEUSDT', { lastPrice: '0.2', priceChangePercent: '1', closeTime: clock.now().getTime() });
    binance.set('ETHUSDT', { lastPrice: '3100', priceChangePercent: '1', closeTime: clock.now().getTime() });
    expect(await dataOf(operatorCall('POST', '/api/admin/quotes/feed/fetch', finance))).toEqual({
      fetched: true,
      updated: 1,
      error: 'missing or malformed: DOGEUSDT, ETHUSDT',
    });
    expect(await homeItem('BTC/USDT')).toMatchObject({ price: '92000', changePct24h: '0.50' });
    expect(await homeItem('ETH/USDT')).toMatchObject({ price: '3050.1', changePct24h: '2.50' });
    expect(await homeItem('DOGE/USDT')).toMatchObject({ price: '0.16543' });

    // An unknown symbol: Binance refuses the whole request; nothing changes, Home still answers.
    binance.mode = 'ok';
    binance.tickers.delete('ETHUSDT');
    expect(await dataOf(operatorCall('POST', '/api/admin/quotes/feed/fetch', finance))).toMatchObject({
      updated: 0,
      error: 'HTTP 400: Invalid symbol.',
    });
    binance.set('ETHUSDT', { lastPrice: '3100', priceChangePercent: '1', closeTime: clock.now().getTime() });
    // A close time far ahead of our clock is not a quote of now.
    binance.set('DOGEUSDT', { lastPrice: '9', priceChangePercent: '1', closeTime: clock.now().getTime() + 3 * HOUR });
    expect(await dataOf(operatorCall('POST', '/api/admin/quotes/feed/fetch', finance))).toMatchObject({
      updated: 2,
      error: 'missing or malformed: DOGEUSDT',
    });
    expect(await homeItem('DOGE/USDT')).toMatchObject({ price: '0.16543' });
  });

  it('shows a quote older than the staleness limit as stale, with its age, and fresh again after a fetch', async () => {
    binance.mode = 'hang';
    offsetMs += 301_000;
    await runJob();
    const stale = (await homeItem('BTC/USDT'))!;
    expect(stale).toMatchObject({ price: '92000', stale: true });
    expect(stale.ageS).toBeGreaterThan(300);
    // An unreachable feed never breaks Home.
    await setFeed({ baseUrl: 'http://127.0.0.1:9' });
    offsetMs += 61_000;
    await runJob();
    const status = (await dataOf<AdminQuotes>(operatorCall('GET', '/api/admin/quotes', finance))).feedStatus;
    expect(status.lastError).toMatch(/^unreachable: /);
    expect((await home('TW')).items.find((item) => item.id === btc)).toMatchObject({ price: '92000', stale: true });

    await setFeed({ baseUrl: binance.url });
    binance.mode = 'ok';
    binance.set('BTCUSDT', { lastPrice: '93000', priceChangePercent: '1.5', closeTime: clock.now().getTime() });
    offsetMs += 61_000;
    await runJob();
    expect(await homeItem('BTC/USDT')).toMatchObject({ price: '93000', changePct24h: '1.50', stale: false, ageS: null });
  });

  it('turned off again, makes no request and lets the prices go stale', async () => {
    await setFeed({ enabled: false });
    const before = binance.requests.length;
    offsetMs += 400_000;
    await runJob();
    expect(binance.requests.length).toBe(before);
    expect(await homeItem('BTC/USDT')).toMatchObject({ price: '93000', stale: true });
  });
});

describe('the job on pg-boss', () => {
  it('runs as the registered job, fetching once for its interval', async () => {
    await setFeed({ enabled: true });
    // Into a fresh interval, one second after it starts, so both runs below fall inside it however
    // slowly the machine runs them (a minute boundary between them would rightly fetch again).
    offsetMs += 61_000;
    offsetMs += 61_000 - ((Date.now() + offsetMs) % 60_000);
    binance.mode = 'ok';
    binance.set('BTCUSDT', { lastPrice: '94000', priceChangePercent: '2', closeTime: clock.now().getTime() });
    const runner = new JobRunner({
      database: t.testDatabase.database,
      logger: createLogger('silent'),
      timeZone: 'Asia/Shanghai',
      pollingIntervalS: 0.5,
    });
    // The handler main registers, without its cron (the test sends each run itself).
    const handler = jobHandlers(t.services).find((job) => job.name === QUOTES_FEED_JOB)!;
    runner.register({ name: handler.name, retryLimit: 0, run: () => handler.run({}) });
    await runner.start();
    try {
      const before = binance.requests.length;
      await runner.send(QUOTES_FEED_JOB);
      await expect.poll(async () => (await runner.countJobs(QUOTES_FEED_JOB)).completed, { timeout: 15_000 }).toBeGreaterThan(0);
      // A second run in the same interval (a retry, or another instance) asks nothing more.
      await runner.send(QUOTES_FEED_JOB);
      await expect.poll(async () => (await runner.countJobs(QUOTES_FEED_JOB)).completed, { timeout: 15_000 }).toBeGreaterThan(1);
      expect(binance.requests.length - before).toBe(1);
      expect(await homeItem('BTC/USDT')).toMatchObject({ price: '94000', changePct24h: '2.00', stale: false });
    } finally {
      await runner.stop(1000);
    }
  });
});

describe('audit', () => {
  it('records every change with its operator', async () => {
    const actions = await auditActions();
    const kinds = new Set(actions.map((entry) => entry.action));
    expect(kinds).toEqual(
      new Set([
        'quotes.product_created',
        'quotes.product_updated',
        'quotes.price_set',
        'quotes.feed_updated',
        'quotes.feed_fetched',
      ]),
    );
    expect(actions.every((entry) => entry.username === 'finance-quotes')).toBe(true);
  });
});
