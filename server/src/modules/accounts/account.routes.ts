import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountListResponse,
  createSubAccountRequest,
  createSubAccountResponse,
  emptyResponse,
  envelopeOf,
  switchAccountRequest,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import type { AccountService } from './account.service.js';

const tags = ['member: accounts'];
const security = [{ memberToken: [] }];

export const accountRoutes: FastifyPluginAsyncZod<{ service: AccountService; auth: AuthService }> = async (
  app,
  { service, auth },
) => {
  const onRequest = requireMember(auth);

  app.get(
    '/api/account/list',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Main and sub-accounts, with the one in use',
        response: { 200: envelopeOf(accountListResponse) },
      },
    },
    async (request) => ok(request.locale, await service.list(memberOf(request))),
  );

  app.post(
    '/api/account/create_sub',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Create a sub-account',
        body: createSubAccountRequest,
        response: { 200: envelopeOf(createSubAccountResponse) },
      },
    },
    async (request) => ok(request.locale, { id: await service.createSub(memberOf(request), request.body.nickname) }),
  );

  app.post(
    '/api/account/switch',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Act for another of the member’s accounts',
        body: switchAccountRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.switchTo(memberOf(request), request.body.accountId);
      return ok(request.locale, null);
    },
  );
};
