import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminAuditQuery, adminAuditResponse, envelopeOf } from '@custos/contract';
import { ok } from '../../http/envelope.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import { requirePermission } from './operator.routes.js';
import type { OperatorService } from './operator.service.js';

/** The console's audit log: every operator action, read by those allowed `audit.read`. */
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
