import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

/**
 * A local stand-in for Binance's public market data (no network here): `GET /api/v3/ticker/24hr`
 * with `symbols=["BTCUSDT",…]`, answered in the documented shape (an array of 24 h rolling-window
 * statistics with `symbol`, `priceChange`, `priceChangePercent`, `lastPrice`, `openTime`,
 * `closeTime`, …; numbers as strings, times in ms), and the documented error body
 * `{"code":-1121,"msg":"Invalid symbol."}` with HTTP 400 for a symbol it does not list.
 * Tests set prices and make it misbehave.
 */
export interface FakeTicker {
  lastPrice: string;
  priceChangePercent: string;
  /** ms since the epoch; the test's clock decides. */
  closeTime: number;
}

export type FakeBinanceMode = 'ok' | 'hang' | 'garbage' | 'partial' | 'server_error';

export class FakeBinance {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  readonly tickers = new Map<string, FakeTicker>();
  mode: FakeBinanceMode = 'ok';
  /** Every request's `symbols` parameter as sent. */
  readonly requests: string[] = [];
  url = '';

  set(symbol: string, ticker: FakeTicker): void {
    this.tickers.set(symbol, ticker);
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.answer(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method !== 'GET' || url.pathname !== '/api/v3/ticker/24hr') {
      this.send(response, 404, { code: -1000, msg: 'Not found' });
      return;
    }
    const raw = url.searchParams.get('symbols') ?? '';
    this.requests.push(raw);
    if (this.mode === 'hang') return; // headers never come; the client's time-out must end it
    if (this.mode === 'server_error') {
      this.send(response, 502, { code: -1001, msg: 'Internal error; unable to process your request. Please try again.' });
      return;
    }
    if (this.mode === 'garbage') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body>maintenance</body></html>');
      return;
    }
    let symbols: unknown;
    try {
      symbols = JSON.parse(raw);
    } catch {
      this.send(response, 400, { code: -1100, msg: "Illegal characters found in parameter 'symbols'." });
      return;
    }
    if (!Array.isArray(symbols) || symbols.some((symbol) => typeof symbol !== 'string')) {
      this.send(response, 400, { code: -1100, msg: "Illegal characters found in parameter 'symbols'." });
      return;
    }
    if (symbols.some((symbol) => !this.tickers.has(symbol as string))) {
      this.send(response, 400, { code: -1121, msg: 'Invalid symbol.' });
      return;
    }
    const items = (symbols as string[]).map((symbol, index) => {
      const ticker = this.tickers.get(symbol)!;
      const full = this.document(symbol, ticker);
      // 'partial': the first pair comes back whole, the others without a price or with a broken one.
      if (this.mode === 'partial' && index > 0) {
        return index % 2 === 1 ? { ...full, lastPrice: undefined } : { ...full, lastPrice: 'NaN' };
      }
      return full;
    });
    this.send(response, 200, items);
  }

  /** Every field Binance documents for the FULL ticker, derived consistently from the test's values. */
  private document(symbol: string, ticker: FakeTicker) {
    return {
      symbol,
      priceChange: '0.00000000',
      priceChangePercent: ticker.priceChangePercent,
      weightedAvgPrice: ticker.lastPrice,
      prevClosePrice: ticker.lastPrice,
      lastPrice: ticker.lastPrice,
      lastQty: '0.01000000',
      bidPrice: ticker.lastPrice,
      bidQty: '1.00000000',
      askPrice: ticker.lastPrice,
      askQty: '1.00000000',
      openPrice: ticker.lastPrice,
      highPrice: ticker.lastPrice,
      lowPrice: ticker.lastPrice,
      volume: '1000.00000000',
      quoteVolume: '1000000.00000000',
      openTime: ticker.closeTime - 86_400_000,
      closeTime: ticker.closeTime,
      firstId: 1,
      lastId: 1000,
      count: 1000,
    };
  }

  private send(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
    response.end(JSON.stringify(body));
  }
}
