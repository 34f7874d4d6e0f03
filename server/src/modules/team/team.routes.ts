import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminMemberTeamQuery,
  adminTeamChildrenParams,
  adminTeamChildrenQuery,
  adminTeamChildrenResponse,
  adminMemberTeamResponse,
  envelopeOf,
  memberIdParams,
  shareResponse,
  teamInfoResponse,
  teamLevelConfigResponse,
  teamLevelPreviewResponse,
  teamLevelsRequest,
  teamLevelVersionSchema,
  teamLevelVersionsResponse,
  teamMembersQuery,
  teamMembersResponse,
  teamMoveRequest,
  teamMoveResponse,
  teamRecomputeResponse,
  teamRepairResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { TeamOperationsService } from './team-operations.service.js';
import type { TeamService } from './team.service.js';

const tags = ['member: team'];
const security = [{ memberToken: [] }];
const consoleTags = ['console: team'];
const operatorSecurity = [{ operatorToken: [] }];

export const teamRoutes: FastifyPluginAsyncZod<{ service: TeamService; auth: AuthService; operators: OperatorService }> = async (
  app,
  { service, auth, operators },
) => {
  const member = { onRequest: requireMember(auth) };
  app.get(
    '/api/user/team_info',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'My level, team performance (today, this month, total), member counts and the next level',
        response: { 200: envelopeOf(teamInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.info(memberOf(request))),
  );
  app.get(
    '/api/user/team',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'My downline (direct or every generation), newest first, searchable by nickname',
        querystring: teamMembersQuery,
        response: { 200: envelopeOf(teamMembersResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.members(
          memberOf(request),
          { scope: request.query.scope, query: request.query.query || undefined },
          request.query.page,
          request.query.pageSize,
        ),
      ),
  );
  app.get(
    '/api/user/share',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'My invitation code and the register link a poster carries',
        response: { 200: envelopeOf(shareResponse) },
      },
    },
    async (request) => ok(request.locale, service.share(memberOf(request))),
  );
  app.get(
    '/api/user/team_level_config',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'getTeamLevelConfig: the level table in force today and my level',
        response: { 200: envelopeOf(teamLevelConfigResponse) },
      },
    },
    async (request) => ok(request.locale, await service.levelConfig(memberOf(request))),
  );

  app.get(
    '/api/admin/team/levels',
    {
      onRequest: requirePermission(operators, 'members.read'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Every level table with the day it applies from, newest first',
        response: { 200: envelopeOf(teamLevelVersionsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.versions()),
  );
  app.put(
    '/api/admin/team/levels',
    {
      onRequest: requirePermission(operators, 'team.manage'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Save a level table in force from the next platform day (audited)',
        body: teamLevelsRequest,
        response: { 200: envelopeOf(teamLevelVersionSchema) },
      },
    },
    async (request) =>
      ok(request.locale, await service.saveLevels(sessionOf(request).operator.id, request.body.levels, originOf(request))),
  );
  app.post(
    '/api/admin/team/levels/preview',
    {
      onRequest: requirePermission(operators, 'team.manage'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Who would change level under a proposed table',
        body: teamLevelsRequest,
        response: { 200: envelopeOf(teamLevelPreviewResponse) },
      },
    },
    async (request) => ok(request.locale, await service.preview(request.body.levels)),
  );
  app.get(
    '/api/admin/team/nodes/:id/children',
    {
      onRequest: requirePermission(operators, 'members.read'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary:
          "A member's direct members (by account id) with level, custody, team performance and validity: the downline tree, a level at a time",
        params: adminTeamChildrenParams,
        querystring: adminTeamChildrenQuery,
        response: { 200: envelopeOf(adminTeamChildrenResponse) },
      },
    },
    async (request) => ok(request.locale, await service.children(request.params.id, request.query.page, request.query.pageSize)),
  );
  app.get(
    '/api/admin/members/:id/team',
    {
      onRequest: requirePermission(operators, 'members.read'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: "A member's level, upline chain and downline (paged) with performance",
        params: memberIdParams,
        querystring: adminMemberTeamQuery,
        response: { 200: envelopeOf(adminMemberTeamResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.memberTeam(request.params.id, request.query.page, request.query.pageSize)),
  );
};

/** The console's operations on the tree: move a member, recompute and repair the figures. */
export const teamOperationsRoutes: FastifyPluginAsyncZod<{ service: TeamOperationsService; operators: OperatorService }> = async (
  app,
  { service, operators },
) => {
  app.post(
    '/api/admin/team/move',
    {
      onRequest: requirePermission(operators, 'team.restructure'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Move a member and their downline under another inviter, figures recomputed (super admin, audited)',
        body: teamMoveRequest,
        response: { 200: envelopeOf(teamMoveResponse) },
      },
    },
    async (request) => ok(request.locale, await service.move(sessionOf(request).operator.id, request.body, originOf(request))),
  );
  app.post(
    '/api/admin/team/recompute',
    {
      onRequest: requirePermission(operators, 'team.manage'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Recompute every team figure from the orders and the tree and list what differs from the stored figures',
        response: { 200: envelopeOf(teamRecomputeResponse) },
      },
    },
    async (request) => ok(request.locale, await service.recompute()),
  );
  app.post(
    '/api/admin/team/repair',
    {
      onRequest: requirePermission(operators, 'team.restructure'),
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Set the stored team figures to the recomputed ones (super admin, audited)',
        response: { 200: envelopeOf(teamRepairResponse) },
      },
    },
    async (request) => ok(request.locale, await service.repair(sessionOf(request).operator.id, originOf(request))),
  );
};
