import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminExchangeSettingsResponse,
  envelopeOf,
  exchangeIndexResponse,
  exchangeListResponse,
  exchangeRequest,
  exchangeResponse,
  pageQuery,
  updateExchangeSettingsRequest,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { ExchangeService } from './exchange.service.js';

const tags = ['member: exchange'];
const security = [{ memberToken: [] }];
const operatorSecurity = [{ operatorToken: [] }];

export const exchangeRoutes: FastifyPluginAsyncZod<{
  service: ExchangeService;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, auth, operators }) => {
  const onRequest = requireMember(auth);

  app.get(
    '/api/exchange/index',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'The live RAB price, fee, minimums and spendable balances',
        response: { 200: envelopeOf(exchangeIndexResponse) },
      },
    },
    async (request) => ok(request.locale, await service.index(memberOf(request))),
  );

  app.get(
    '/api/exchange/list',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Exchange records, newest first',
        querystring: pageQuery,
        response: { 200: envelopeOf(exchangeListResponse) },
      },
    },
    async (request) => ok(request.locale, await service.list(memberOf(request), request.query.page, request.query.pageSize)),
  );

  app.post(
    '/api/exchange/exchange',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Exchange RAB ⇄ USDT at the quoted price (trading password; idempotent per key)',
        body: exchangeRequest,
        response: { 200: envelopeOf(exchangeResponse) },
      },
    },
    async (request) => ok(request.locale, await service.exchange(memberOf(request), request.body)),
  );

  const settingsReader = requirePermission(operators, 'ledger.read');
  const settingsWriter = requirePermission(operators, 'exchange.settings');

  app.get(
    '/api/admin/exchange/settings',
    {
      onRequest: settingsReader,
      schema: {
        tags: ['console: ledger'],
        security: operatorSecurity,
        summary: 'Exchange price, fee and minimums',
        response: { 200: envelopeOf(adminExchangeSettingsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.getSettings()),
  );

  app.put(
    '/api/admin/exchange/settings',
    {
      onRequest: settingsWriter,
      schema: {
        tags: ['console: ledger'],
        security: operatorSecurity,
        summary: 'Set the exchange price, fee and minimums (audited)',
        body: updateExchangeSettingsRequest,
        response: { 200: envelopeOf(adminExchangeSettingsResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.updateSettings(sessionOf(request).operator.id, request.body, originOf(request))),
  );
};
