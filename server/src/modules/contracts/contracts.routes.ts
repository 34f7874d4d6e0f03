import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  LIVE_RETRY_MS,
  adminContractBookResponse,
  adminContractCloseRequest,
  adminContractCloseResponse,
  adminContractOrderParams,
  adminContractOrderResponse,
  adminContractOrdersQuery,
  adminContractOrdersResponse,
  adminContractProductParams,
  adminContractProductsResponse,
  adminContractSettingsResponse,
  contractCloseRequest,
  contractCloseResponse,
  contractClosedListQuery,
  contractClosedListResponse,
  contractOpenRequest,
  contractOpenResponse,
  contractOrderIdQuery,
  contractOrderInfoResponse,
  contractPendingInfoResponse,
  contractPendingListResponse,
  contractProductsResponse,
  contractSetTargetsRequest,
  contractSetTargetsResponse,
  envelopeOf,
  savedProductResponse,
  updateContractProductRequest,
  updateContractSettingsRequest,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { ContractQuoteStream } from './quote-stream.js';
import type { ContractsService } from './contracts.service.js';
import type { OperatorActor } from './model.js';

const memberSecurity = [{ memberToken: [] }];
const operatorSecurity = [{ operatorToken: [] }];
const memberTags = ['member: contracts'];
const consoleTags = ['console: contracts'];

function actorOf(request: FastifyRequest): OperatorActor {
  return { operatorId: sessionOf(request).operator.id, origin: originOf(request) };
}

