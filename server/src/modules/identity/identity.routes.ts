import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminIdentityQuery,
  adminIdentityResponse,
  emptyResponse,
  envelopeOf,
  failIdentityRequest,
  identityIdParams,
  identityResponse,
  submitIdentityRequest,
  uploadIdParams,
  uploadImageRequest,
  uploadImageResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { PRIVATE_IMAGE_HEADERS } from '../../http/private-image.js';
import { IMAGE_BODY_LIMIT_BYTES } from '../../http/body-limits.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { IdentityService } from './identity.service.js';

const memberSecurity = [{ memberToken: [] }];
const operatorSecurity = [{ operatorToken: [] }];

export const identityRoutes: FastifyPluginAsyncZod<{
  service: IdentityService;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, auth, operators }) => {
  const member = requireMember(auth);
  const reviewer = requirePermission(operators, 'identity.review');
  const memberReader = requirePermission(operators, 'members.read');

  app.post(
    '/api/upload/image',
    {
      onRequest: member,
      bodyLimit: IMAGE_BODY_LIMIT_BYTES,
      schema: {
        tags: ['member: identity'],
        security: memberSecurity,
        summary: 'Upload an image (base64): identity documents, or an avatar',
        body: uploadImageRequest,
        response: { 200: envelopeOf(uploadImageResponse) },
      },
    },
    async (request) =>
      ok(request.locale, { id: await service.upload(memberOf(request), request.body.purpose, request.body.contentBase64) }),
  );

  app.get(
    '/api/upload/image/:id',
    {
      onRequest: member,
      schema: {
        tags: ['member: identity'],
        security: memberSecurity,
        summary: 'One of my uploaded images (identity documents, uploaded avatars)',
        params: uploadIdParams,
      },
    },
    async (request, reply) => {
      const image = await service.imageForMember(memberOf(request), request.params.id);
      return reply.headers(PRIVATE_IMAGE_HEADERS).type(image.contentType).send(image.content);
    },
  );

  app.get(
    '/api/user/identity',
    {
      onRequest: member,
      schema: {
        tags: ['member: identity'],
        security: memberSecurity,
        summary: 'My real-name verification state',
        response: { 200: envelopeOf(identityResponse) },
      },
    },
    async (request) => ok(request.locale, await service.state(memberOf(request))),
  );

  app.post(
    '/api/user/identity',
    {
      onRequest: member,
      schema: {
        tags: ['member: identity'],
        security: memberSecurity,
        summary: 'Submit documents for real-name verification',
        body: submitIdentityRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.submit(memberOf(request), request.body);
      return ok(request.locale, null);
    },
  );

  app.get(
    '/api/admin/identity',
    {
      onRequest: reviewer,
      schema: {
        tags: ['console: identity'],
        security: operatorSecurity,
        summary: 'Real-name review queue',
        querystring: adminIdentityQuery,
        response: { 200: envelopeOf(adminIdentityResponse) },
      },
    },
    async (request) => ok(request.locale, await service.queue(request.query.status, request.query.page, request.query.pageSize)),
  );

  app.get(
    '/api/admin/members/avatar/:id',
    {
      onRequest: memberReader,
      schema: {
        tags: ['console: members'],
        security: operatorSecurity,
        summary: 'An avatar a member uploaded',
        params: uploadIdParams,
      },
    },
    async (request, reply) => {
      const image = await service.avatarForOperator(request.params.id);
      return reply.headers(PRIVATE_IMAGE_HEADERS).type(image.contentType).send(image.content);
    },
  );

  app.get(
    '/api/admin/identity/image/:id',
    {
      onRequest: reviewer,
      schema: {
        tags: ['console: identity'],
        security: operatorSecurity,
        summary: 'A submitted document image',
        params: uploadIdParams,
      },
    },
    async (request, reply) => {
      const image = await service.imageForReviewer(request.params.id);
      return reply.headers(PRIVATE_IMAGE_HEADERS).type(image.contentType).send(image.content);
    },
  );

  app.post(
    '/api/admin/identity/:id/approve',
    {
      onRequest: reviewer,
      schema: {
        tags: ['console: identity'],
        security: operatorSecurity,
        summary: 'Approve a submission',
        params: identityIdParams,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.review(sessionOf(request), request.params.id, { approve: true }, originOf(request));
      return ok(request.locale, null);
    },
  );

  app.post(
    '/api/admin/identity/:id/fail',
    {
      onRequest: reviewer,
      schema: {
        tags: ['console: identity'],
        security: operatorSecurity,
        summary: 'Fail a submission with the reason shown to the member',
        params: identityIdParams,
        body: failIdentityRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.review(
        sessionOf(request),
        request.params.id,
        { approve: false, reason: request.body.reason },
        originOf(request),
      );
      return ok(request.locale, null);
    },
  );
};
