import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  agentChatMessageRequest,
  assignConversationRequest,
  cannedRepliesResponse,
  cannedReply,
  cannedReplyInput,
  cannedReplyParams,
  chatHistoryQuery,
  chatHistoryResponse,
  chatMessage,
  chatMessageParams,
  chatReadRequest,
  chatReadState,
  chatUnreadResponse,
  conversationIdParams,
  conversationMessageParams,
  emptyResponse,
  envelopeOf,
  sendChatMessageRequest,
  supportConversationDetail,
  supportConversationItem,
  supportInboxQuery,
  supportInboxResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { PRIVATE_IMAGE_HEADERS } from '../../http/private-image.js';
import { IMAGE_BODY_LIMIT_BYTES } from '../../http/body-limits.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { SUPPORT_TOPIC, type OperatorEventsService } from '../notifications/operator-events.service.js';
import { serveEventStream } from '../notifications/sse-stream.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { AgentSession, SupportChatService } from './support-chat.service.js';

const memberSecurity = [{ memberToken: [] }];
const operatorSecurity = [{ operatorToken: [] }];
const memberTags = ['member: customer service'];
const consoleTags = ['console: customer service'];

function agentOf(request: FastifyRequest): AgentSession {
  return { operatorId: sessionOf(request).operator.id, origin: originOf(request) };
}

