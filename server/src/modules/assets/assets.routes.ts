import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  balanceLogQuery,
  balanceLogResponse,
  envelopeOf,
  fuelTicketLogQuery,
  fuelTicketLogResponse,
  userAssetsResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import type { AssetsService } from './assets.service.js';

const tags = ['member: assets'];
const security = [{ memberToken: [] }];

export const assetsRoutes: FastifyPluginAsyncZod<{ service: AssetsService; auth: AuthService }> = async (
  app,
  { service, auth },
) => {
  const onRequest = requireMember(auth);

  app.get(
    '/api/user/assets',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Total assets in USDT, cash and custody accounts, and balances of the account in use',
        response: { 200: envelopeOf(userAssetsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.assets(memberOf(request))),
  );

  app.get(
    '/api/user/balance_log',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'The balance log (blance_record): filter by asset and type, newest first',
        querystring: balanceLogQuery,
        response: { 200: envelopeOf(balanceLogResponse) },
      },
    },
    async (request) => ok(request.locale, await service.balanceLog(memberOf(request), request.query)),
  );

  app.get(
    '/api/user/fuel_ticket_log',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Fuel and ticket records (withdraw_record7): FUEL and TICKET movements, available and used, newest first',
        querystring: fuelTicketLogQuery,
        response: { 200: envelopeOf(fuelTicketLogResponse) },
      },
    },
    async (request) => ok(request.locale, await service.fuelTicketLog(memberOf(request), request.query)),
  );
};
