import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LIVE_RETRY_MS } from '@custos/contract';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import type { MemberEventsService } from './member-events.service.js';

/** A resumable position: a positive event id (anything else starts the channel afresh). */
const EVENT_ID_PATTERN = /^\d{1,19}$/;

export const memberEventsRoutes: FastifyPluginAsyncZod<{ service: MemberEventsService; auth: AuthService }> = async (
  app,
  { service, auth },
) => {
  const member = requireMember(auth);
  await service.start();
  // Open channels are never idle, so the server would wait on them for ever: end them before it closes.
  app.addHook('preClose', async () => {
    await service.stop();
  });

  // The app reads this with fetch (not EventSource) so the session token travels in `Authorization`,
  // never in the URL, where logs and proxies would keep it (decision 022).
  app.get(
    '/api/user/events',
    {
      onRequest: member,
      schema: {
        tags: ['member: notifications'],
        security: [{ memberToken: [] }],
        summary:
          'Live notifications (text/event-stream): `ready` with the cursor, then `event` frames with ids; send `Last-Event-ID` to resume after a drop',
      },
    },
    async (request, reply) => {
      const context = memberOf(request);
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
        end = await service.open(context.member.id, context.sessionId, lastEventId, {
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
        request.log.warn({ err: error }, 'member events: cannot open a channel');
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
    },
  );
};
