/** One server-sent event (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SseFrame {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Reads an event stream in whatever chunks it arrives: complete frames come out, a partial one
 * waits for the rest; comments (heartbeats) produce nothing, `retry:` is reported on its own.
 */
export class SseParser {
  private buffer = '';

  constructor(
    private readonly onFrame: (frame: SseFrame) => void,
    private readonly onRetry: (retryMs: number) => void = () => undefined,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.parse(block);
    }
  }

  private parse(block: string): void {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) this.onRetry(Number(value));
    }
    if (data.length > 0) this.onFrame({ id, event, data: data.join('\n') });
  }
}
