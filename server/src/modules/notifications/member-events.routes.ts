import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import type { MemberEventsService } from './member-events.service.js';
import { serveEventStream } from './sse-stream.js';

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
      await serveEventStream(request, reply, service, context.member.id, {
        holderId: context.member.id,
        sessionId: context.sessionId,
      });
    },
  );
};
