/** One server-sent event as the member app reads it. */
export interface SseFrame {
  id: string | undefined;
  event: string;
  data: string;
}

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
  let buffer = '';
  const flush = () => {
    while (frames.length > 0 && waiters.length > 0) waiters.shift()!.resolve(frames.shift()!);
    if (done) while (waiters.length > 0) waiters.shift()!.reject(new Error('the stream ended'));
  };
  const parse = (block: string) => {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) frames.push({ id, event, data: data.join('\n') });
  };
  const ended = (async () => {
    if (!response.body) return;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
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
