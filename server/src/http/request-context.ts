import type { FastifyInstance } from 'fastify';
import { localeFromLangHeader, type Locale } from '@custos/contract';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's language, from the `lang` header (unknown or missing → zh-Hans). */
    locale: Locale;
  }
}

export function registerRequestContext(app: FastifyInstance): void {
  app.decorateRequest('locale', 'zh-Hans');
  app.addHook('onRequest', async (request, reply) => {
    request.locale = localeFromLangHeader(request.headers.lang);
    void reply.header('x-request-id', request.id);
  });
}
