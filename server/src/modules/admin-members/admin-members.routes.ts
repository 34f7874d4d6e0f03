import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminMemberDetail,
  adminMembersQuery,
  adminMembersResponse,
  emptyResponse,
  envelopeOf,
  freezeMemberRequest,
  memberIdParams,
  resetMemberPasswordResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { AdminMembersService } from './admin-members.service.js';

const tags = ['console: members'];
const security = [{ operatorToken: [] }];

export const adminMembersRoutes: FastifyPluginAsyncZod<{ service: AdminMembersService; operators: OperatorService }> = async (
  app,
  { service, operators },
) => {
  app.get(
    '/api/admin/members',
    {
      onRequest: requirePermission(operators, 'members.read'),
      schema: {
        tags,
        security,
        summary: 'Search members',
        querystring: adminMembersQuery,
        response: { 200: envelopeOf(adminMembersResponse) },
      },
    },
    async (request) => ok(request.locale, await service.list(request.query.query, request.query.page, request.query.pageSize)),
  );

  app.get(
    '/api/admin/members/:id',
    {
      onRequest: requirePermission(operators, 'members.read'),
      schema: {
        tags,
        security,
        summary: 'A member with accounts, inviter and sessions',
        params: memberIdParams,
        response: { 200: envelopeOf(adminMemberDetail) },
      },
    },
    async (request) => ok(request.locale, await service.detail(request.params.id)),
  );

  for (const [action, frozen] of [
    ['freeze', true],
    ['unfreeze', false],
  ] as const) {
    app.post(
      `/api/admin/members/:id/${action}`,
      {
        onRequest: requirePermission(operators, 'members.freeze'),
        schema: {
          tags,
          security,
          summary: frozen ? 'Freeze log-in (ends every session)' : 'Unfreeze log-in',
          params: memberIdParams,
          body: freezeMemberRequest,
          response: { 200: envelopeOf(emptyResponse) },
        },
      },
      async (request) => {
        await service.setFrozen(sessionOf(request), request.params.id, frozen, request.body.reason, originOf(request));
        return ok(request.locale, null);
      },
    );
  }

  app.post(
    '/api/admin/members/:id/reset_password',
    {
      onRequest: requirePermission(operators, 'members.reset_password'),
      schema: {
        tags,
        security,
        summary: 'Set a temporary login password; the member must choose a new one (code 300)',
        params: memberIdParams,
        response: { 200: envelopeOf(resetMemberPasswordResponse) },
      },
    },
    async (request) => {
      const temporaryPassword = await service.resetPassword(sessionOf(request), request.params.id, originOf(request));
      return ok(request.locale, { temporaryPassword });
    },
  );

  app.post(
    '/api/admin/members/:id/reset_authenticator',
    {
      onRequest: requirePermission(operators, 'members.reset_authenticator'),
      schema: {
        tags,
        security,
        summary: 'Unbind the member’s authenticator',
        params: memberIdParams,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.resetAuthenticator(sessionOf(request), request.params.id, originOf(request));
      return ok(request.locale, null);
    },
  );
};
