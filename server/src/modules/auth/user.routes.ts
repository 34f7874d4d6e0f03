import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyResponse, envelopeOf, forcedPasswordRequest, sessionsResponse, userInfoResponse } from '@custos/contract';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import type { AuthService } from './auth.service.js';
import { memberOf, requireMember } from './member-session.js';

const tags = ['member: account'];
const auth = [{ memberToken: [] }];

export const userRoutes: FastifyPluginAsyncZod<{ service: AuthService }> = async (app, { service }) => {
  const onRequest = requireMember(service);

  app.get(
    '/api/user/info',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'The member and the account the session acts for',
        response: { 200: envelopeOf(userInfoResponse) },
      },
    },
    async (request) => ok(request.locale, service.userInfo(memberOf(request))),
  );

  app.post(
    '/api/user/logout',
    { onRequest, schema: { tags, security: auth, summary: 'End this session', response: { 200: envelopeOf(emptyResponse) } } },
    async (request) => {
      await service.logout(memberOf(request));
      return ok(request.locale, null);
    },
  );

  app.get(
    '/api/user/sessions',
    {
      onRequest,
      schema: { tags, security: auth, summary: 'Active sessions of the member', response: { 200: envelopeOf(sessionsResponse) } },
    },
    async (request) => ok(request.locale, await service.listSessions(memberOf(request))),
  );

  app.post(
    '/api/user/sessions/sign_out_others',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'End every other session',
        response: { 200: envelopeOf(z.object({ ended: z.number().int().nonnegative() })) },
      },
    },
    async (request) => ok(request.locale, { ended: await service.signOutOthers(memberOf(request)) }),
  );

  app.post(
    '/api/user/update_password_forced',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'Set a new login password after an operator reset (code 300)',
        body: forcedPasswordRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.setForcedPassword(memberOf(request), request.body.password);
      return ok(request.locale, null);
    },
  );
};
