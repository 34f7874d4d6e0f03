import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  envelopeOf,
  operatorChangePasswordRequest,
  operatorChangePasswordResponse,
  operatorLoginRequest,
  operatorLoginResponse,
  operatorMeResponse,
  operatorTotpBindRequest,
  operatorTotpBindResponse,
  operatorTotpSetupResponse,
  emptyResponse,
  operatorMay,
  type OperatorPermission,
} from '@custos/contract';
import { AppError } from '../../http/app-error.js';
import { ok } from '../../http/envelope.js';
import { bearerToken, originOf } from '../../http/origin.js';
import type { OperatorService, OperatorSession } from './operator.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    operatorSession: OperatorSession | null;
  }
}

/** Routes that a console session may call before it has replaced its one-time password. */
const ALLOWED_BEFORE_PASSWORD_CHANGE = new Set(['/api/admin/auth/me', '/api/admin/auth/password', '/api/admin/auth/logout']);
/** And before it has bound an authenticator. */
const ALLOWED_BEFORE_TOTP_BOUND = new Set([
  ...ALLOWED_BEFORE_PASSWORD_CHANGE,
  '/api/admin/auth/totp/setup',
  '/api/admin/auth/totp/bind',
]);

/**
 * onRequest hook for console calls (before body and validation, as for members): a live operator session, with the one-time password replaced and
 * an authenticator bound (until then only the calls that get there are allowed).
 */
export function requireOperator(service: OperatorService) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const session = await service.authenticate(bearerToken(request));
    const route = request.routeOptions.url ?? '';
    if (session.operator.mustChangePassword && !ALLOWED_BEFORE_PASSWORD_CHANGE.has(route)) {
      throw AppError.forbidden('operator.password_change_required');
    }
    if (!session.operator.totpBound && !ALLOWED_BEFORE_TOTP_BOUND.has(route)) {
      throw AppError.forbidden('operator.totp_setup_required');
    }
    request.operatorSession = session;
  };
}

/** onRequest hook: a live operator session whose role grants `permission` (403 otherwise). */
export function requirePermission(service: OperatorService, permission: OperatorPermission) {
  const authenticated = requireOperator(service);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await authenticated(request, reply);
    if (!operatorMay(sessionOf(request).operator.role, permission)) throw AppError.forbidden();
  };
}

export function sessionOf(request: FastifyRequest): OperatorSession {
  if (!request.operatorSession) throw AppError.unauthorized();
  return request.operatorSession;
}

const security = [{ operatorToken: [] }];

export const operatorAuthRoutes: FastifyPluginAsyncZod<{ service: OperatorService }> = async (app, { service }) => {
  const authenticated = requireOperator(service);

  app.post(
    '/api/admin/auth/login',
    {
      schema: {
        tags: ['console: auth'],
        summary: 'Operator log-in: username, password and (once bound) an authenticator code; 4010 asks for the code',
        body: operatorLoginRequest,
        response: { 200: envelopeOf(operatorLoginResponse) },
      },
    },
    async (request) => {
      const result = await service.login(request.body, originOf(request));
      return ok(request.locale, result);
    },
  );

  app.get(
    '/api/admin/auth/me',
    {
      onRequest: authenticated,
      schema: {
        tags: ['console: auth'],
        summary: 'The signed-in operator',
        security,
        response: { 200: envelopeOf(operatorMeResponse) },
      },
    },
    async (request) => ok(request.locale, sessionOf(request).operator),
  );

  app.post(
    '/api/admin/auth/password',
    {
      onRequest: authenticated,
      schema: {
        tags: ['console: auth'],
        summary: 'Change the operator password (required after the one-time password)',
        security,
        body: operatorChangePasswordRequest,
        response: { 200: envelopeOf(operatorChangePasswordResponse) },
      },
    },
    async (request) => {
      const operator = await service.changePassword(
        sessionOf(request),
        request.body.oldPassword,
        request.body.newPassword,
        originOf(request),
      );
      return ok(request.locale, operator);
    },
  );

  app.post(
    '/api/admin/auth/totp/setup',
    {
      onRequest: authenticated,
      schema: {
        tags: ['console: auth'],
        summary: 'A secret and otpauth URI to bind an authenticator (required before any other console call)',
        security,
        response: { 200: envelopeOf(operatorTotpSetupResponse) },
      },
    },
    async (request) => ok(request.locale, await service.totpSetup(sessionOf(request))),
  );

  app.post(
    '/api/admin/auth/totp/bind',
    {
      onRequest: authenticated,
      schema: {
        tags: ['console: auth'],
        summary: 'Bind the authenticator with a code from it; log-in then needs a code too',
        security,
        body: operatorTotpBindRequest,
        response: { 200: envelopeOf(operatorTotpBindResponse) },
      },
    },
    async (request) => ok(request.locale, await service.bindTotp(sessionOf(request), request.body.googleCode, originOf(request))),
  );

  app.post(
    '/api/admin/auth/logout',
    {
      onRequest: authenticated,
      schema: {
        tags: ['console: auth'],
        summary: 'End this console session',
        security,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.logout(sessionOf(request), originOf(request));
      return ok(request.locale, null);
    },
  );
};
