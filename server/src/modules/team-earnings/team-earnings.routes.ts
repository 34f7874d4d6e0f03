import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminTeamEarningsQuery,
  adminTeamEarningsResponse,
  adminTeamPromotionsQuery,
  adminTeamPromotionsResponse,
  envelopeOf,
  teamEarningsSettingsSchema,
  teamEarningsSummaryResponse,
} from '@custos/contract';
import { originOf } from '../../http/origin.js';
import { ok } from '../../http/envelope.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { TeamEarningsService } from './team-earnings.service.js';

const consoleTags = ['console: team'];
const operatorSecurity = [{ operatorToken: [] }];

export const teamEarningsRoutes: FastifyPluginAsyncZod<{
  service: TeamEarningsService;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, auth, operators }) => {
  app.get(
    '/api/user/team_earnings',
    {
      onRequest: requireMember(auth),
      schema: {
        tags: ['member: team'],
        security: [{ memberToken: [] }],
        summary: 'My team earnings per type: to arrive and arrived',
        response: { 200: envelopeOf(teamEarningsSummaryResponse) },
      },
    },
    async (request) => ok(request.locale, await service.summary(memberOf(request).account.id)),
  );
  app.get(
    '/api/admin/team/earnings',
    {
      onRequest: requirePermission(operators, 'ledger.read'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Team earnings per member, day and type (filter by e-mail, day, type, state)',
        querystring: adminTeamEarningsQuery,
        response: { 200: envelopeOf(adminTeamEarningsResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      const { items, total } = await service.earnings({ ...filter, limit: pageSize, offset: (page - 1) * pageSize });
      return ok(request.locale, { items, total, page, pageSize });
    },
  );
  app.get(
    '/api/admin/team/promotions',
    {
      onRequest: requirePermission(operators, 'ledger.read'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Promotion bonuses: the first day each member reached each level',
        querystring: adminTeamPromotionsQuery,
        response: { 200: envelopeOf(adminTeamPromotionsResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, email } = request.query;
      const { items, total } = await service.promotions(pageSize, (page - 1) * pageSize, email);
      return ok(request.locale, { items, total, page, pageSize });
    },
  );
  app.get(
    '/api/admin/team/earnings/settings',
    {
      onRequest: requirePermission(operators, 'ledger.read'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: "Team earnings: how many days after its own day a day's earnings arrive",
        response: { 200: envelopeOf(teamEarningsSettingsSchema) },
      },
    },
    async (request) => ok(request.locale, await service.arrivalSettings()),
  );
  app.put(
    '/api/admin/team/earnings/settings',
    {
      onRequest: requirePermission(operators, 'team.manage'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Set the arrival delay of team earnings, for days computed from now on (audited)',
        body: teamEarningsSettingsSchema,
        response: { 200: envelopeOf(teamEarningsSettingsSchema) },
      },
    },
    async (request) =>
      ok(request.locale, await service.saveSettings(sessionOf(request).operator.id, request.body, originOf(request))),
  );
};
