import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminAuditQuery, adminAuditResponse, envelopeOf } from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { requirePermission } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { AuditRepository } from './audit.repository.js';

export const auditRoutes: FastifyPluginAsyncZod<{ repository: AuditRepository; operators: OperatorService }> = async (
  app,
  { repository, operators },
) => {
  app.get(
    '/api/admin/audit',
    {
      onRequest: requirePermission(operators, 'audit.read'),
      schema: {
        tags: ['console: audit'],
        security: [{ operatorToken: [] }],
        summary: 'The audit log of operator actions, newest first',
        querystring: adminAuditQuery,
        response: { 200: envelopeOf(adminAuditResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, action, targetId } = request.query;
      const { items, total } = await repository.list(
        { action: action || undefined, targetId: targetId || undefined },
        pageSize,
        (page - 1) * pageSize,
      );
      return ok(request.locale, {
        items: items.map(({ entry, operator }) => ({
          id: entry.id,
          operator,
          action: entry.action,
          targetType: entry.targetType,
          targetId: entry.targetId,
          before: entry.before,
          after: entry.after,
          ip: entry.ip,
          requestId: entry.requestId,
          createdAt: entry.createdAt.toISOString(),
        })),
        total,
        page,
        pageSize,
      });
    },
  );
};
