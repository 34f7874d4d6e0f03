import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DOCUMENT_MAX_BYTES_CAP,
  adminDocumentsResponse,
  contentIdParams,
  documentItem,
  documentPath,
  documentQuery,
  documentRequest,
  documentSettingsSchema,
  documentVersionPublishRequest,
  documentVersionRequest,
  documentsResponse,
  emptyResponse,
  envelopeOf,
} from '@custos/contract';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { DocumentsService } from './documents.service.js';
import type { DownloadSlots } from '../../lib/storage/download-slots.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { sendStoredFile } from '../../lib/storage/serve-file.js';

const operatorSecurity = [{ operatorToken: [] }];

/**
 * A version's PDF never changes under its id. Served as a download-free inline PDF that nothing
 * sniffs into anything else; the member app's own viewer (pdf.js) reads it with fetch.
 */
const DOCUMENT_FILE_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
} as const;

/** The base64 of the largest PDF the setting may allow, and the JSON around it. */
const UPLOAD_BODY_LIMIT_BYTES = Math.ceil(DOCUMENT_MAX_BYTES_CAP / 3) * 4 + 64 * 1024;

/** Platform documents (decision 028): public member calls and files, and the console's uploads. */
export const documentsRoutes: FastifyPluginAsyncZod<{
  service: DocumentsService;
  operators: OperatorService;
  storage: { files: FileStore; downloads: DownloadSlots };
}> = async (app, { service, operators, storage }) => {
  const manager = { onRequest: requirePermission(operators, 'content.manage') };
  const tags = ['console: content'];

  app.get(
    '/api/common/documents',
    {
      schema: {
        tags: ['common'],
        summary:
          'Platform documents (white paper, terms, privacy, …): the newest published version each, in the caller’s language or the default',
        response: { 200: envelopeOf(documentsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.list(request.locale)),
  );

  app.get(
    '/api/common/document',
    {
      schema: {
        tags: ['common'],
        summary: 'The document a viewer url names; a url that is not a platform document is refused and never fetched',
        querystring: documentQuery,
        response: { 200: envelopeOf(documentItem) },
      },
    },
    async (request) => ok(request.locale, await service.byUrl(request.locale, request.query.url)),
  );

  /** A document's own path: its newest published PDF in the lang header's language (or the default). */
  app.get(
    '/api/content/document/:id',
    { schema: { tags: ['common'], summary: 'A platform document’s newest published PDF', params: contentIdParams } },
    async (request, reply) => {
      const item = await service.byUrl(request.locale, documentPath(request.params.id));
      const file = await service.file(item.versionId);
      void reply.headers({ ...DOCUMENT_FILE_HEADERS, 'cache-control': 'no-cache' }).type('application/pdf');
      return sendStoredFile(request, reply, storage.files, file, storage.downloads);
    },
  );

  app.get(
    '/api/content/document_file/:id',
    { schema: { tags: ['common'], summary: 'One published version’s PDF (immutable)', params: contentIdParams } },
    async (request, reply) => {
      const file = await service.file(request.params.id);
      void reply.headers(DOCUMENT_FILE_HEADERS).type('application/pdf');
      return sendStoredFile(request, reply, storage.files, file, storage.downloads);
    },
  );

  // ── Console ─────────────────────────────────────────────────────────────────────────────────

  app.get(
    '/api/admin/content/documents',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Every document with every version',
        response: { 200: envelopeOf(adminDocumentsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.listForConsole()),
  );
  app.post(
    '/api/admin/content/documents',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Create a document of a kind (audited)',
        body: documentRequest,
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (request) =>
      ok(request.locale, { id: await service.create(sessionOf(request).operator.id, request.body.kind, originOf(request)) }),
  );
  app.post(
    '/api/admin/content/documents/:id/versions',
    {
      ...manager,
      bodyLimit: UPLOAD_BODY_LIMIT_BYTES,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Upload a PDF (checked by its bytes and the size setting) as the next version in a language (audited)',
        params: contentIdParams,
        body: documentVersionRequest,
        response: { 200: envelopeOf(z.object({ id: z.string(), version: z.number().int() })) },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.upload(sessionOf(request).operator.id, request.params.id, request.body, originOf(request)),
      ),
  );
  app.put(
    '/api/admin/content/document_versions/:id',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Publish or withdraw a version (audited)',
        params: contentIdParams,
        body: documentVersionPublishRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.setPublished(sessionOf(request).operator.id, request.params.id, request.body.published, originOf(request));
      return ok(request.locale, null);
    },
  );
  app.get(
    '/api/admin/content/document_settings',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'The largest PDF operators may upload',
        response: { 200: envelopeOf(documentSettingsSchema) },
      },
    },
    async (request) => ok(request.locale, await service.settingsValue()),
  );
  app.put(
    '/api/admin/content/document_settings',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Set the largest PDF operators may upload (audited)',
        body: documentSettingsSchema,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.saveSettings(sessionOf(request).operator.id, request.body, originOf(request));
      return ok(request.locale, null);
    },
  );
};
