import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  adminOtcAppealsQuery,
  adminOtcAppealsResponse,
  adminOtcChatImageParams,
  adminOtcChatMessageSchema,
  adminOtcChatQuery,
  adminOtcChatResponse,
  adminOtcChatSendRequest,
  adminOtcEvidenceParams,
  adminOtcListingParams,
  adminOtcListingSchema,
  adminOtcListingsQuery,
  adminOtcListingsResponse,
  adminOtcMemberParams,
  adminOtcOrderDetailSchema,
  adminOtcOrderParams,
  adminOtcOrdersQuery,
  adminOtcOrdersResponse,
  adminOtcRevokeRequest,
  adminOtcRuleRequest,
  adminOtcRuleResponse,
  adminOtcSettingsResponse,
  adminOtcSuspensionsResponse,
  emptyResponse,
  envelopeOf,
  otcAppealRequest,
  otcBuyRequest,
  otcChatHistoryQuery,
  otcChatHistoryResponse,
  otcChatImageQuery,
  otcChatReadRequest,
  otcChatSendRequest,
  otcChatSendResponse,
  otcEvidenceImageQuery,
  otcInfoResponse,
  otcListingIdQuery,
  otcListingIdRequest,
  otcListingInfoResponse,
  otcListingDetailSchema,
  otcMarketQuery,
  otcMarketResponse,
  otcMyListingsQuery,
  otcMyListingsResponse,
  otcMyOrdersQuery,
  otcMyOrdersResponse,
  otcOrderIdQuery,
  otcOrderIdRequest,
  otcOrderInfoResponse,
  otcPendingInfoResponse,
  otcPendingListResponse,
  otcPostListingRequest,
  otcReleaseRequest,
  otcSellRequest,
  updateOtcSettingsRequest,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { PRIVATE_IMAGE_HEADERS } from '../../http/private-image.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { OTC_TOPIC, type OperatorEventsService } from '../notifications/operator-events.service.js';
import { serveEventStream } from '../notifications/sse-stream.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { OperatorActor, OtcService } from './otc.service.js';

const memberSecurity = [{ memberToken: [] }];
const operatorSecurity = [{ operatorToken: [] }];
const memberTags = ['member: OTC'];
const consoleTags = ['console: OTC'];

function actorOf(request: FastifyRequest): OperatorActor {
  return { operatorId: sessionOf(request).operator.id, origin: originOf(request) };
}

