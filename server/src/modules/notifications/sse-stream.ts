import type { FastifyReply, FastifyRequest } from 'fastify';
import { LIVE_RETRY_MS } from '@custos/contract';
import type { ChannelHolder, EventHub } from './event-hub.js';

/** A resumable position: a positive event id (anything else starts the channel afresh). */
const EVENT_ID_PATTERN = /^\d{1,19}$/;

/**
 * Answers a request with a live channel of `hub` for `key` (text/event-stream). Read with fetch,
 * never EventSource, so the session token travels in `Authorization` (decisions 022, 029); a
 * `Last-Event-ID` header resumes after a drop.
 */
export async function serveEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  hub: EventHub,
  key: string,
  holder: ChannelHolder,
): Promise<void> {
  const header = request.headers['last-event-id'];
  const lastEventId = typeof header === 'string' && EVENT_ID_PATTERN.test(header.trim()) ? header.trim() : undefined;
  const raw = reply.raw;
  reply.hijack();
  // The security headers helmet put on the reply go out with the stream's own.
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
    'x-request-id': request.id,
  });
  // Nothing is sent before the channel is registered (headers go out with its first frame), so
  // once the app sees the answer, every later event reaches it.
  let closed = false;
  let end: () => void;
  try {
    end = await hub.open(key, holder, lastEventId, {
      write: (text) => {
        if (!closed) raw.write(text);
      },
      bufferedBytes: () => raw.writableLength,
      close: () => {
        if (closed) return;
        closed = true;
        raw.end();
      },
    });
  } catch (error) {
    // The app sees the stream end at once and tries again after its pause.
    request.log.warn({ err: error }, 'live events: cannot open a channel');
    raw.end();
    return;
  }
  if (!closed) raw.write(`retry: ${LIVE_RETRY_MS}\n\n`);
  const onGone = () => {
    closed = true;
    end();
  };
  raw.on('close', onGone);
  raw.on('error', onGone);
  if (raw.destroyed) onGone();
}
