import { langHeaderFor, type MemberEvent } from '@custos/contract';
import { credential } from '../auth/credential';
import { currentLocale } from '../i18n/i18n';
import type * as EventSchemasModule from './event-schemas';
import { SseParser, type SseFrame } from './sse-parser';

type EventSchemas = typeof EventSchemasModule;

type Listener = (event: MemberEvent) => void;

/**
 * The pause before the first attempt again, until the server says otherwise (its `retry:`): the
 * contract's `LIVE_RETRY_MS` (a test keeps them equal), not imported from the contract's module,
 * which would bring the event schemas with the channel's code (decision 044).
 */
export const FIRST_RETRY_MS = 3000;
/** Longest pause between attempts while the server cannot be reached. */
const MAX_RETRY_MS = 30_000;
/**
 * The server sends a heartbeat every 20 s: a silence this long means the connection died without
 * saying so (a phone switching networks), and it is opened again.
 */
const SILENCE_LIMIT_MS = 45_000;

const listeners = new Set<Listener>();

let schemas: Promise<EventSchemas> | null = null;

/** The event schemas, fetched the first time a frame needs them (a failed fetch is tried again). */
function eventSchemas(): Promise<EventSchemas> {
  if (!schemas) {
    schemas = import('./event-schemas');
    schemas.catch(() => {
      schemas = null;
    });
  }
  return schemas;
}

/** Every live event, as it arrives; answers the unsubscribe. */
export function onLiveEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The member's one live channel (decision 022): server-sent events read with fetch, so the token
 * goes in `Authorization` and never in a URL; `connect-src 'self'` allows it. Kept open while a
 * member is logged in; after a drop it is opened again with `Last-Event-ID`, and the server sends
 * what was missed.
 */
class LiveChannel {
  private controller: AbortController | null = null;
  private lastEventId: string | undefined;
  /**
   * The frames of the open connection, read one after the other (the first waits for the schemas);
   * a new connection waits for them, so it resumes after the last event read.
   */
  private frames: Promise<void> = Promise.resolve();
  /**
   * The `ready` frame's data not read yet: the position it names is only needed to open the channel
   * again, so it waits for the schemas until then (or until an event comes first).
   */
  private unreadReady: string | null = null;
  private retryMs = FIRST_RETRY_MS;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private silenceTimer: ReturnType<typeof setTimeout> | undefined;
  private token: string | null = null;

  /** Follows the credential: open while logged in, closed (and forgotten) on log-out. */
  start(): () => void {
    this.follow(credential.get());
    const unsubscribe = credential.subscribe((token) => this.follow(token));
    return () => {
      unsubscribe();
      this.follow(null);
    };
  }

  private follow(token: string | null): void {
    if (token === this.token) return;
    this.stop();
    this.token = token;
    // Another member's session must not resume this one's position.
    this.lastEventId = undefined;
    this.unreadReady = null;
    this.failures = 0;
    if (token) void this.connect();
  }

  private stop(): void {
    clearTimeout(this.retryTimer);
    clearTimeout(this.silenceTimer);
    this.controller?.abort();
    this.controller = null;
  }

  private scheduleReconnect(): void {
    this.stop();
    if (!this.token) return;
    const delayMs = Math.min(this.retryMs * 2 ** Math.min(this.failures, 4), MAX_RETRY_MS);
    this.failures += 1;
    this.retryTimer = setTimeout(() => void this.connect(), delayMs);
  }

  private armSilenceTimer(controller: AbortController): void {
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => controller.abort(), SILENCE_LIMIT_MS);
  }

  private async connect(): Promise<void> {
    const token = this.token;
    if (!token) return;
    const controller = new AbortController();
    this.controller = controller;
    const headers: Record<string, string> = {
      Authorization: token,
      lang: langHeaderFor(currentLocale()),
      accept: 'text/event-stream',
    };
    try {
      // The previous connection's frames are read first: they move the position this one resumes at.
      await this.frames;
      const unreadReady = this.unreadReady;
      if (unreadReady !== null) {
        const schemas = await eventSchemas();
        if (this.controller !== controller) return;
        this.readReady(schemas, unreadReady);
      }
      if (this.controller !== controller) return;
      if (this.lastEventId) headers['Last-Event-ID'] = this.lastEventId;
      this.armSilenceTimer(controller);
      const response = await fetch('api/user/events', { headers, signal: controller.signal, cache: 'no-store' });
      // 401: the session is over; the next call of the app takes the member to log-in.
      if (response.status === 401) {
        this.stop();
        return;
      }
      if (!response.ok || !response.body) throw new Error(`live channel: HTTP ${response.status}`);
      const parser = new SseParser(
        (frame) => {
          if (frame.event === 'ready') {
            this.failures = 0;
            this.frames = this.frames.then(() => {
              if (this.controller === controller) this.unreadReady = frame.data;
            });
          }
          if (frame.event === 'event') this.frames = this.frames.then(() => this.readEvent(frame, controller));
        },
        (retryMs) => {
          this.retryMs = retryMs;
        },
      );
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.armSilenceTimer(controller);
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Dropped, aborted by the silence timer, or unreachable: opened again below.
    }
    if (this.controller === controller) this.scheduleReconnect();
  }

  private readReady(schemas: EventSchemas, data: string): void {
    this.unreadReady = null;
    const ready = schemas.memberChannelReady.safeParse(JSON.parse(data));
    if (ready.success) this.lastEventId = ready.data.cursor;
  }

  /** One event, in order: the listeners hear it, and the channel's position moves past it. */
  private async readEvent(frame: SseFrame, controller: AbortController): Promise<void> {
    let schemas: EventSchemas;
    try {
      schemas = await eventSchemas();
    } catch {
      // Not fetched (no connection): the channel is opened again, from the last position read.
      if (this.controller === controller) this.scheduleReconnect();
      return;
    }
    // An event of a connection closed meanwhile (log-out, another member) is dropped.
    if (this.controller !== controller) return;
    if (this.unreadReady !== null) this.readReady(schemas, this.unreadReady);
    const parsed = schemas.memberEvent.safeParse(JSON.parse(frame.data));
    if (frame.id) this.lastEventId = frame.id;
    // An event kind this build does not know yet (a newer server) is skipped, not fatal.
    if (!parsed.success) return;
    for (const listener of listeners) listener(parsed.data);
  }
}

const channel = new LiveChannel();

/** Starts the channel for the life of the app (App.tsx). */
export function startLiveChannel(): () => void {
  return channel.start();
}
