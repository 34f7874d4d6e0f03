import { LIVE_RETRY_MS, SseParser, langHeaderFor } from '@custos/contract';
import { operatorToken } from './api';

/** Longest pause between attempts while the server cannot be reached. */
const MAX_RETRY_MS = 30_000;
/** The server sends a heartbeat every 20 s: this much silence means a dead connection. */
const SILENCE_LIMIT_MS = 45_000;

/**
 * A console live channel (decision 029): server-sent events read with fetch so the operator's token
 * goes in `Authorization`, resumed with `Last-Event-ID` after a drop, so an operator hears every
 * change whichever server instance it was made on. `parse` keeps the events the caller knows (null
 * for any other). Answers the function that closes it.
 */
export function openOperatorChannel<T>(options: {
  /** The channel's path under the site, e.g. `/api/admin/support/events`. */
  path: string;
  parse: (data: unknown) => T | null;
  onEvent: (event: T) => void;
  onOpen?: () => void;
}): () => void {
  const { path, parse, onEvent, onOpen = () => undefined } = options;
  let controller: AbortController | null = null;
  let lastEventId: string | undefined;
  let retryMs = LIVE_RETRY_MS;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const armSilence = (current: AbortController) => {
    clearTimeout(silenceTimer);
    silenceTimer = setTimeout(() => current.abort(), SILENCE_LIMIT_MS);
  };

  const connect = async (): Promise<void> => {
    const token = operatorToken.get();
    if (stopped || !token) return;
    const current = new AbortController();
    controller = current;
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      lang: langHeaderFor('en'),
      accept: 'text/event-stream',
    };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    try {
      armSilence(current);
      const response = await fetch(`..${path}`, { headers, signal: current.signal, cache: 'no-store' });
      // The session ended or the role lost the permission: the next call of the console deals with it.
      if (response.status === 401 || response.status === 403) return;
      if (!response.ok || !response.body) throw new Error(`live channel: HTTP ${response.status}`);
      const parser = new SseParser(
        (frame) => {
          if (frame.event === 'ready') {
            const ready = JSON.parse(frame.data) as { cursor?: unknown };
            if (typeof ready.cursor === 'string' && lastEventId === undefined) lastEventId = ready.cursor;
            failures = 0;
            onOpen();
            return;
          }
          if (frame.event !== 'event') return;
          if (frame.id) lastEventId = frame.id;
          const event = parse(JSON.parse(frame.data));
          if (event !== null) onEvent(event);
        },
        (ms) => {
          retryMs = ms;
        },
      );
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        armSilence(current);
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Dropped, aborted by the silence timer, or unreachable: opened again below.
    }
    clearTimeout(silenceTimer);
    if (stopped || controller !== current) return;
    const delayMs = Math.min(retryMs * 2 ** Math.min(failures, 4), MAX_RETRY_MS);
    failures += 1;
    retryTimer = setTimeout(() => void connect(), delayMs);
  };

  void connect();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearTimeout(silenceTimer);
    controller?.abort();
  };
}