/** Contract orders (decision 034): member calls under /api/contracts, the console's under /api/admin/contracts. */
export const contractsRoutes: FastifyPluginAsyncZod<{
  service: ContractsService;
  quoteStream: ContractQuoteStream;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, quoteStream, auth, operators }) => {
  const m = { onRequest: requireMember(auth) };
  const reader = { onRequest: requirePermission(operators, 'contracts.read') };
  const manager = { onRequest: requirePermission(operators, 'contracts.manage') };
  const memberSchema = { tags: memberTags, security: memberSecurity };
  const consoleSchema = { tags: consoleTags, security: operatorSecurity };
  app.addHook('preClose', async () => {
    quoteStream.closeAll();
  });

  // ── Member ──

  app.get(
    '/api/contracts/products',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Forex products for contracts: settings, bid/ask, daily change, hours, whether opening is possible now',
        response: { 200: envelopeOf(contractProductsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.catalog.products()),
  );
  app.get(
    '/api/contracts/pending_info',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Pending orders info: free and used margin, floating P&L, equity, margin level',
        response: { 200: envelopeOf(contractPendingInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.trading.pendingInfo(memberOf(request))),
  );
  app.get(
    '/api/contracts/pending_list',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Pending orders list: my open orders with live P&L',
        response: { 200: envelopeOf(contractPendingListResponse) },
      },
    },
    async (request) => ok(request.locale, await service.trading.pendingList(memberOf(request))),
  );
  app.get(
    '/api/contracts/closed_list',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'My closed orders (blance_record12), newest first',
        querystring: contractClosedListQuery,
        response: { 200: envelopeOf(contractClosedListResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, productId } = request.query;
      return ok(request.locale, await service.trading.closedList(memberOf(request), productId, page, pageSize));
    },
  );
  app.get(
    '/api/contracts/order_info',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'One of my orders',
        querystring: contractOrderIdQuery,
        response: { 200: envelopeOf(contractOrderInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.trading.orderInfo(memberOf(request), request.query.id)),
  );
  app.post(
    '/api/contracts/open',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Open an order at market (buy at ask, sell at bid); the margin is held',
        body: contractOpenRequest,
        response: { 200: envelopeOf(contractOpenResponse) },
      },
    },
    async (request) => ok(request.locale, await service.trading.open(memberOf(request), request.body)),
  );
  app.post(
    '/api/contracts/close',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Close an order at market, all or part (buy at bid, sell at ask)',
        body: contractCloseRequest,
        response: { 200: envelopeOf(contractCloseResponse) },
      },
    },
    async (request) => ok(request.locale, await service.trading.close(memberOf(request), request.body)),
  );
  app.post(
    '/api/contracts/set_targets',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Set or remove an open order’s take-profit and stop-loss',
        body: contractSetTargetsRequest,
        response: { 200: envelopeOf(contractSetTargetsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.trading.setTargets(memberOf(request), request.body)),
  );
  app.get(
    '/api/contracts/quotes',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Live bid/ask (text/event-stream): `quote` events, at most 4 a second per product',
      },
    },
    async (request, reply) => {
      const raw = reply.raw;
      reply.hijack();
      const headers: Record<string, string | number | string[]> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
      raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
        'x-request-id': request.id,
      });
      raw.write(`retry: ${LIVE_RETRY_MS}\n\n`);
      const context = memberOf(request);
      const end = quoteStream.open(
        { memberId: context.member.id, sessionId: context.sessionId },
        {
          write: (text) => {
            if (!raw.destroyed) raw.write(text);
          },
          bufferedBytes: () => raw.writableLength,
          close: () => raw.end(),
        },
      );
      raw.on('close', end);
      raw.on('error', end);
      if (raw.destroyed) end();
    },
  );

  // ── Console ──

  app.get(
    '/api/admin/contracts/settings',
    {
      ...reader,
      schema: { ...consoleSchema, summary: 'Contract settings', response: { 200: envelopeOf(adminContractSettingsResponse) } },
    },
    async (request) => ok(request.locale, await service.admin.adminSettings()),
  );
  app.put(
    '/api/admin/contracts/settings',
    {
      ...manager,
      schema: {
        ...consoleSchema,
        summary: 'Set the contract settings: on/off, stop-out and margin-call levels, staleness, open orders (audited)',
        body: updateContractSettingsRequest,
        response: { 200: envelopeOf(adminContractSettingsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.admin.updateSettings(actorOf(request), request.body)),
  );
  app.get(
    '/api/admin/contracts/products',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'Every market product with its contract settings and last quote',
        response: { 200: envelopeOf(adminContractProductsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.admin.adminProducts()),
  );
  app.put(
    '/api/admin/contracts/products/:id',
    {
      ...manager,
      schema: {
        ...consoleSchema,
        summary: 'Set a product’s contract settings (audited)',
        params: adminContractProductParams,
        body: updateContractProductRequest,
        response: { 200: envelopeOf(savedProductResponse) },
      },
    },
    async (request) => ok(request.locale, await service.admin.updateProduct(actorOf(request), request.params.id, request.body)),
  );
  app.get(
    '/api/admin/contracts/book',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'The live book: exposure per product, members at risk, the book account',
        response: { 200: envelopeOf(adminContractBookResponse) },
      },
    },
    async (request) => ok(request.locale, await service.admin.book()),
  );
  app.get(
    '/api/admin/contracts/orders',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'Contract orders: filter state, product, order number or e-mail',
        querystring: adminContractOrdersQuery,
        response: { 200: envelopeOf(adminContractOrdersResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      return ok(request.locale, await service.admin.adminOrders(filter, page, pageSize));
    },
  );
  app.get(
    '/api/admin/contracts/orders/:id',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'One contract order',
        params: adminContractOrderParams,
        response: { 200: envelopeOf(adminContractOrderResponse) },
      },
    },
    async (request) => ok(request.locale, await service.admin.adminOrder(request.params.id)),
  );
  app.post(
    '/api/admin/contracts/orders/:id/close',
    {
      ...manager,
      schema: {
        ...consoleSchema,
        summary: 'Close a member’s order at market with a reason (audited)',
        params: adminContractOrderParams,
        body: adminContractCloseRequest,
        response: { 200: envelopeOf(adminContractCloseResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.admin.adminClose(actorOf(request), request.params.id, request.body.reason)),
  );
};
