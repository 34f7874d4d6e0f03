import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminHelpArticlesQuery,
  adminHelpArticlesResponse,
  adminHelpCategoriesResponse,
  envelopeOf,
  helpArticleRequest,
  helpCategoriesResponse,
  helpCategoryRequest,
  helpDetail,
  helpDetailQuery,
  helpListQuery,
  helpListResponse,
  helpSearchQuery,
  helpSearchResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { requirePermission } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import { contentWriteRoutes, operatorSecurity } from './console-routes.js';
import type { HelpService } from './help.service.js';

/** The help centre (decision 028): public member calls, and the console's categories and articles. */
export const helpRoutes: FastifyPluginAsyncZod<{ service: HelpService; operators: OperatorService }> = async (
  app,
  { service, operators },
) => {
  const manager = { onRequest: requirePermission(operators, 'content.manage') };
  const tags = ['console: content'];
  const memberTags = ['common'];

  app.get(
    '/api/common/help_categories',
    {
      schema: {
        tags: memberTags,
        summary: 'Help centre categories with articles, in the lang header’s language or the platform default',
        response: { 200: envelopeOf(helpCategoriesResponse) },
      },
    },
    async (request) => ok(request.locale, await service.categories(request.locale)),
  );

  app.get(
    '/api/common/help_list',
    {
      schema: {
        tags: memberTags,
        summary: 'The help list: a category’s published articles, in order',
        querystring: helpListQuery,
        response: { 200: envelopeOf(helpListResponse) },
      },
    },
    async (request) => ok(request.locale, await service.list(request.locale, request.query.categoryId)),
  );

  app.get(
    '/api/common/help_search',
    {
      schema: {
        tags: memberTags,
        summary:
          'Help articles whose title or text (in the version the caller reads) contains q, titles first (≤ 50; rate-limited per address)',
        querystring: helpSearchQuery,
        response: { 200: envelopeOf(helpSearchResponse) },
      },
    },
    async (request) => ok(request.locale, await service.search(request.locale, request.query.q, originOf(request))),
  );

  app.get(
    '/api/common/help_detail',
    {
      schema: {
        tags: memberTags,
        summary: 'One published help article with its sanitised HTML',
        querystring: helpDetailQuery,
        response: { 200: envelopeOf(helpDetail) },
      },
    },
    async (request) => ok(request.locale, await service.detail(request.locale, request.query.id)),
  );

  // ── Console ─────────────────────────────────────────────────────────────────────────────────

  app.get(
    '/api/admin/content/help_categories',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Every help category',
        response: { 200: envelopeOf(adminHelpCategoriesResponse) },
      },
    },
    async (request) => ok(request.locale, await service.listCategories()),
  );
  contentWriteRoutes(app, {
    path: '/api/admin/content/help_categories',
    noun: 'a help category',
    body: helpCategoryRequest,
    onRequest: manager.onRequest,
    tags,
    save: (operatorId, id, body, origin) => service.saveCategory(operatorId, id, body, origin),
    // A category with articles is refused (help.category_not_empty).
    remove: (operatorId, id, origin) => service.deleteCategory(operatorId, id, origin),
  });

  app.get(
    '/api/admin/content/help_articles',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Help articles by category and order',
        querystring: adminHelpArticlesQuery,
        response: { 200: envelopeOf(adminHelpArticlesResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.listArticles(request.query.categoryId, request.query.page, request.query.pageSize)),
  );
  contentWriteRoutes(app, {
    path: '/api/admin/content/help_articles',
    noun: 'a help article',
    note: 'bodies sanitised',
    body: helpArticleRequest,
    onRequest: manager.onRequest,
    tags,
    save: (operatorId, id, body, origin) => service.saveArticle(operatorId, id, body, origin),
    remove: (operatorId, id, origin) => service.deleteArticle(operatorId, id, origin),
  });
};
