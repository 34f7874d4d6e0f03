import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinanceTickerSource, DEFAULT_QUOTE_FEED_HOSTS, TickerError } from '../src/modules/quotes/binance-ticker.js';
import { FakeBinance } from './support/fake-binance.js';

let binance: FakeBinance;
/** A feed that never stops sending one JSON string: a client that reads it whole never finishes. */
let endless: Server;
let endlessUrl = '';
let endlessBytesSent = 0;
let endlessClosed: Promise<void>;

beforeAll(async () => {
  binance = new FakeBinance();
  await binance.start();
  binance.set('BTCUSDT', { lastPrice: '97000.12', priceChangePercent: '1.5', closeTime: Date.now() });
  let closed!: () => void;
  endlessClosed = new Promise<void>((resolve) => (closed = resolve));
  endless = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    response.write('["');
    const pump = () => {
      while (!response.destroyed && response.write(chunk)) endlessBytesSent += chunk.length;
      if (!response.destroyed) response.once('drain', pump);
    };
    response.on('close', closed);
    pump();
  });
  await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
  endlessUrl = `http://127.0.0.1:${(endless.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await binance.stop();
  endless.closeAllConnections();
  await new Promise<void>((resolve) => endless.close(() => resolve()));
});

describe('the Binance ticker client', () => {
  it('asks only the hosts it is configured with (default: Binance’s public API), never another', async () => {
    expect(DEFAULT_QUOTE_FEED_HOSTS).toContain('api.binance.com');
    expect(DEFAULT_QUOTE_FEED_HOSTS).not.toContain('127.0.0.1');
    const source = new BinanceTickerSource({ allowedHosts: DEFAULT_QUOTE_FEED_HOSTS });
    const before = binance.requests.length;
    const refused = source.fetch24h(binance.url, ['BTCUSDT'], 2000);
    await expect(refused).rejects.toBeInstanceOf(TickerError);
    await expect(refused).rejects.toThrow(/not an allowed feed host: 127\.0\.0\.1/);
    // Refused before anything was sent.
    expect(binance.requests.length).toBe(before);

    // A look-alike host and another scheme are refused the same way.
    await expect(source.fetch24h('https://api.binance.com.evil.example', ['BTCUSDT'], 2000)).rejects.toThrow(
      /not an allowed feed host/,
    );
    await expect(source.fetch24h('file:///etc/passwd', ['BTCUSDT'], 2000)).rejects.toThrow(/not an allowed feed/);
  });

  it('asks a configured host (loopback, as the tests configure it)', async () => {
    const source = new BinanceTickerSource({ allowedHosts: ['127.0.0.1'] });
    const answer = await source.fetch24h(binance.url, ['BTCUSDT'], 2000);
    expect(answer.quotes.map((quote) => [quote.symbol, quote.lastPrice])).toEqual([['BTCUSDT', '97000.12']]);
  });

  it('stops reading an answer once it passes the size limit, without waiting for its end', async () => {
    const source = new BinanceTickerSource({ allowedHosts: ['127.0.0.1'] });
    // The feed never ends its answer: reading it whole would only end at the time-out.
    const failure = source.fetch24h(endlessUrl, ['BTCUSDT'], 8000);
    await expect(failure).rejects.toThrow('answer too large');
    await endlessClosed;
    // The client hung up a little past the 1 MiB limit (socket buffers aside), not at the time-out.
    expect(endlessBytesSent).toBeLessThan(16 * 1024 * 1024);
  });
});
