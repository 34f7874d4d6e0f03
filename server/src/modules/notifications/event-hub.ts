import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';

/** One stored event as a channel reads it. */
export interface EventRow {
  id: string;
  kind: string;
  payload: unknown;
  created_at: string | Date;
}

/**
 * Where a hub reads its events from: an append-only table with an id cursor per key (a member, an
 * operators' topic), and the NOTIFY channel whose payload names the key that has news.
 */
export interface EventStore {
  readonly notifyChannel: string;
  /** The key's events after `afterId`, oldest first. */
  after(key: string, afterId: string, limit: number): Promise<EventRow[]>;
  /** The key's newest event id ("0" when none): a fresh channel starts after it. */
  latestId(key: string): Promise<string>;
  /** Which of these sessions may still listen (not revoked, not expired, still allowed). */
  liveSessions(sessionIds: readonly string[]): Promise<Set<string>>;
}

/** Where one open channel writes (an SSE response); the hub never holds more than this per channel. */
export interface ChannelSink {
  write(text: string): void;
  /** Bytes written but not yet taken by the socket. */
  bufferedBytes(): number;
  close(): void;
}

export interface ChannelOptions {
  /** Silence longer than this is broken by a comment line, so proxies and the socket time-out keep the channel. */
  heartbeatMs: number;
  /**
   * A channel whose reader falls this far behind is closed instead of buffering more: the app opens
   * it again from its last event id and loses nothing.
   */
  maxBufferedBytes: number;
  /**
   * Channels one holder (a member, an operator) may keep open on one instance, over all keys; the
   * holder's own oldest gives way, never another holder's (decision 054).
   */
  maxChannelsPerHolder: number;
  /**
   * A safety bound on the instance's open channels, far above any one holder's share: past it a new
   * channel is refused (the app retries after its pause) and no open channel is closed for it.
   */
  maxChannels: number;
  /** Events read per query while a channel catches up. */
  batchSize: number;
}

export const DEFAULT_CHANNEL_OPTIONS: ChannelOptions = {
  heartbeatMs: 20_000,
  maxBufferedBytes: 64 * 1024,
  maxChannelsPerHolder: 5,
  maxChannels: 10_000,
  batchSize: 100,
};

/** Who listens: the session re-checked on every heartbeat, and the holder its cap counts against. */
export interface ChannelHolder {
  /** The member's or operator's id. */
  holderId: string;
  sessionId: string;
}

/** Thrown by `open` when the instance holds `maxChannels` already. */
export class ChannelsFullError extends Error {
  constructor(label: string) {
    super(`${label}: the instance holds its most channels`);
  }
}

interface Channel {
  key: string;
  holderId: string;
  sessionId: string;
  cursor: bigint;
  sink: ChannelSink;
  /** A delivery is running; `again` asks it to look once more when it ends. */
  delivering: boolean;
  again: boolean;
  closed: boolean;
}

