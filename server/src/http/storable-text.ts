import type { FastifyInstance } from 'fastify';
import { BusinessCode, findUnstorableText, type Envelope } from '@custos/contract';
import { validationMessage } from './error-handler.js';

/**
 * Every call, present and future, refuses text PostgreSQL cannot store (NUL, a lone surrogate) in its
 * path, query or body before its own schema runs: one check at the boundary instead of one per field,
 * so a schema that forgets it cannot let such text reach a query or an audit record (decision 018).
 */
export function registerStorableTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const parts = [request.params, request.query, request.body] as const;
    for (const part of parts) {
      const path = findUnstorableText(part);
      if (!path) continue;
      const body: Envelope<null> = {
        code: BusinessCode.BAD_REQUEST,
        message: validationMessage(request.locale, [
          { keyword: 'custom', instancePath: path.map((segment) => `/${segment}`).join(''), message: 'text_unstorable' },
        ]),
        data: null,
      };
      return reply.code(400).type('application/json; charset=utf-8').send(body);
    }
    return undefined;
  });
}
