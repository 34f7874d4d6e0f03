import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminMailQuery, adminMailResponse, envelopeOf } from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { MailService } from './mail.service.js';

export const mailRoutes: FastifyPluginAsyncZod<{ service: MailService; operators: OperatorService }> = async (
  app,
  { service, operators },
) => {
  app.get(
    '/api/admin/mail',
    {
      onRequest: requirePermission(operators, 'mail.read'),
      schema: {
        tags: ['console: mail'],
        security: [{ operatorToken: [] }],
        summary: 'The mail outbox, newest first, codes masked (each read is audited)',
        querystring: adminMailQuery,
        response: { 200: envelopeOf(adminMailResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.outbox(
          { operatorId: sessionOf(request).operator.id, origin: originOf(request) },
          request.query.recipient,
          request.query.page,
          request.query.pageSize,
        ),
      ),
  );
};
