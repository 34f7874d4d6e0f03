import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminQuotesResponse,
  envelopeOf,
  forexProductsResponse,
  manualPriceRequest,
  marketProductParams,
  marketProductRequest,
  quoteFeedSettingsSchema,
  savedProductResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { QuotesService } from './quotes.service.js';

const operatorSecurity = [{ operatorToken: [] }];
const feedRunResponse = z.object({ fetched: z.boolean(), updated: z.number().int(), error: z.string().nullable() });

export const quotesRoutes: FastifyPluginAsyncZod<{ service: QuotesService; operators: OperatorService }> = async (
  app,
  { service, operators },
) => {
  // ── Member app (public: market prices, no member data) ─────────────────────────────────────

  app.get(
    '/api/common/forex_products',
    {
      schema: {
        tags: ['common'],
        summary: 'Forex product list: the quotes on Home (RAB/USDT and the operator’s pairs) with their 24 h change',
        response: { 200: envelopeOf(forexProductsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.forexProducts()),
  );

  // ── Console ────────────────────────────────────────────────────────────────────────────────

  const consoleRoute = { onRequest: requirePermission(operators, 'quotes.manage') };
  const tags = ['console: quotes'];

  app.get(
    '/api/admin/quotes',
    {
      ...consoleRoute,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Every pair with its quote, the feed settings and its last run',
        response: { 200: envelopeOf(adminQuotesResponse) },
      },
    },
    async (request) => ok(request.locale, await service.adminQuotes()),
  );

  app.post(
    '/api/admin/quotes/products',
    {
      ...consoleRoute,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'List a new pair (audited)',
        body: marketProductRequest,
        response: { 200: envelopeOf(savedProductResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.createProduct(sessionOf(request).operator.id, request.body, originOf(request))),
  );

  app.put(
    '/api/admin/quotes/products/:id',
    {
      ...consoleRoute,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Change a pair: name, order, shown, source (audited)',
        params: marketProductParams,
        body: marketProductRequest,
        response: { 200: envelopeOf(savedProductResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.updateProduct(sessionOf(request).operator.id, request.params.id, request.body, originOf(request)),
      ),
  );

  app.post(
    '/api/admin/quotes/products/:id/price',
    {
      ...consoleRoute,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Set a manual pair’s price, in force from now (audited)',
        params: marketProductParams,
        body: manualPriceRequest,
        response: { 200: envelopeOf(savedProductResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.setManualPrice(sessionOf(request).operator.id, request.params.id, request.body.price, originOf(request)),
      ),
  );

  app.put(
    '/api/admin/quotes/feed',
    {
      ...consoleRoute,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Ticker feed settings: on/off, address, time-out, staleness limit, interval (audited)',
        body: quoteFeedSettingsSchema,
        response: { 200: envelopeOf(quoteFeedSettingsSchema) },
      },
    },
    async (request) =>
      ok(request.locale, await service.updateFeed(sessionOf(request).operator.id, request.body, originOf(request))),
  );

  app.post(
    '/api/admin/quotes/feed/fetch',
    {
      ...consoleRoute,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Fetch the feed now, whether or not it is on (audited)',
        response: { 200: envelopeOf(feedRunResponse) },
      },
    },
    async (request) => ok(request.locale, await service.fetchNow(sessionOf(request).operator.id, originOf(request))),
  );
};
