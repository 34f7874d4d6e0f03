import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  airdropCampaignSchema,
  airdropIdParams,
  airdropListQuery,
  airdropListResponse,
  airdropPreviewResponse,
  airdropRecipientsQuery,
  airdropRecipientsResponse,
  airdropRequest,
  envelopeOf,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { AirdropsService } from './airdrops.service.js';

const tags = ['console: airdrops'];
const security = [{ operatorToken: [] }];

export const airdropsRoutes: FastifyPluginAsyncZod<{ service: AirdropsService; operators: OperatorService }> = async (
  app,
  { service, operators },
) => {
  app.get(
    '/api/admin/airdrops',
    {
      onRequest: requirePermission(operators, 'members.read'),
      schema: {
        tags,
        security,
        summary: 'Airdrop campaigns, newest first, with how many recipients are paid',
        querystring: airdropListQuery,
        response: { 200: envelopeOf(airdropListResponse) },
      },
    },
    async (request) => ok(request.locale, await service.campaigns(request.query.page, request.query.pageSize)),
  );
  app.post(
    '/api/admin/airdrops/preview',
    {
      onRequest: requirePermission(operators, 'team.manage'),
      schema: {
        tags,
        security,
        summary: 'Who an airdrop would pay and the total, without saving it',
        body: airdropRequest,
        response: { 200: envelopeOf(airdropPreviewResponse) },
      },
    },
    async (request) => ok(request.locale, await service.preview(request.body)),
  );
  app.post(
    '/api/admin/airdrops',
    {
      onRequest: requirePermission(operators, 'team.manage'),
      schema: {
        tags,
        security,
        summary: 'Create an airdrop campaign of RAB, recipients fixed now, arriving at its time (audited)',
        body: airdropRequest,
        response: { 200: envelopeOf(airdropCampaignSchema) },
      },
    },
    async (request) => ok(request.locale, await service.create(sessionOf(request).operator.id, request.body, originOf(request))),
  );
  app.get(
    '/api/admin/airdrops/:id/recipients',
    {
      onRequest: requirePermission(operators, 'members.read'),
      schema: {
        tags,
        security,
        summary: "A campaign's recipients and whether each is paid",
        params: airdropIdParams,
        querystring: airdropRecipientsQuery,
        response: { 200: envelopeOf(airdropRecipientsResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.recipients(request.params.id, request.query.page, request.query.pageSize)),
  );
  app.post(
    '/api/admin/airdrops/:id/cancel',
    {
      onRequest: requirePermission(operators, 'team.manage'),
      schema: {
        tags,
        security,
        summary: 'Cancel a campaign before it arrives (audited); refused once it is arriving or has arrived',
        params: airdropIdParams,
        response: { 200: envelopeOf(airdropCampaignSchema) },
      },
    },
    async (request) =>
      ok(request.locale, await service.cancel(sessionOf(request).operator.id, request.params.id, originOf(request))),
  );
};
