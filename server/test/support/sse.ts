import { SseParser, type SseFrame } from '@custos/contract';

/** One server-sent event as the member app reads it. */
export type { SseFrame };

export interface SseStream {
  status: number;
  headers: Headers;
  /** The next frame (comments such as heartbeats are skipped); rejects when the stream ends first. */
  next(): Promise<SseFrame>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens the live channel as the app does: fetch with the token in `Authorization` (never in the
 * URL) and `Last-Event-ID` to resume; the body is read as it arrives.
 */
export async function openStream(
  baseUrl: string,
  token: string,
  lastEventId?: string,
  /** The member's channel, or the console's (`/api/admin/support/events`, token "Bearer …"). */
  path = '/api/user/events',
): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${path}`, {
    headers: { authorization: token, lang: 'EN', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: controller.signal,
  });
  const frames: SseFrame[] = [];
  const waiters: { resolve: (frame: SseFrame) => void; reject: (error: Error) => void }[] = [];
  let done = false;
  const flush = () => {
    while (frames.length > 0 && waiters.length > 0) waiters.shift()!.resolve(frames.shift()!);
    if (done) while (waiters.length > 0) waiters.shift()!.reject(new Error('the stream ended'));
  };
  // The app's own parser (from the contract), so the tests read frames exactly as the app does.
  const parser = new SseParser((frame) => frames.push(frame));
  const ended = (async () => {
    if (!response.body) return;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        parser.push(decoder.decode(value, { stream: true }));
        flush();
      }
    } catch {
      // Aborted by close(): the stream simply ends.
    } finally {
      done = true;
      flush();
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    next() {
      return new Promise<SseFrame>((resolve, reject) => {
        waiters.push({ resolve, reject });
        flush();
      });
    },
    ended,
    close() {
      controller.abort();
    },
  };
}
