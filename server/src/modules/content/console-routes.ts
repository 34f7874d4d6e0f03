import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contentIdParams, emptyResponse, envelopeOf } from '@custos/contract';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { originOf, type RequestOrigin } from '../../http/origin.js';
import { sessionOf } from '../operators/operator.routes.js';

type App = Parameters<FastifyPluginAsyncZod>[0];

export const operatorSecurity = [{ operatorToken: [] }];
const savedResponse = z.object({ id: z.string() });

/**
 * The console's create, change and delete calls of one kind of content (decisions 026, 028):
 * `POST <path>`, `PUT <path>/:id`, `DELETE <path>/:id`, each behind the manager's permission and
 * answering the saved id (or nothing); the service audits each in its transaction.
 */
export function contentWriteRoutes<Body extends z.ZodType>(
  app: App,
  options: {
    path: string;
    /** "a banner", "a help article": the calls' summaries name it. */
    noun: string;
    /** What saving does besides auditing, for the summaries ("bodies sanitised"). */
    note?: string;
    body: Body;
    /** The permission check (requirePermission). */
    onRequest: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    tags: string[];
    save: (operatorId: string, id: string | null, body: z.output<Body>, origin: RequestOrigin) => Promise<string>;
    remove: (operatorId: string, id: string, origin: RequestOrigin) => Promise<void>;
  },
): void {
  const { path, noun, body, onRequest, tags, save, remove } = options;
  const audited = options.note ? `${options.note}; audited` : 'audited';
  const route = (summary: string, extra: object) => ({
    onRequest,
    schema: { tags, security: operatorSecurity, summary, ...extra },
  });

  app.post(path, route(`Create ${noun} (${audited})`, { body, response: { 200: envelopeOf(savedResponse) } }), async (request) =>
    ok(request.locale, {
      id: await save(sessionOf(request).operator.id, null, request.body as z.output<Body>, originOf(request)),
    }),
  );
  app.put(
    `${path}/:id`,
    route(`Change ${noun} (${audited})`, { params: contentIdParams, body, response: { 200: envelopeOf(savedResponse) } }),
    async (request) =>
      ok(request.locale, {
        id: await save(
          sessionOf(request).operator.id,
          (request.params as z.output<typeof contentIdParams>).id,
          request.body as z.output<Body>,
          originOf(request),
        ),
      }),
  );
  app.delete(
    `${path}/:id`,
    route(`Delete ${noun} (audited)`, { params: contentIdParams, response: { 200: envelopeOf(emptyResponse) } }),
    async (request) => {
      await remove(sessionOf(request).operator.id, (request.params as z.output<typeof contentIdParams>).id, originOf(request));
      return ok(request.locale, null);
    },
  );
}
