import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminHelpArticlesQuery,
  adminHelpArticlesResponse,
  adminHelpCategoriesResponse,
  contentIdParams,
  emptyResponse,
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
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { HelpService } from './help.service.js';

const operatorSecurity = [{ operatorToken: [] }];
const savedResponse = z.object({ id: z.string() });

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
  app.post(
    '/api/admin/content/help_categories',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Create a help category (audited)',
        body: helpCategoryRequest,
        response: { 200: envelopeOf(savedResponse) },
      },
    },
    async (request) =>
      ok(request.locale, {
        id: await service.saveCategory(sessionOf(request).operator.id, null, request.body, originOf(request)),
      }),
  );
  app.put(
    '/api/admin/content/help_categories/:id',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Change a help category (audited)',
        params: contentIdParams,
        body: helpCategoryRequest,
        response: { 200: envelopeOf(savedResponse) },
      },
    },
    async (request) =>
      ok(request.locale, {
        id: await service.saveCategory(sessionOf(request).operator.id, request.params.id, request.body, originOf(request)),
      }),
  );
  app.delete(
    '/api/admin/content/help_categories/:id',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Delete an empty help category (audited)',
        params: contentIdParams,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.deleteCategory(sessionOf(request).operator.id, request.params.id, originOf(request));
      return ok(request.locale, null);
    },
  );

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
  app.post(
    '/api/admin/content/help_articles',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Create a help article (bodies sanitised; audited)',
        body: helpArticleRequest,
        response: { 200: envelopeOf(savedResponse) },
      },
    },
    async (request) =>
      ok(request.locale, {
        id: await service.saveArticle(sessionOf(request).operator.id, null, request.body, originOf(request)),
      }),
  );
  app.put(
    '/api/admin/content/help_articles/:id',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Change or publish a help article (bodies sanitised; audited)',
        params: contentIdParams,
        body: helpArticleRequest,
        response: { 200: envelopeOf(savedResponse) },
      },
    },
    async (request) =>
      ok(request.locale, {
        id: await service.saveArticle(sessionOf(request).operator.id, request.params.id, request.body, originOf(request)),
      }),
  );
  app.delete(
    '/api/admin/content/help_articles/:id',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Delete a help article (audited)',
        params: contentIdParams,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.deleteArticle(sessionOf(request).operator.id, request.params.id, originOf(request));
      return ok(request.locale, null);
    },
  );
};
