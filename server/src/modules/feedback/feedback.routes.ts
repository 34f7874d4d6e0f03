import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminFeedbackQuery,
  adminFeedbackResponse,
  emptyResponse,
  envelopeOf,
  feedbackIdParams,
  feedbackImageParams,
  feedbackListQuery,
  feedbackListResponse,
  pushFeedbackRequest,
  pushFeedbackResponse,
  replyFeedbackRequest,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { PRIVATE_IMAGE_HEADERS } from '../../http/private-image.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { FeedbackService } from './feedback.service.js';

const memberSecurity = [{ memberToken: [] }];
const operatorSecurity = [{ operatorToken: [] }];

export const feedbackRoutes: FastifyPluginAsyncZod<{
  service: FeedbackService;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, auth, operators }) => {
  const member = requireMember(auth);
  const replier = requirePermission(operators, 'feedback.reply');

  app.get(
    '/api/common/feedback_list',
    {
      onRequest: member,
      schema: {
        tags: ['member: feedback'],
        security: memberSecurity,
        summary: 'My feedback with its status and reply, newest first (images: GET /api/upload/image/:id)',
        querystring: feedbackListQuery,
        response: { 200: envelopeOf(feedbackListResponse) },
      },
    },
    async (request) => ok(request.locale, await service.list(memberOf(request), request.query.page, request.query.pageSize)),
  );

  app.post(
    '/api/common/push_feedback',
    {
      onRequest: member,
      schema: {
        tags: ['member: feedback'],
        security: memberSecurity,
        summary: 'Send feedback: title, content (≤ 140), up to 3 images uploaded with purpose "feedback", optional order number',
        body: pushFeedbackRequest,
        response: { 200: envelopeOf(pushFeedbackResponse) },
      },
    },
    async (request) => ok(request.locale, await service.push(memberOf(request), request.body)),
  );

  app.get(
    '/api/admin/feedback',
    {
      onRequest: replier,
      schema: {
        tags: ['console: feedback'],
        security: operatorSecurity,
        summary: 'Feedback queue (awaiting reply: oldest first)',
        querystring: adminFeedbackQuery,
        response: { 200: envelopeOf(adminFeedbackResponse) },
      },
    },
    async (request) => ok(request.locale, await service.queue(request.query.status, request.query.page, request.query.pageSize)),
  );

  app.get(
    '/api/admin/feedback/:id/image/:uploadId',
    {
      onRequest: replier,
      schema: {
        tags: ['console: feedback'],
        security: operatorSecurity,
        summary: 'An image a feedback carries',
        params: feedbackImageParams,
      },
    },
    async (request, reply) => {
      const image = await service.imageForOperator(request.params.id, request.params.uploadId);
      return reply.headers(PRIVATE_IMAGE_HEADERS).type(image.contentType).send(image.content);
    },
  );

  app.post(
    '/api/admin/feedback/:id/reply',
    {
      onRequest: replier,
      schema: {
        tags: ['console: feedback'],
        security: operatorSecurity,
        summary: 'Reply to a feedback (once; audited; the member is notified live)',
        params: feedbackIdParams,
        body: replyFeedbackRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.reply(sessionOf(request).operator.id, request.params.id, request.body.reply, originOf(request));
      return ok(request.locale, null);
    },
  );
};
