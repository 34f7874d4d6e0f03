import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminArticlesQuery,
  adminArticlesResponse,
  adminBannersResponse,
  adminNoticesResponse,
  articleRequest,
  bannerRequest,
  bannerResponse,
  communityLinksRequest,
  communityLinksResponse,
  contentImageParams,
  contentImageRequest,
  contentImageResponse,
  contentPreviewRequest,
  contentPreviewResponse,
  emptyResponse,
  envelopeOf,
  newsDetail,
  newsDetailQuery,
  newsListQuery,
  newsListResponse,
  newsUnreadResponse,
  noticeMarqueeResponse,
  noticeRequest,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { IMAGE_BODY_LIMIT_BYTES } from '../../http/body-limits.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { ContentService } from './content.service.js';
import { contentWriteRoutes, operatorSecurity } from './console-routes.js';
import type { DownloadSlots } from '../../lib/storage/download-slots.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { sendStoredFile } from '../../lib/storage/serve-file.js';

const memberSecurity = [{ memberToken: [] }];

/**
 * Content images never change under their id: browsers and proxies may keep them. They are images
 * by their bytes (checked on upload), never sniffed into anything else, and nothing inside them loads.
 */
const CONTENT_IMAGE_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'",
} as const;

export const contentRoutes: FastifyPluginAsyncZod<{
  service: ContentService;
  auth: AuthService;
  operators: OperatorService;
  storage: { files: FileStore; downloads: DownloadSlots };
}> = async (app, { service, auth, operators, storage }) => {
  const member = requireMember(auth);
  const manager = requirePermission(operators, 'content.manage');

  // ── Member app ──────────────────────────────────────────────────────────────────────────────

  app.get(
    '/api/common/banner',
    {
      schema: {
        tags: ['common'],
        summary: 'Home banners showing now, in the lang header’s language or the platform default',
        response: { 200: envelopeOf(bannerResponse) },
      },
    },
    async (request) => ok(request.locale, await service.bannersFor(request.locale)),
  );

  app.get(
    '/api/common/notice_marquee',
    {
      schema: {
        tags: ['common'],
        summary: 'Notice marquee lines showing now, in the lang header’s language or the platform default',
        response: { 200: envelopeOf(noticeMarqueeResponse) },
      },
    },
    async (request) => ok(request.locale, await service.noticesFor(request.locale)),
  );

  app.get(
    '/api/content/image/:id',
    {
      schema: { tags: ['common'], summary: 'An image of banners and news (public, immutable)', params: contentImageParams },
    },
    async (request, reply) => {
      const image = await service.image(request.params.id);
      void reply.headers(CONTENT_IMAGE_HEADERS).type(image.contentType);
      return sendStoredFile(request, reply, storage.files, image, storage.downloads);
    },
  );

  app.get(
    '/api/common/news_list',
    {
      onRequest: member,
      schema: {
        tags: ['member: news'],
        security: memberSecurity,
        summary: 'Published news of one type (announcement, market, financial), newest first, with read state',
        querystring: newsListQuery,
        response: { 200: envelopeOf(newsListResponse) },
      },
    },
    async (request) => {
      const { type, page, pageSize } = request.query;
      return ok(request.locale, await service.newsList(memberOf(request).member.id, request.locale, type, page, pageSize));
    },
  );

  app.get(
    '/api/common/news_detail',
    {
      onRequest: member,
      schema: {
        tags: ['member: news'],
        security: memberSecurity,
        summary: 'One article with its sanitised HTML; opening it marks it read',
        querystring: newsDetailQuery,
        response: { 200: envelopeOf(newsDetail) },
      },
    },
    async (request) =>
      ok(request.locale, await service.newsDetail(memberOf(request).member.id, request.locale, request.query.id)),
  );

  app.get(
    '/api/common/news_unread',
    {
      onRequest: member,
      schema: {
        tags: ['member: news'],
        security: memberSecurity,
        summary: 'How many announcements the member has not opened (the badge)',
        response: { 200: envelopeOf(newsUnreadResponse) },
      },
    },
    async (request) => ok(request.locale, await service.unread(memberOf(request).member.id, request.locale)),
  );

  // ── Console ─────────────────────────────────────────────────────────────────────────────────

  const consoleRoute = { onRequest: manager };
  const tags = ['console: content'];

  app.post(
    '/api/admin/content/images',
    {
      ...consoleRoute,
      bodyLimit: IMAGE_BODY_LIMIT_BYTES,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Upload an image (JPEG, PNG or WebP by its bytes, ≤ 2 MB) for banners and news',
        body: contentImageRequest,
        response: { 200: envelopeOf(contentImageResponse) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.uploadImage(sessionOf(request).operator.id, request.body.contentBase64, originOf(request)),
      ),
  );

  app.post(
    '/api/admin/content/preview',
    {
      ...consoleRoute,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'The HTML as it would be stored (sanitised)',
        body: contentPreviewRequest,
        response: { 200: envelopeOf(contentPreviewResponse) },
      },
    },
    async (request) => ok(request.locale, service.preview(request.body.html)),
  );

  app.get(
    '/api/admin/content/banners',
    {
      ...consoleRoute,
      schema: { tags, security: operatorSecurity, summary: 'Every banner', response: { 200: envelopeOf(adminBannersResponse) } },
    },
    async (request) => ok(request.locale, await service.listBanners()),
  );
  contentWriteRoutes(app, {
    path: '/api/admin/content/banners',
    noun: 'a banner',
    body: bannerRequest,
    onRequest: manager,
    tags,
    save: (operatorId, id, body, origin) => service.saveBanner(operatorId, id, body, origin),
    remove: (operatorId, id, origin) => service.deleteBanner(operatorId, id, origin),
  });

  app.get(
    '/api/admin/content/notices',
    {
      ...consoleRoute,
      schema: { tags, security: operatorSecurity, summary: 'Every notice', response: { 200: envelopeOf(adminNoticesResponse) } },
    },
    async (request) => ok(request.locale, await service.listNotices()),
  );
  contentWriteRoutes(app, {
    path: '/api/admin/content/notices',
    noun: 'a notice',
    body: noticeRequest,
    onRequest: manager,
    tags,
    save: (operatorId, id, body, origin) => service.saveNotice(operatorId, id, body, origin),
    remove: (operatorId, id, origin) => service.deleteNotice(operatorId, id, origin),
  });

  app.get(
    '/api/admin/content/articles',
    {
      ...consoleRoute,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'News articles, last changed first',
        querystring: adminArticlesQuery,
        response: { 200: envelopeOf(adminArticlesResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.listArticles(request.query.type, request.query.page, request.query.pageSize)),
  );
  contentWriteRoutes(app, {
    path: '/api/admin/content/articles',
    noun: 'an article',
    note: 'bodies sanitised',
    body: articleRequest,
    onRequest: manager,
    tags,
    save: (operatorId, id, body, origin) => service.saveArticle(operatorId, id, body, origin),
    remove: (operatorId, id, origin) => service.deleteArticle(operatorId, id, origin),
  });

  app.get(
    '/api/admin/content/community_links',
    {
      ...consoleRoute,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Community links per language',
        response: { 200: envelopeOf(communityLinksResponse) },
      },
    },
    async (request) => ok(request.locale, await service.communityLinks()),
  );
  app.put(
    '/api/admin/content/community_links',
    {
      ...consoleRoute,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Set the community links per language (audited)',
        body: communityLinksRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.saveCommunityLinks(sessionOf(request).operator.id, request.body, originOf(request));
      return ok(request.locale, null);
    },
  );
};
