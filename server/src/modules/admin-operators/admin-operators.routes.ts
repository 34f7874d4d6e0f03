import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminOperatorItem,
  adminOperatorsResponse,
  changeOperatorRoleRequest,
  createOperatorRequest,
  createOperatorResponse,
  envelopeOf,
  operatorIdParams,
  resetOperatorPasswordResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { AdminOperatorsService } from './admin-operators.service.js';

const tags = ['console: operators'];
const security = [{ operatorToken: [] }];

/** Operator accounts: super admins only (`operators.manage`); every change is audited. */
export const adminOperatorsRoutes: FastifyPluginAsyncZod<{ service: AdminOperatorsService; operators: OperatorService }> = async (
  app,
  { service, operators },
) => {
  const onRequest = requirePermission(operators, 'operators.manage');

  app.get(
    '/api/admin/operators',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Every operator: role, authenticator, disabled, last log-in',
        response: { 200: envelopeOf(adminOperatorsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.list()),
  );

  app.post(
    '/api/admin/operators',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Create an operator; answers its one-time password, shown only this once',
        body: createOperatorRequest,
        response: { 200: envelopeOf(createOperatorResponse) },
      },
    },
    async (request) => ok(request.locale, await service.create(sessionOf(request), request.body, originOf(request))),
  );

  app.post(
    '/api/admin/operators/:id/role',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Change the role (not one’s own; the last active super admin keeps it)',
        params: operatorIdParams,
        body: changeOperatorRoleRequest,
        response: { 200: envelopeOf(adminOperatorItem) },
      },
    },
    async (request) =>
      ok(request.locale, await service.setRole(sessionOf(request), request.params.id, request.body.role, originOf(request))),
  );

  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(
      `/api/admin/operators/:id/${action}`,
      {
        onRequest,
        schema: {
          tags,
          security,
          summary: disabled
            ? 'Disable the account (its sessions end; not one’s own, not the last active super admin)'
            : 'Enable a disabled account',
          params: operatorIdParams,
          response: { 200: envelopeOf(adminOperatorItem) },
        },
      },
      async (request) =>
        ok(request.locale, await service.setDisabled(sessionOf(request), request.params.id, disabled, originOf(request))),
    );
  }

  app.post(
    '/api/admin/operators/:id/reset_password',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'A new one-time password, shown only this once; the operator’s sessions end',
        params: operatorIdParams,
        response: { 200: envelopeOf(resetOperatorPasswordResponse) },
      },
    },
    async (request) =>
      ok(request.locale, {
        oneTimePassword: await service.resetPassword(sessionOf(request), request.params.id, originOf(request)),
      }),
  );

  app.post(
    '/api/admin/operators/:id/reset_totp',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Unbind the operator’s authenticator; sessions end and the next log-in binds a new one',
        params: operatorIdParams,
        response: { 200: envelopeOf(adminOperatorItem) },
      },
    },
    async (request) =>
      ok(request.locale, await service.resetAuthenticator(sessionOf(request), request.params.id, originOf(request))),
  );
};
