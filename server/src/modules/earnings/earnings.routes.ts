import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  aiInfoQuery,
  aiInfoResponse,
  aiReceiveResponse,
  dividendDayParams,
  dividendPoolsResponse,
  envelopeOf,
  incomeLogQuery,
  incomeLogResponse,
  incomeTypeListResponse,
  setDividendPoolRequest,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { EarningsService } from './earnings.service.js';

const tags = ['member: earnings'];
const security = [{ memberToken: [] }];
const operatorSecurity = [{ operatorToken: [] }];

export const earningsRoutes: FastifyPluginAsyncZod<{
  service: EarningsService;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, auth, operators }) => {
  const member = { onRequest: requireMember(auth) };
  app.get(
    '/api/ai/info',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'AI dividend: claimable, claimed, validity and release records',
        querystring: aiInfoQuery,
        response: { 200: envelopeOf(aiInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.info(memberOf(request), request.query.page, request.query.pageSize)),
  );
  app.post(
    '/api/ai/receive',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Claim every claimable dividend share into cash',
        response: { 200: envelopeOf(aiReceiveResponse) },
      },
    },
    async (request) => ok(request.locale, await service.receive(memberOf(request))),
  );
  app.get(
    '/api/income/log',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Every earning with its type, state and source, newest first',
        querystring: incomeLogQuery,
        response: { 200: envelopeOf(incomeLogResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.income(memberOf(request), request.query.type, request.query.page, request.query.pageSize)),
  );
  app.get(
    '/api/income/type_list',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Income types (and which exist yet)',
        response: { 200: envelopeOf(incomeTypeListResponse) },
      },
    },
    async (request) => ok(request.locale, service.typeList()),
  );

  app.get(
    '/api/admin/dividend/pools',
    {
      onRequest: requirePermission(operators, 'ledger.read'),
      schema: {
        tags: ['console: earnings'],
        security: operatorSecurity,
        summary: 'AI dividend pools per day, shared and claimed',
        response: { 200: envelopeOf(dividendPoolsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.pools()),
  );
  app.put(
    '/api/admin/dividend/pools/:day',
    {
      onRequest: requirePermission(operators, 'hosting.manage'),
      schema: {
        tags: ['console: earnings'],
        security: operatorSecurity,
        summary: "Set a day's pool before its settlement shares it (audited)",
        params: dividendDayParams,
        body: setDividendPoolRequest,
        response: { 200: envelopeOf(dividendPoolsResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.setPool(sessionOf(request).operator.id, request.params.day, request.body.amount, originOf(request)),
      ),
  );
  app.delete(
    '/api/admin/dividend/pools/:day',
    {
      onRequest: requirePermission(operators, 'hosting.manage'),
      schema: {
        tags: ['console: earnings'],
        security: operatorSecurity,
        summary: "Remove a day's pool that has not been shared out (audited)",
        params: dividendDayParams,
        response: { 200: envelopeOf(dividendPoolsResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.removePool(sessionOf(request).operator.id, request.params.day, originOf(request))),
  );
};