/** One SSE frame; `data` is a single JSON line, so it never holds a line break. */
function frame(event: string, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Live channels over a stored event log (decisions 022, 029): features store events in their own
 * transactions; each instance keeps its open channels and, told by a NOTIFY after commit (or by a
 * reconnect of its LISTEN connection), sends each channel what is newer than the last event it sent.
 * Nothing is kept in memory but the channels themselves, so any instance may serve any channel and a
 * channel resumes from its last id after a drop. Members' channels and the console's share this.
 */
export class EventHub {
  private readonly channels = new Map<string, Set<Channel>>();
  /** Each holder's channels, oldest first, for the per-holder cap. */
  private readonly holders = new Map<string, Set<Channel>>();
  private total = 0;
  private unlisten: (() => Promise<void>) | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(
    private readonly database: Database,
    private readonly store: EventStore,
    protected readonly logger: FastifyBaseLogger,
    readonly options: ChannelOptions = DEFAULT_CHANNEL_OPTIONS,
    /** Names the hub in logs ("member events", "operator events"). */
    private readonly label = 'events',
  ) {}

  /** Starts listening (once per instance); channels can be opened only after this. */
  async start(): Promise<void> {
    if (this.unlisten) return;
    this.unlisten = await this.database.listen(this.store.notifyChannel, (key) => {
      if (key === null) {
        for (const id of this.channels.keys()) this.deliverTo(id);
      } else if (this.channels.has(key)) {
        this.deliverTo(key);
      }
    });
    this.heartbeat = setInterval(() => void this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const set of [...this.channels.values()]) for (const channel of [...set]) this.close(channel);
    this.channels.clear();
    this.holders.clear();
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.();
  }

  get openChannels(): number {
    return this.total;
  }

  /**
   * Opens a channel: it first sends `ready` with the cursor it starts from, then every event of the
   * key after `lastEventId` (or, without one, after the newest event so far). Answers the function
   * that ends it (the response closed). A holder over its cap loses its own oldest channel; a full
   * instance refuses with `ChannelsFullError`.
   */
  async open(key: string, holder: ChannelHolder, lastEventId: string | undefined, sink: ChannelSink): Promise<() => void> {
    if (!this.unlisten) throw new Error(`${this.label}: start() was not called`);
    const cursor = lastEventId ?? (await this.store.latestId(key));
    const own = this.holders.get(holder.holderId);
    // The holder's own oldest makes room first, so a holder at its cap is never refused for a full instance.
    if (own && own.size >= this.options.maxChannelsPerHolder) {
      const oldest = own.values().next().value;
      if (oldest) this.close(oldest);
    }
    if (this.total >= this.options.maxChannels) throw new ChannelsFullError(this.label);
    const channel: Channel = {
      key,
      holderId: holder.holderId,
      sessionId: holder.sessionId,
      cursor: BigInt(cursor),
      sink,
      delivering: false,
      again: false,
      closed: false,
    };
    addTo(this.channels, key, channel);
    addTo(this.holders, holder.holderId, channel);
    this.total += 1;
    sink.write(frame('ready', { cursor }));
    // Whatever was committed before LISTEN saw this channel is read now.
    void this.deliver(channel);
    return () => this.close(channel);
  }

  private close(channel: Channel): void {
    if (channel.closed) return;
    channel.closed = true;
    removeFrom(this.channels, channel.key, channel);
    removeFrom(this.holders, channel.holderId, channel);
    this.total -= 1;
    channel.sink.close();
  }

  private deliverTo(key: string): void {
    for (const channel of this.channels.get(key) ?? []) void this.deliver(channel);
  }

  private async deliver(channel: Channel): Promise<void> {
    if (channel.delivering) {
      channel.again = true;
      return;
    }
    channel.delivering = true;
    try {
      do {
        channel.again = false;
        let rows: EventRow[];
        do {
          rows = await this.store.after(channel.key, channel.cursor.toString(), this.options.batchSize);
          for (const row of rows) {
            if (channel.closed) return;
            channel.sink.write(frame('event', toEvent(row), row.id));
            channel.cursor = BigInt(row.id);
          }
          if (channel.sink.bufferedBytes() > this.options.maxBufferedBytes) {
            // The reader is not keeping up: drop the channel rather than the events; it resumes from its id.
            this.close(channel);
            return;
          }
        } while (rows.length === this.options.batchSize && !channel.closed);
      } while (channel.again && !channel.closed);
    } catch (error) {
      this.logger.warn({ err: error, key: channel.key }, `${this.label}: delivery failed, closing the channel`);
      this.close(channel);
    } finally {
      channel.delivering = false;
    }
  }

  /** Keeps every channel alive and closes those whose session ended (log-out, expiry, freeze, password change). */
  private async beat(): Promise<void> {
    const all = [...this.channels.values()].flatMap((set) => [...set]);
    for (const channel of all) {
      if (channel.sink.bufferedBytes() > this.options.maxBufferedBytes) this.close(channel);
      else channel.sink.write(': heartbeat\n\n');
    }
    if (this.checking || all.length === 0) return;
    this.checking = true;
    try {
      const live = await this.store.liveSessions([...new Set(all.map((channel) => channel.sessionId))]);
      for (const channel of all) if (!live.has(channel.sessionId)) this.close(channel);
    } catch (error) {
      this.logger.warn({ err: error }, `${this.label}: session check failed`);
    } finally {
      this.checking = false;
    }
  }

  /** For tests and the heartbeat: run one beat now. */
  checkSessionsNow(): Promise<void> {
    return this.beat();
  }
}

function addTo(map: Map<string, Set<Channel>>, key: string, channel: Channel): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(channel);
}

function removeFrom(map: Map<string, Set<Channel>>, key: string, channel: Channel): void {
  const set = map.get(key);
  set?.delete(channel);
  if (set?.size === 0) map.delete(key);
}

function toEvent(row: EventRow) {
  return {
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    data: { kind: row.kind, ...(row.payload as Record<string, unknown>) },
  };
}
