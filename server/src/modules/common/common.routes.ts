import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { avatarListResponse, commonConfigResponse, commonLangResponse, envelopeOf } from '@custos/contract';
import { ok } from '../../http/envelope.js';
import type { CommonService } from './common.service.js';

export const commonRoutes: FastifyPluginAsyncZod<{ service: CommonService }> = async (app, { service }) => {
  app.get(
    '/api/common/config',
    {
      schema: {
        tags: ['common'],
        summary: 'Platform configuration the apps load first',
        response: { 200: envelopeOf(commonConfigResponse) },
      },
    },
    async (request) => ok(request.locale, await service.config(request.locale)),
  );

  app.get(
    '/api/common/lang',
    {
      schema: {
        tags: ['common'],
        summary: 'Interface languages and the lang header value of each',
        response: { 200: envelopeOf(commonLangResponse) },
      },
    },
    async (request) => ok(request.locale, service.lang(request.locale)),
  );

  app.get(
    '/api/common/avatar_list',
    { schema: { tags: ['common'], summary: 'Avatars a member may pick', response: { 200: envelopeOf(avatarListResponse) } } },
    async (request) => ok(request.locale, await service.avatars()),
  );
};
