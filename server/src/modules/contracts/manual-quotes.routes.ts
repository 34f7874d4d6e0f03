import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  adminContractProductParams,
  contractManualQuoteSettingsResponse,
  contractQuoteProposalParams,
  contractQuoteProposalResponse,
  contractQuoteProposalsQuery,
  contractQuoteProposalsResponse,
  decideContractQuoteProposalRequest,
  envelopeOf,
  manualContractQuoteRequest,
  manualContractQuoteResponse,
  updateContractManualQuoteSettingsRequest,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { OperatorActor } from './model.js';
import type { ManualQuotesService } from './manual-quotes.service.js';

const consoleSchema = { tags: ['console: contracts'], security: [{ operatorToken: [] }] };

function actorOf(request: FastifyRequest): OperatorActor {
  return { operatorId: sessionOf(request).operator.id, origin: originOf(request) };
}

/** Manual quotes on contract products and their four-eyes proposals (decision 050). */
export const manualQuotesRoutes: FastifyPluginAsyncZod<{ service: ManualQuotesService; operators: OperatorService }> = async (
  app,
  { service, operators },
) => {
  const reader = { onRequest: requirePermission(operators, 'contracts.read') };
  const manager = { onRequest: requirePermission(operators, 'contracts.manage') };

  app.post(
    '/api/admin/contracts/products/:id/quote',
    {
      ...manager,
      schema: {
        ...consoleSchema,
        summary: 'A manual bid/ask: applied at once within the band of an independent price, else proposed (audited)',
        params: adminContractProductParams,
        body: manualContractQuoteRequest,
        response: { 200: envelopeOf(manualContractQuoteResponse) },
      },
    },
    async (request) => ok(request.locale, await service.submit(actorOf(request), request.params.id, request.body)),
  );
  app.get(
    '/api/admin/contracts/quote-proposals',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'Manual quote proposals (pending: still open to a second operator)',
        querystring: contractQuoteProposalsQuery,
        response: { 200: envelopeOf(contractQuoteProposalsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.list(request.query.status)),
  );
  app.post(
    '/api/admin/contracts/quote-proposals/:id/approve',
    {
      ...manager,
      schema: {
        ...consoleSchema,
        summary: 'Approve another operator’s quote proposal: the quote applies (audited)',
        params: contractQuoteProposalParams,
        body: decideContractQuoteProposalRequest,
        response: { 200: envelopeOf(contractQuoteProposalResponse) },
      },
    },
    async (request) => ok(request.locale, await service.approve(actorOf(request), request.params.id, request.body.note)),
  );
  app.post(
    '/api/admin/contracts/quote-proposals/:id/reject',
    {
      ...manager,
      schema: {
        ...consoleSchema,
        summary: 'Reject another operator’s quote proposal (audited)',
        params: contractQuoteProposalParams,
        body: decideContractQuoteProposalRequest,
        response: { 200: envelopeOf(contractQuoteProposalResponse) },
      },
    },
    async (request) => ok(request.locale, await service.reject(actorOf(request), request.params.id, request.body.note)),
  );
  app.get(
    '/api/admin/contracts/manual-quotes/settings',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'The manual quote band, the reference’s age and proposals’ lifetime',
        response: { 200: envelopeOf(contractManualQuoteSettingsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.getSettings()),
  );
  app.put(
    '/api/admin/contracts/manual-quotes/settings',
    {
      ...manager,
      schema: {
        ...consoleSchema,
        summary: 'Set the manual quote band, the reference’s age and proposals’ lifetime (audited)',
        body: updateContractManualQuoteSettingsRequest,
        response: { 200: envelopeOf(contractManualQuoteSettingsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.updateSettings(actorOf(request), request.body)),
  );
};
