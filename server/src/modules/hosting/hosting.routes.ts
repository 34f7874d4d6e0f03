import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminHostingOrdersQuery,
  adminHostingOrdersResponse,
  adminHostingPlansResponse,
  envelopeOf,
  hostingAutoRenewRequest,
  hostingConfigResponse,
  hostingCreateRequest,
  hostingLogQuery,
  hostingLogResponse,
  hostingOrderQuery,
  hostingOrderSchema,
  hostingOrdersResponse,
  hostingPlanIdParams,
  hostingPlanInput,
  hostingPlanSchema,
  hostingRedeemRequest,
  settlementDayParams,
  settlementRunSchema,
  settlementRunsResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { HostingService } from './hosting.service.js';
import type { SettlementService } from './settlement.service.js';

const tags = ['member: hosting'];
const security = [{ memberToken: [] }];
const consoleTags = ['console: hosting'];
const operatorSecurity = [{ operatorToken: [] }];

export const hostingRoutes: FastifyPluginAsyncZod<{
  service: HostingService;
  settlement: SettlementService;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, settlement, auth, operators }) => {
  const member = { onRequest: requireMember(auth) };

  app.get(
    '/api/hosting/config',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Custody plans, cash and custody balances, validity',
        response: { 200: envelopeOf(hostingConfigResponse) },
      },
    },
    async (request) => ok(request.locale, await service.config(memberOf(request))),
  );
  app.post(
    '/api/hosting/create',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Move USDT from cash into custody on a plan (trading password; idempotent per key)',
        body: hostingCreateRequest,
        response: { 200: envelopeOf(hostingOrderSchema) },
      },
    },
    async (request) => ok(request.locale, await service.create(memberOf(request), request.body)),
  );
  app.get(
    '/api/hosting/order',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'My custody orders, newest first',
        querystring: hostingOrderQuery,
        response: { 200: envelopeOf(hostingOrdersResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.orders(memberOf(request), request.query.status, request.query.page, request.query.pageSize),
      ),
  );
  app.post(
    '/api/hosting/sub',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Redeem early: the principal less the penalty back to cash',
        body: hostingRedeemRequest,
        response: { 200: envelopeOf(hostingOrderSchema) },
      },
    },
    async (request) =>
      ok(request.locale, await service.redeem(memberOf(request), request.body.orderId, request.body.tradePassword)),
  );
  app.post(
    '/api/hosting/auto_renew',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Turn auto-renew on or off',
        body: hostingAutoRenewRequest,
        response: { 200: envelopeOf(hostingOrderSchema) },
      },
    },
    async (request) =>
      ok(request.locale, await service.setAutoRenew(memberOf(request), request.body.orderId, request.body.autoRenew)),
  );
  app.get(
    '/api/hosting/operator_log',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: "An order's history: created, each day's interest, renewed, redeemed",
        querystring: hostingLogQuery,
        response: { 200: envelopeOf(hostingLogResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.log(memberOf(request), request.query.orderId, request.query.page, request.query.pageSize)),
  );

  // ── Console ──────────────────────────────────────────────────────────────────────────────────
  const reader = { onRequest: requirePermission(operators, 'ledger.read') };
  const manager = { onRequest: requirePermission(operators, 'hosting.manage') };

  app.get(
    '/api/admin/hosting/plans',
    {
      ...reader,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'All custody plans with their active orders',
        response: { 200: envelopeOf(adminHostingPlansResponse) },
      },
    },
    async (request) => ok(request.locale, await service.adminPlans()),
  );
  app.post(
    '/api/admin/hosting/plans',
    {
      ...manager,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Create a plan (audited)',
        body: hostingPlanInput,
        response: { 200: envelopeOf(hostingPlanSchema) },
      },
    },
    async (request) =>
      ok(request.locale, await service.createPlan(sessionOf(request).operator.id, request.body, originOf(request))),
  );
  app.put(
    '/api/admin/hosting/plans/:id',
    {
      ...manager,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Edit a plan: new orders and renewals take the new terms (audited)',
        params: hostingPlanIdParams,
        body: hostingPlanInput,
        response: { 200: envelopeOf(hostingPlanSchema) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.updatePlan(sessionOf(request).operator.id, request.params.id, request.body, originOf(request)),
      ),
  );
  for (const [action, status] of [
    ['retire', 'retired'],
    ['activate', 'active'],
  ] as const) {
    app.post(
      `/api/admin/hosting/plans/:id/${action}`,
      {
        ...manager,
        schema: {
          tags: consoleTags,
          security: operatorSecurity,
          summary: `${action === 'retire' ? 'Retire' : 'Reactivate'} a plan; its orders run on (audited)`,
          params: hostingPlanIdParams,
          response: { 200: envelopeOf(hostingPlanSchema) },
        },
      },
      async (request) =>
        ok(
          request.locale,
          await service.setPlanStatus(sessionOf(request).operator.id, request.params.id, status, originOf(request)),
        ),
    );
  }
  app.get(
    '/api/admin/hosting/orders',
    {
      ...reader,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: "Members' custody orders",
        querystring: adminHostingOrdersQuery,
        response: { 200: envelopeOf(adminHostingOrdersResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      return ok(request.locale, await service.adminOrders(filter, page, pageSize));
    },
  );
  app.get(
    '/api/admin/settlement/runs',
    {
      ...reader,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Daily settlement runs with counts and totals',
        response: { 200: envelopeOf(settlementRunsResponse) },
      },
    },
    async (request) => ok(request.locale, await settlement.runs()),
  );
  app.post(
    '/api/admin/settlement/runs/:day/rerun',
    {
      ...manager,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Run a failed (or missed) past day again (audited)',
        params: settlementDayParams,
        response: { 200: envelopeOf(settlementRunSchema) },
      },
    },
    async (request) =>
      ok(request.locale, await settlement.rerun(sessionOf(request).operator.id, request.params.day, originOf(request))),
  );
};