export const supportChatRoutes: FastifyPluginAsyncZod<{
  service: SupportChatService;
  events: OperatorEventsService;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, events, auth, operators }) => {
  const member = requireMember(auth);
  const agent = requirePermission(operators, 'support.chat');
  await events.start();
  app.addHook('preClose', async () => {
    await events.stop();
  });

  // ── Member (kefu) ──

  app.get(
    '/api/support/chat/messages',
    {
      onRequest: member,
      schema: {
        tags: memberTags,
        security: memberSecurity,
        summary: 'My customer-service conversation: a page of messages (newest page first; `before` pages back) and read state',
        querystring: chatHistoryQuery,
        response: { 200: envelopeOf(chatHistoryResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.memberHistory(memberOf(request), request.query.before, request.query.limit)),
  );

  app.post(
    '/api/support/chat/messages',
    {
      onRequest: member,
      schema: {
        tags: memberTags,
        security: memberSecurity,
        summary: 'Write to customer service: text (≤ 1000) or one image uploaded with purpose "chat"; rate-limited',
        body: sendChatMessageRequest,
        response: { 200: envelopeOf(chatMessage) },
      },
    },
    async (request) => ok(request.locale, await service.memberSend(memberOf(request), request.body)),
  );

  app.post(
    '/api/support/chat/read',
    {
      onRequest: member,
      schema: {
        tags: memberTags,
        security: memberSecurity,
        summary: 'I have seen the agents’ messages up to this one',
        body: chatReadRequest,
        response: { 200: envelopeOf(chatReadState) },
      },
    },
    async (request) => ok(request.locale, await service.memberRead(memberOf(request), request.body.upTo)),
  );

  app.get(
    '/api/support/chat/unread',
    {
      onRequest: member,
      schema: {
        tags: memberTags,
        security: memberSecurity,
        summary: 'How many agents’ messages I have not read (the floating button’s badge)',
        response: { 200: envelopeOf(chatUnreadResponse) },
      },
    },
    async (request) => ok(request.locale, { unread: await service.memberUnread(memberOf(request)) }),
  );

  app.get(
    '/api/support/chat/image/:messageId',
    {
      onRequest: member,
      schema: {
        tags: memberTags,
        security: memberSecurity,
        summary: 'An image of my conversation',
        params: chatMessageParams,
      },
    },
    async (request, reply) => {
      const image = await service.memberImage(memberOf(request), request.params.messageId);
      return reply.headers(PRIVATE_IMAGE_HEADERS).type(image.contentType).send(image.content);
    },
  );

  // ── Console (the customer-service inbox) ──

  app.get(
    '/api/admin/support/events',
    {
      onRequest: agent,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary:
          'The inbox’s live channel (text/event-stream): `ready`, then `event` frames with ids; send `Last-Event-ID` to resume',
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      // Capped per operator: one operator's extra tabs never close another's (decision 054).
      await serveEventStream(request, reply, events, SUPPORT_TOPIC, {
        holderId: session.operator.id,
        sessionId: session.sessionId,
      });
    },
  );

  app.get(
    '/api/admin/support/conversations',
    {
      onRequest: agent,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Conversations with unread counts and the last message, latest activity first',
        querystring: supportInboxQuery,
        response: { 200: envelopeOf(supportInboxResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.inbox(sessionOf(request).operator.id, request.query.filter, request.query.page, request.query.pageSize),
      ),
  );

  app.get(
    '/api/admin/support/conversations/:id',
    {
      onRequest: agent,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'A conversation with its member’s context: level, balances, recent orders',
        params: conversationIdParams,
        response: { 200: envelopeOf(supportConversationDetail) },
      },
    },
    async (request) => ok(request.locale, await service.conversation(sessionOf(request).operator.id, request.params.id)),
  );

  app.get(
    '/api/admin/support/conversations/:id/messages',
    {
      onRequest: agent,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'A page of a conversation’s messages (newest page first; `before` pages back) and read state',
        params: conversationIdParams,
        querystring: chatHistoryQuery,
        response: { 200: envelopeOf(chatHistoryResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.agentHistory(request.params.id, request.query.before, request.query.limit)),
  );

  app.post(
    '/api/admin/support/conversations/:id/messages',
    {
      onRequest: agent,
      bodyLimit: IMAGE_BODY_LIMIT_BYTES,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Reply: text (≤ 1000) or one image (base64, checked by its bytes); the member hears it live',
        params: conversationIdParams,
        body: agentChatMessageRequest,
        response: { 200: envelopeOf(chatMessage) },
      },
    },
    async (request) => ok(request.locale, await service.agentSend(agentOf(request), request.params.id, request.body)),
  );

  app.post(
    '/api/admin/support/conversations/:id/read',
    {
      onRequest: agent,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'The agents have seen the member’s messages up to this one',
        params: conversationIdParams,
        body: chatReadRequest,
        response: { 200: envelopeOf(chatReadState) },
      },
    },
    async (request) => ok(request.locale, await service.agentRead(request.params.id, request.body.upTo)),
  );

  app.post(
    '/api/admin/support/conversations/:id/assign',
    {
      onRequest: agent,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Assign a conversation to me, or back to nobody (audited)',
        params: conversationIdParams,
        body: assignConversationRequest,
        response: { 200: envelopeOf(supportConversationItem) },
      },
    },
    async (request) => ok(request.locale, await service.assign(agentOf(request), request.params.id, request.body.to)),
  );

  app.get(
    '/api/admin/support/conversations/:id/image/:messageId',
    {
      onRequest: agent,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'An image of a conversation',
        params: conversationMessageParams,
      },
    },
    async (request, reply) => {
      const image = await service.agentImage(request.params.id, request.params.messageId);
      return reply.headers(PRIVATE_IMAGE_HEADERS).type(image.contentType).send(image.content);
    },
  );

  app.get(
    '/api/admin/support/canned-replies',
    {
      onRequest: agent,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Canned replies',
        response: { 200: envelopeOf(cannedRepliesResponse) },
      },
    },
    async (request) => ok(request.locale, { items: await service.cannedReplies() }),
  );

  app.post(
    '/api/admin/support/canned-replies',
    {
      onRequest: agent,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Add a canned reply (audited)',
        body: cannedReplyInput,
        response: { 200: envelopeOf(cannedReply) },
      },
    },
    async (request) => ok(request.locale, await service.createCannedReply(agentOf(request), request.body)),
  );

  app.put(
    '/api/admin/support/canned-replies/:id',
    {
      onRequest: agent,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Change a canned reply (audited)',
        params: cannedReplyParams,
        body: cannedReplyInput,
        response: { 200: envelopeOf(cannedReply) },
      },
    },
    async (request) => ok(request.locale, await service.updateCannedReply(agentOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/admin/support/canned-replies/:id',
    {
      onRequest: agent,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Remove a canned reply (audited)',
        params: cannedReplyParams,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.deleteCannedReply(agentOf(request), request.params.id);
      return ok(request.locale, null);
    },
  );
};
