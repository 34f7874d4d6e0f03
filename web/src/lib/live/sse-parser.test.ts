import { describe, expect, it } from 'vitest';
import { SseParser, type SseFrame } from './sse-parser';

describe('the event stream parser', () => {
  it('puts frames together across chunks, skips heartbeats and reports retry', () => {
    const frames: SseFrame[] = [];
    const retries: number[] = [];
    const parser = new SseParser(
      (frame) => frames.push(frame),
      (ms) => retries.push(ms),
    );
    parser.push('retry: 3000\n\nevent: ready\ndata: {"cursor":"7"}\n\n: heartbeat\n\nid: 8\nevent: ev');
    expect(frames).toEqual([{ id: undefined, event: 'ready', data: '{"cursor":"7"}' }]);
    parser.push('ent\ndata: {"a":1}\r\n\r\n');
    expect(frames.at(-1)).toEqual({ id: '8', event: 'event', data: '{"a":1}' });
    expect(frames).toHaveLength(2);
    expect(retries).toEqual([3000]);
  });
});
