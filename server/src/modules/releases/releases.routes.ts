import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  RELEASE_PACKAGE_TYPES,
  RELEASE_UPLOAD_BODY_LIMIT_BYTES,
  adminReleasesResponse,
  appVersionResponse,
  createReleaseRequest,
  emptyResponse,
  envelopeOf,
  publishReleaseRequest,
  releaseIdParams,
  releasePackageResponse,
  releasePackageUploadQuery,
} from '@custos/contract';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { ok } from '../../http/envelope.js';
import { bearerToken, originOf } from '../../http/origin.js';
import type { AuthService } from '../auth/auth.service.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { ReleasesService } from './releases.service.js';
import type { DownloadSlots } from '../../lib/storage/download-slots.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { sendStoredFile } from '../../lib/storage/serve-file.js';

const operatorSecurity = [{ operatorToken: [] }];

/** A package never changes under its id: cached for a year, never sniffed, never run as a page. */
const PACKAGE_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
} as const;

/** App releases (decision 037): the version config, the packages, and the console's release calls. */
export const releasesRoutes: FastifyPluginAsyncZod<{
  service: ReleasesService;
  auth: AuthService;
  operators: OperatorService;
  storage: { files: FileStore; downloads: DownloadSlots };
}> = async (app, { service, auth, operators, storage }) => {
  const manager = { onRequest: requirePermission(operators, 'releases.manage') };
  const tags = ['console: releases'];

  // Package uploads are the file's own bytes; only this plugin's routes read such bodies.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: RELEASE_UPLOAD_BODY_LIMIT_BYTES },
    (_request, body, done) => {
      done(null, body);
    },
  );

  app.get(
    '/api/common/app_version',
    {
      schema: {
        tags: ['common'],
        summary:
          'The version config (spec §3): the newest full package and hot bundle the caller is staged into (a visitor: fully rolled-out releases only), with their SHA-256 and size',
        response: { 200: envelopeOf(appVersionResponse) },
      },
    },
    async (request) => {
      const token = bearerToken(request);
      let memberId: string | null = null;
      if (token) {
        // A public call: a missing or stale session only means the caller is answered as a visitor.
        memberId = await auth.authenticate(token).then(
          (context) => context.member.id,
          () => null,
        );
      }
      return ok(request.locale, await service.appVersion(memberId));
    },
  );

  app.get(
    '/api/common/app_package/:file',
    {
      schema: {
        tags: ['common'],
        summary: 'A published release’s package (.apk or .zip): range requests (206), ETag (its SHA-256), immutable caching',
        params: z.object({ file: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const found = await service.servedPackage(request.params.file);
      const type = RELEASE_PACKAGE_TYPES[found.kind];
      void reply
        .headers(PACKAGE_HEADERS)
        .header('content-disposition', `attachment; filename="custos-${found.versionName}.${type.extension}"`)
        .type(type.contentType);
      return sendStoredFile(request, reply, storage.files, found, storage.downloads);
    },
  );

  // ── Console ─────────────────────────────────────────────────────────────────────────────────

  app.get(
    '/api/admin/releases',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Every release, newest version first, and the version code a new one must exceed',
        response: { 200: envelopeOf(adminReleasesResponse) },
      },
    },
    async (request) => ok(request.locale, await service.list()),
  );

  app.post(
    '/api/admin/releases/packages',
    {
      ...manager,
      bodyLimit: RELEASE_UPLOAD_BODY_LIMIT_BYTES,
      schema: {
        tags,
        security: operatorSecurity,
        summary:
          'Upload a package (the body is the file, application/octet-stream): checked by its bytes (zip; an APK or a bundle with index.html), its size and the SHA-256 given (audited)',
        querystring: releasePackageUploadQuery,
        response: { 200: envelopeOf(releasePackageResponse) },
      },
    },
    async (request) => {
      if (!Buffer.isBuffer(request.body)) throw AppError.badRequest('unsupported_media_type');
      return ok(
        request.locale,
        await service.upload(
          sessionOf(request).operator.id,
          { kind: request.query.kind, sha256: request.query.sha256, content: request.body },
          originOf(request),
        ),
      );
    },
  );

  app.post(
    '/api/admin/releases',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Make a draft release of an uploaded package; its version code must be higher than every earlier one (audited)',
        body: createReleaseRequest,
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (request) => ok(request.locale, await service.create(sessionOf(request).operator.id, request.body, originOf(request))),
  );

  app.post(
    '/api/admin/releases/:id/publish',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Publish a release to a percentage of members, or change a published release’s percentage (audited)',
        params: releaseIdParams,
        body: publishReleaseRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.publish(sessionOf(request).operator.id, request.params.id, request.body.rolloutPercent, originOf(request));
      return ok(request.locale, null);
    },
  );

  app.post(
    '/api/admin/releases/:id/rollback',
    {
      ...manager,
      schema: {
        tags,
        security: operatorSecurity,
        summary: 'Roll a published release back: no member is offered it again (audited)',
        params: releaseIdParams,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.rollback(sessionOf(request).operator.id, request.params.id, originOf(request));
      return ok(request.locale, null);
    },
  );
};