/** OTC trading (decision 031): the member calls under /api/otc and the console's under /api/admin/otc. */
export const otcRoutes: FastifyPluginAsyncZod<{
  service: OtcService;
  events: OperatorEventsService;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, events, auth, operators }) => {
  const member = requireMember(auth);
  const reader = { onRequest: requirePermission(operators, 'otc.read') };
  const manager = { onRequest: requirePermission(operators, 'otc.manage') };
  const arbiter = { onRequest: requirePermission(operators, 'otc.arbitrate') };
  await events.start();
  app.addHook('preClose', async () => {
    await events.stop();
  });
  const m = { onRequest: member };
  const memberSchema = { tags: memberTags, security: memberSecurity };
  const consoleSchema = { tags: consoleTags, security: operatorSecurity };

  // ── Member ──

  app.get(
    '/api/otc/info',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Guide price, band, fees, windows, limits and my eligibility',
        response: { 200: envelopeOf(otcInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.listings.info(memberOf(request))),
  );
  app.get(
    '/api/otc/all_sell_list',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'The market: listings of a side, filtered by amount and payment method, best price first',
        querystring: otcMarketQuery,
        response: { 200: envelopeOf(otcMarketResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      return ok(request.locale, await service.listings.market(memberOf(request), filter, page, pageSize));
    },
  );
  app.get(
    '/api/otc/listing_info',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'One listing (with state and trail for its lister)',
        querystring: otcListingIdQuery,
        response: { 200: envelopeOf(otcListingInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.listings.listingInfo(memberOf(request), request.query.id)),
  );
  app.post(
    '/api/otc/post',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Post a sell or buy listing (a sell listing holds quantity + maker fee; the deposit is held)',
        body: otcPostListingRequest,
        response: { 200: envelopeOf(otcListingDetailSchema) },
      },
    },
    async (request) => ok(request.locale, await service.listings.post(memberOf(request), request.body)),
  );
  app.post(
    '/api/otc/revoke',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Take my listing off the market; what is not in an order returns',
        body: otcListingIdRequest,
        response: { 200: envelopeOf(otcListingDetailSchema) },
      },
    },
    async (request) => ok(request.locale, await service.listings.revoke(memberOf(request), request.body.listingId)),
  );
  app.get(
    '/api/otc/my_listings',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'My listings',
        querystring: otcMyListingsQuery,
        response: { 200: envelopeOf(otcMyListingsResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      return ok(request.locale, await service.listings.myListings(memberOf(request), filter, page, pageSize));
    },
  );
  app.post(
    '/api/otc/buy',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Take a sell listing (buy USDT)',
        body: otcBuyRequest,
        response: { 200: envelopeOf(otcOrderInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.orders.buy(memberOf(request), request.body)),
  );
  app.post(
    '/api/otc/sell',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Take a buy listing (sell USDT, held at once)',
        body: otcSellRequest,
        response: { 200: envelopeOf(otcOrderInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.orders.sell(memberOf(request), request.body)),
  );
  for (const [url, role, summary] of [
    ['/api/otc/my_buy_list', 'buyer', 'My orders as buyer'],
    ['/api/otc/my_sell_list', 'seller', 'My orders as seller'],
  ] as const) {
    app.get(
      url,
      {
        ...m,
        schema: { ...memberSchema, summary, querystring: otcMyOrdersQuery, response: { 200: envelopeOf(otcMyOrdersResponse) } },
      },
      async (request) =>
        ok(
          request.locale,
          await service.orders.myOrders(memberOf(request), role, request.query.state, request.query.page, request.query.pageSize),
        ),
    );
  }
  app.get(
    '/api/otc/pending_list',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'My open orders, those waiting on me first',
        response: { 200: envelopeOf(otcPendingListResponse) },
      },
    },
    async (request) => ok(request.locale, await service.orders.pendingList(memberOf(request))),
  );
  app.get(
    '/api/otc/pending_info',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'How many orders are open and wait on me',
        response: { 200: envelopeOf(otcPendingInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.orders.pendingInfo(memberOf(request))),
  );
  app.get(
    '/api/otc/order_info',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'One of my orders with its trail, appeals and allowed actions',
        querystring: otcOrderIdQuery,
        response: { 200: envelopeOf(otcOrderInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.orders.orderInfo(memberOf(request), request.query.id)),
  );
  app.post(
    '/api/otc/confirm_pay',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Buyer: I have paid (before the payment deadline)',
        body: otcOrderIdRequest,
        response: { 200: envelopeOf(otcOrderInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.orders.confirmPay(memberOf(request), request.body.orderId)),
  );
  app.post(
    '/api/otc/buyer_cancel',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Buyer: cancel before marking paid',
        body: otcOrderIdRequest,
        response: { 200: envelopeOf(otcOrderInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.orders.buyerCancel(memberOf(request), request.body.orderId)),
  );
  app.post(
    '/api/otc/cancel',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Seller: cancel before the buyer marked paid',
        body: otcOrderIdRequest,
        response: { 200: envelopeOf(otcOrderInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.orders.sellerCancel(memberOf(request), request.body.orderId)),
  );
  app.post(
    '/api/otc/release',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Seller: release the USDT to the buyer (spec "seller loan"; trading password, authenticator code when bound)',
        body: otcReleaseRequest,
        response: { 200: envelopeOf(otcOrderInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.orders.release(memberOf(request), request.body)),
  );
  app.post(
    '/api/otc/appeal',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Buyer or seller: appeal after the release window (reason, description, evidence images); the order freezes',
        body: otcAppealRequest,
        response: { 200: envelopeOf(otcOrderInfoResponse) },
      },
    },
    async (request) => ok(request.locale, await service.orders.appeal(memberOf(request), request.body)),
  );
  app.get(
    '/api/otc/evidence_image',
    { ...m, schema: { ...memberSchema, summary: 'An appeal image of my order', querystring: otcEvidenceImageQuery } },
    async (request, reply) => {
      const image = await service.chat.evidenceImage(memberOf(request), request.query.id, request.query.uploadId);
      return reply.headers(PRIVATE_IMAGE_HEADERS).type(image.contentType).send(image.content);
    },
  );
  app.get(
    '/api/otc/chat_messages',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'My order’s chat (newest page first; `before` pages back)',
        querystring: otcChatHistoryQuery,
        response: { 200: envelopeOf(otcChatHistoryResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.chat.chatHistory(memberOf(request), request.query.id, request.query.before, request.query.limit),
      ),
  );
  app.post(
    '/api/otc/chat_send',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'Write in my open order’s chat: text or one image uploaded with purpose "chat"; rate-limited',
        body: otcChatSendRequest,
        response: { 200: envelopeOf(otcChatSendResponse) },
      },
    },
    async (request) => ok(request.locale, await service.chat.chatSend(memberOf(request), request.body)),
  );
  app.post(
    '/api/otc/chat_read',
    {
      ...m,
      schema: {
        ...memberSchema,
        summary: 'I have seen my order’s chat up to this message',
        body: otcChatReadRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.chat.chatRead(memberOf(request), request.body.orderId, request.body.upTo);
      return ok(request.locale, null);
    },
  );
  app.get(
    '/api/otc/chat_image',
    { ...m, schema: { ...memberSchema, summary: 'An image of my order’s chat', querystring: otcChatImageQuery } },
    async (request, reply) => {
      const image = await service.chat.chatImage(memberOf(request), request.query.id, request.query.messageId);
      return reply.headers(PRIVATE_IMAGE_HEADERS).type(image.contentType).send(image.content);
    },
  );

  // ── Console ──

  app.get(
    '/api/admin/otc/events',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'OTC live channel (text/event-stream): appeals, order steps, order chat; send `Last-Event-ID` to resume',
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      // Capped per operator: one operator's extra tabs never close another's (decision 054).
      await serveEventStream(request, reply, events, OTC_TOPIC, { holderId: session.operator.id, sessionId: session.sessionId });
    },
  );
  app.get(
    '/api/admin/otc/settings',
    { ...reader, schema: { ...consoleSchema, summary: 'OTC settings', response: { 200: envelopeOf(adminOtcSettingsResponse) } } },
    async (request) => ok(request.locale, await service.console.getSettings()),
  );
  app.put(
    '/api/admin/otc/settings',
    {
      ...manager,
      schema: {
        ...consoleSchema,
        summary: 'Set the OTC settings (audited)',
        body: updateOtcSettingsRequest,
        response: { 200: envelopeOf(adminOtcSettingsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.console.updateSettings(actorOf(request), request.body)),
  );
  app.get(
    '/api/admin/otc/listings',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'All listings, filtered by state, side, number or e-mail',
        querystring: adminOtcListingsQuery,
        response: { 200: envelopeOf(adminOtcListingsResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      return ok(request.locale, await service.console.adminListings(filter, page, pageSize));
    },
  );
  app.post(
    '/api/admin/otc/listings/:id/revoke',
    {
      ...manager,
      schema: {
        ...consoleSchema,
        summary: 'Take a listing off the market (audited)',
        params: adminOtcListingParams,
        body: adminOtcRevokeRequest,
        response: { 200: envelopeOf(adminOtcListingSchema) },
      },
    },
    async (request) =>
      ok(request.locale, await service.console.adminRevoke(actorOf(request), request.params.id, request.body.reason)),
  );
  app.get(
    '/api/admin/otc/orders',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'All orders, filtered by state, number or e-mail',
        querystring: adminOtcOrdersQuery,
        response: { 200: envelopeOf(adminOtcOrdersResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      return ok(request.locale, await service.console.adminOrders(filter, page, pageSize));
    },
  );
  app.get(
    '/api/admin/otc/orders/:id',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'One order: parties, trail, appeals with evidence, payment details, deposit',
        params: adminOtcOrderParams,
        response: { 200: envelopeOf(adminOtcOrderDetailSchema) },
      },
    },
    async (request) => ok(request.locale, await service.views.adminOrder(request.params.id)),
  );
  app.get(
    '/api/admin/otc/orders/:id/chat',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'The order’s chat',
        params: adminOtcOrderParams,
        querystring: adminOtcChatQuery,
        response: { 200: envelopeOf(adminOtcChatResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.console.adminChat(request.params.id, request.query.before, request.query.limit)),
  );
  app.post(
    '/api/admin/otc/orders/:id/chat',
    {
      ...arbiter,
      bodyLimit: 6 * 1024 * 1024,
      schema: {
        ...consoleSchema,
        summary: 'Write to both parties in the order’s chat (audited)',
        params: adminOtcOrderParams,
        body: adminOtcChatSendRequest,
        response: { 200: envelopeOf(adminOtcChatMessageSchema) },
      },
    },
    async (request) => ok(request.locale, await service.rulings.adminChatSend(actorOf(request), request.params.id, request.body)),
  );
  app.get(
    '/api/admin/otc/orders/:id/chat/:messageId/image',
    { ...reader, schema: { ...consoleSchema, summary: 'An image of the order’s chat', params: adminOtcChatImageParams } },
    async (request, reply) => {
      const image = await service.console.adminChatImage(request.params.id, request.params.messageId);
      return reply.headers(PRIVATE_IMAGE_HEADERS).type(image.contentType).send(image.content);
    },
  );
  app.get(
    '/api/admin/otc/orders/:id/evidence/:uploadId',
    {
      ...reader,
      schema: { ...consoleSchema, summary: 'An evidence image of the order’s appeals', params: adminOtcEvidenceParams },
    },
    async (request, reply) => {
      const image = await service.console.adminEvidence(request.params.id, request.params.uploadId);
      return reply.headers(PRIVATE_IMAGE_HEADERS).type(image.contentType).send(image.content);
    },
  );
  app.post(
    '/api/admin/otc/orders/:id/rule',
    {
      ...arbiter,
      schema: {
        ...consoleSchema,
        summary: 'Rule on an appeal: release to buyer or return to seller; optional deposit forfeit and suspension (audited)',
        params: adminOtcOrderParams,
        body: adminOtcRuleRequest,
        response: { 200: envelopeOf(adminOtcRuleResponse) },
      },
    },
    async (request) => ok(request.locale, await service.rulings.rule(actorOf(request), request.params.id, request.body)),
  );
  app.get(
    '/api/admin/otc/appeals',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'The appeal queue (open oldest first, or ruled)',
        querystring: adminOtcAppealsQuery,
        response: { 200: envelopeOf(adminOtcAppealsResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.rulings.appealQueue(request.query.status, request.query.page, request.query.pageSize)),
  );
  app.get(
    '/api/admin/otc/suspensions',
    {
      ...reader,
      schema: {
        ...consoleSchema,
        summary: 'Members barred from OTC now',
        response: { 200: envelopeOf(adminOtcSuspensionsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.rulings.suspensions()),
  );
  app.post(
    '/api/admin/otc/suspensions/:memberId/lift',
    {
      ...arbiter,
      schema: {
        ...consoleSchema,
        summary: 'Lift a member’s OTC suspension (audited)',
        params: adminOtcMemberParams,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.rulings.liftSuspension(actorOf(request), request.params.memberId);
      return ok(request.locale, null);
    },
  );
};
