import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  codeSentResponse,
  CODE_RESEND_COUNTDOWN_S,
  emptyResponse,
  envelopeOf,
  authenticatorResponse,
  bindAuthenticatorRequest,
  changeAuthenticatorRequest,
  resetTradePasswordRequest,
  setTradePasswordRequest,
  updatePasswordRequest,
  updateProfileRequest,
  updateTradePasswordRequest,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import type { SecurityService } from './security.service.js';

const tags = ['member: account'];
const auth = [{ memberToken: [] }];

/** A member's own secrets and profile: login and trade passwords, the authenticator, nickname and avatar. */
export const securityRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  service: SecurityService;
  avatars: () => Promise<string[]>;
}> = async (app, { auth: authService, service: securityService, avatars }) => {
  const onRequest = requireMember(authService);

  app.post(
    '/api/user/update_password',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'Change the login password (other sessions end)',
        body: updatePasswordRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await securityService.changeLoginPassword(
        memberOf(request),
        request.body.oldPassword,
        request.body.password,
        request.body.googleCode,
      );
      return ok(request.locale, null);
    },
  );

  app.post(
    '/api/user/set_trade_password',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'Set the first trading password',
        body: setTradePasswordRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await securityService.setTradePassword(memberOf(request), request.body.password);
      return ok(request.locale, null);
    },
  );

  app.post(
    '/api/user/update_trade_password',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'Change the trading password',
        body: updateTradePasswordRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await securityService.changeTradePassword(
        memberOf(request),
        request.body.oldTradePassword,
        request.body.password,
        request.body.googleCode,
      );
      return ok(request.locale, null);
    },
  );

  app.post(
    '/api/user/send_trade_password_code',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'E-mail a code to reset the trading password',
        response: { 200: envelopeOf(codeSentResponse) },
      },
    },
    async (request) => {
      await securityService.sendTradePasswordCode(memberOf(request), request.locale);
      return ok(request.locale, { resendAfterS: CODE_RESEND_COUNTDOWN_S });
    },
  );

  app.post(
    '/api/user/reset_trade_password',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'Set a new trading password with an e-mail code',
        body: resetTradePasswordRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await securityService.resetTradePassword(
        memberOf(request),
        request.body.code,
        request.body.password,
        request.body.googleCode,
        originOf(request),
      );
      return ok(request.locale, null);
    },
  );

  app.get(
    '/api/user/google_2fa',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'Authenticator state and a secret to bind',
        response: { 200: envelopeOf(authenticatorResponse) },
      },
    },
    async (request) => ok(request.locale, await securityService.authenticatorSetup(memberOf(request))),
  );

  app.post(
    '/api/user/google_2fa/bind',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'Bind the authenticator with a code from it',
        body: bindAuthenticatorRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await securityService.bindAuthenticator(memberOf(request), request.body.googleCode);
      return ok(request.locale, null);
    },
  );

  app.post(
    '/api/user/google_2fa/change',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'Move to a new authenticator (old code, then new code)',
        body: changeAuthenticatorRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await securityService.changeAuthenticator(memberOf(request), request.body.oldGoogleCode, request.body.newGoogleCode);
      return ok(request.locale, null);
    },
  );

  app.post(
    '/api/user/update_profile',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'Change nickname and/or avatar',
        body: updateProfileRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await securityService.updateProfile(memberOf(request), request.body, await avatars());
      return ok(request.locale, null);
    },
  );
};
