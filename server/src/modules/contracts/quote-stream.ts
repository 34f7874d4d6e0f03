import type { FastifyBaseLogger } from 'fastify';
import { CONTRACT_QUOTE_STREAM_EVENT, CONTRACT_QUOTE_STREAM_MAX_PER_S, type ContractQuoteEvent } from '@custos/contract';
import type { ChannelSink, EventStore } from '../notifications/event-hub.js';

/** Also how often the sessions of open streams are re-checked. */
const HEARTBEAT_MS = 20_000;
const MAX_BUFFERED_BYTES = 64 * 1024;
/** Streams one member may keep open on one instance; the member's own oldest gives way (decision 054). */
export const MAX_QUOTE_STREAMS_PER_MEMBER = 5;
/**
 * A safety bound on the instance's open streams, far above one member's share: past it a new stream
 * is refused (the app retries after its pause) and no open stream is closed for it.
 */
const MAX_CHANNELS = 10_000;

interface Channel {
  memberId: string;
  sessionId: string;
  sink: ChannelSink;
  sent: Map<string, string>;
}

/** The member and session a stream is opened for. */
export interface QuoteStreamHolder {
  memberId: string;
  sessionId: string;
}

/** Which sessions may still listen (not revoked, not expired, member not frozen). */
export type SessionCheck = Pick<EventStore, 'liveSessions'>;

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
  /** Each member's streams, oldest first, for the per-member cap. */
  private readonly members = new Map<string, Set<Channel>>();
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private polling = false;
  private checking = false;

  constructor(
    private readonly source: QuoteSource,
    private readonly logger: FastifyBaseLogger,
    private readonly sessions: SessionCheck,
  ) {}

  /**
   * Registers a channel; answers the function that ends it. A member over its cap loses its own
   * oldest stream; a full instance closes the new one at once.
   */
  open(holder: QuoteStreamHolder, sink: ChannelSink): () => void {
    const own = this.members.get(holder.memberId);
    if (own && own.size >= MAX_QUOTE_STREAMS_PER_MEMBER) {
      const oldest = own.values().next().value;
      if (oldest) this.remove(oldest);
    }
    if (this.channels.size >= MAX_CHANNELS) {
      sink.close();
      return () => undefined;
    }
    const channel: Channel = { memberId: holder.memberId, sessionId: holder.sessionId, sink, sent: new Map() };
    this.channels.add(channel);
    const set = this.members.get(holder.memberId) ?? new Set<Channel>();
    set.add(channel);
    this.members.set(holder.memberId, set);
    this.start();
    void this.poll();
    return () => this.remove(channel);
  }

  private remove(channel: Channel): void {
    if (!this.channels.delete(channel)) return;
    const set = this.members.get(channel.memberId);
    set?.delete(channel);
    if (set?.size === 0) this.members.delete(channel.memberId);
    channel.sink.close();
    if (this.channels.size === 0) this.stopTimers();
  }

  /** Closes every stream whose session ended (log-out, expiry, password reset, freeze). */
  async checkSessionsNow(): Promise<void> {
    const all = [...this.channels];
    if (this.checking || all.length === 0) return;
    this.checking = true;
    try {
      const live = await this.sessions.liveSessions([...new Set(all.map((channel) => channel.sessionId))]);
      for (const channel of all) if (!live.has(channel.sessionId)) this.remove(channel);
    } catch (error) {
      this.logger.warn({ err: error }, 'contract quote stream: session check failed');
    } finally {
      this.checking = false;
    }
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), Math.ceil(1000 / CONTRACT_QUOTE_STREAM_MAX_PER_S));
    this.heartbeat = setInterval(() => {
      for (const channel of this.channels) channel.sink.write(': keep-alive\n\n');
      void this.checkSessionsNow();
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
