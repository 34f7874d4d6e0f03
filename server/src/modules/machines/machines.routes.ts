import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminMachineProductsResponse,
  adminMemberMachinesQuery,
  adminMemberMachinesResponse,
  envelopeOf,
  machineBuyRequest,
  machineIndexQuery,
  machineIndexResponse,
  machineInfoQuery,
  machineListResponse,
  machineProductIdParams,
  machineProductInput,
  machineProductSchema,
  memberMachineSchema,
  miningRecordQuery,
  miningRecordsResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { MachinesService } from './machines.service.js';

const tags = ['member: machines'];
const security = [{ memberToken: [] }];
const consoleTags = ['console: machines'];
const operatorSecurity = [{ operatorToken: [] }];

export const machinesRoutes: FastifyPluginAsyncZod<{
  service: MachinesService;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, auth, operators }) => {
  const member = { onRequest: requireMember(auth) };

  app.get(
    '/api/machine/list',
    { ...member, schema: { tags, security, summary: 'Machines on sale', response: { 200: envelopeOf(machineListResponse) } } },
    async (request) => ok(request.locale, await service.list()),
  );
  app.get(
    '/api/machine/info',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'One machine (goods detail)',
        querystring: machineInfoQuery,
        response: { 200: envelopeOf(machineProductSchema) },
      },
    },
    async (request) => ok(request.locale, await service.info(request.query.id)),
  );
  app.post(
    '/api/machine/buy',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Buy a machine with USDT or tickets (trading password; idempotent per key)',
        body: machineBuyRequest,
        response: { 200: envelopeOf(memberMachineSchema) },
      },
    },
    async (request) => ok(request.locale, await service.buy(memberOf(request), request.body)),
  );
  app.get(
    '/api/machine/index',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'My hashrate, output, tickets and machines',
        querystring: machineIndexQuery,
        response: { 200: envelopeOf(machineIndexResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.index(memberOf(request), request.query.status, request.query.page, request.query.pageSize),
      ),
  );
  app.get(
    '/api/machine/detail',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Mining records, one per machine per day',
        querystring: miningRecordQuery,
        response: { 200: envelopeOf(miningRecordsResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.records(memberOf(request), request.query.machineId, request.query.page, request.query.pageSize),
      ),
  );

  const reader = { onRequest: requirePermission(operators, 'ledger.read') };
  const manager = { onRequest: requirePermission(operators, 'hosting.manage') };
  app.get(
    '/api/admin/machines/products',
    {
      ...reader,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Machine products with running counts',
        response: { 200: envelopeOf(adminMachineProductsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.adminProducts()),
  );
  app.post(
    '/api/admin/machines/products',
    {
      ...manager,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Create a machine product (audited)',
        body: machineProductInput,
        response: { 200: envelopeOf(machineProductSchema) },
      },
    },
    async (request) =>
      ok(request.locale, await service.createProduct(sessionOf(request).operator.id, request.body, originOf(request))),
  );
  app.put(
    '/api/admin/machines/products/:id',
    {
      ...manager,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Edit a product: machines bought later take the new terms (audited)',
        params: machineProductIdParams,
        body: machineProductInput,
        response: { 200: envelopeOf(machineProductSchema) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.updateProduct(sessionOf(request).operator.id, request.params.id, request.body, originOf(request)),
      ),
  );
  for (const [action, status] of [
    ['retire', 'retired'],
    ['activate', 'active'],
  ] as const) {
    app.post(
      `/api/admin/machines/products/:id/${action}`,
      {
        ...manager,
        schema: {
          tags: consoleTags,
          security: operatorSecurity,
          summary: `${action === 'retire' ? 'Retire' : 'Reactivate'} a product; bought machines run on (audited)`,
          params: machineProductIdParams,
          response: { 200: envelopeOf(machineProductSchema) },
        },
      },
      async (request) =>
        ok(
          request.locale,
          await service.setProductStatus(sessionOf(request).operator.id, request.params.id, status, originOf(request)),
        ),
    );
  }
  app.get(
    '/api/admin/machines',
    {
      ...reader,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: "Members' machines",
        querystring: adminMemberMachinesQuery,
        response: { 200: envelopeOf(adminMemberMachinesResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      return ok(request.locale, await service.adminMachines(filter, page, pageSize));
    },
  );
};
