import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminDepositsQuery,
  adminDepositsResponse,
  adminWatchersResponse,
  envelopeOf,
  rechargeAddressQuery,
  rechargeAddressResponse,
  rechargeIndexResponse,
  rechargeListQuery,
  rechargeListResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { ChainService } from './chain.service.js';

const tags = ['member: recharge'];
const security = [{ memberToken: [] }];
const operatorSecurity = [{ operatorToken: [] }];

export const chainRoutes: FastifyPluginAsyncZod<{
  service: ChainService;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, auth, operators }) => {
  const onRequest = requireMember(auth);

  app.get(
    '/api/recharge/recharge',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Networks open for deposits, the minimum and the confirmations needed',
        response: { 200: envelopeOf(rechargeIndexResponse) },
      },
    },
    async (request) => ok(request.locale, service.index()),
  );

  app.get(
    '/api/recharge/address',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: "The member's deposit address on a network (made on first request)",
        querystring: rechargeAddressQuery,
        response: { 200: envelopeOf(rechargeAddressResponse) },
      },
    },
    async (request) => ok(request.locale, await service.address(memberOf(request), request.query.network)),
  );

  app.get(
    '/api/recharge/list',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Deposits, newest first, including those below the minimum (never credited)',
        querystring: rechargeListQuery,
        response: { 200: envelopeOf(rechargeListResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.list(memberOf(request), request.query.network, request.query.page, request.query.pageSize),
      ),
  );

  const reader = requirePermission(operators, 'chain.read');

  app.get(
    '/api/admin/chain/deposits',
    {
      onRequest: reader,
      schema: {
        tags: ['console: chain'],
        security: operatorSecurity,
        summary: 'On-chain deposits of every member, with filters',
        querystring: adminDepositsQuery,
        response: { 200: envelopeOf(adminDepositsResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      return ok(request.locale, await service.adminDeposits(filter, page, pageSize));
    },
  );

  app.get(
    '/api/admin/chain/watchers',
    {
      onRequest: reader,
      schema: {
        tags: ['console: chain'],
        security: operatorSecurity,
        summary: "Each network's watcher: head, scanned block, lag, errors",
        response: { 200: envelopeOf(adminWatchersResponse) },
      },
    },
    async (request) => ok(request.locale, await service.watcherStatuses()),
  );
};
