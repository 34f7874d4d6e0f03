import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelopeOf, pageQuery, transferListResponse, transferRequest, transferResponse } from '@custos/contract';
import { ok } from '../../http/envelope.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import type { TransferService } from './transfer.service.js';

const tags = ['member: accounts'];
const security = [{ memberToken: [] }];

export const transferRoutes: FastifyPluginAsyncZod<{ service: TransferService; auth: AuthService }> = async (
  app,
  { service, auth },
) => {
  const onRequest = requireMember(auth);

  app.post(
    '/api/account/transfer',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Transfer USDT or RAB to another of the member’s accounts (trading password; idempotent per key)',
        body: transferRequest,
        response: { 200: envelopeOf(transferResponse) },
      },
    },
    async (request) => ok(request.locale, await service.transfer(memberOf(request), request.body)),
  );

  app.get(
    '/api/account/transfer_list',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Transfers into and out of the account in use, newest first',
        querystring: pageQuery,
        response: { 200: envelopeOf(transferListResponse) },
      },
    },
    async (request) => ok(request.locale, await service.list(memberOf(request), request.query.page, request.query.pageSize)),
  );
};
