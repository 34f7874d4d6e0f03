import type { FastifyBaseLogger } from 'fastify';
import { CONTRACT_QUOTE_STREAM_EVENT, CONTRACT_QUOTE_STREAM_MAX_PER_S, type ContractQuoteEvent } from '@custos/contract';
import type { ChannelSink } from '../notifications/event-hub.js';

const HEARTBEAT_MS = 20_000;
const MAX_BUFFERED_BYTES = 64 * 1024;
const MAX_CHANNELS = 2000;

interface Channel {
  sessionId: string;
  sink: ChannelSink;
  sent: Map<string, string>;
}

export interface QuoteSource {
  latestQuotes(): Promise<{ productId: string; tickId: string; bid: string; ask: string; quotedAt: string }[]>;
}

/**
 * The members' live bid/ask (GET /api/contracts/quotes, decision 034). One poll of the last ticks per
 * instance, at most `CONTRACT_QUOTE_STREAM_MAX_PER_S` times a second and only while a channel is
 * open, fans out to every channel: each product's newest quote is sent when its tick changed (the
 * latest wins; every instance reads the same database, so it works behind any balancer). Quotes are
 * market prices, the same for every member.
 */
export class ContractQuoteStream {
  private readonly channels = new Set<Channel>();
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly source: QuoteSource,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /** Registers a channel; answers the function that ends it. */
  open(sessionId: string, sink: ChannelSink): () => void {
    if (this.channels.size >= MAX_CHANNELS) {
      sink.close();
      return () => undefined;
    }
    const channel: Channel = { sessionId, sink, sent: new Map() };
    this.channels.add(channel);
    this.start();
    void this.poll();
    return () => this.remove(channel);
  }

  private remove(channel: Channel): void {
    if (!this.channels.delete(channel)) return;
    channel.sink.close();
    if (this.channels.size === 0) this.stopTimers();
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), Math.ceil(1000 / CONTRACT_QUOTE_STREAM_MAX_PER_S));
    this.heartbeat = setInterval(() => {
      for (const channel of this.channels) channel.sink.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
  }

  private stopTimers(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.timer = undefined;
    this.heartbeat = undefined;
  }

  private async poll(): Promise<void> {
    if (this.polling || this.channels.size === 0) return;
    this.polling = true;
    try {
      const quotes = await this.source.latestQuotes();
      for (const channel of this.channels) {
        if (channel.sink.bufferedBytes() > MAX_BUFFERED_BYTES) {
          // A reader this far behind starts again (the app reconnects and gets the current quotes).
          this.remove(channel);
          continue;
        }
        for (const quote of quotes) {
          if (channel.sent.get(quote.productId) === quote.tickId) continue;
          channel.sent.set(quote.productId, quote.tickId);
          const data: ContractQuoteEvent = {
            productId: quote.productId,
            bid: quote.bid,
            ask: quote.ask,
            quotedAt: quote.quotedAt,
          };
          channel.sink.write(`event: ${CONTRACT_QUOTE_STREAM_EVENT}\nid: ${quote.tickId}\ndata: ${JSON.stringify(data)}\n\n`);
        }
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'contract quote stream poll failed');
    } finally {
      this.polling = false;
    }
  }

  closeAll(): void {
    for (const channel of [...this.channels]) this.remove(channel);
    this.stopTimers();
  }
}
