import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  codeSentResponse,
  CODE_RESEND_COUNTDOWN_S,
  emptyResponse,
  envelopeOf,
  forcedPasswordRequest,
  authenticatorResponse,
  bindAuthenticatorRequest,
  changeAuthenticatorRequest,
  resetTradePasswordRequest,
  sessionsResponse,
  setTradePasswordRequest,
  updatePasswordRequest,
  updateProfileRequest,
  updateTradePasswordRequest,
  userInfoResponse,
} from '@custos/contract';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import type { SecurityService } from '../security/security.service.js';
import type { AuthService } from './auth.service.js';
import { memberOf, requireMember } from './member-session.js';

const tags = ['member: account'];
const auth = [{ memberToken: [] }];

export const userRoutes: FastifyPluginAsyncZod<{
  service: AuthService;
  security: SecurityService;
  avatars: () => Promise<string[]>;
}> = async (app, { service, security: securityService, avatars }) => {
  const onRequest = requireMember(service);

  app.get(
    '/api/user/info',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'The member and the account the session acts for',
        response: { 200: envelopeOf(userInfoResponse) },
      },
    },
    async (request) => ok(request.locale, service.userInfo(memberOf(request))),
  );

  app.post(
    '/api/user/logout',
    { onRequest, schema: { tags, security: auth, summary: 'End this session', response: { 200: envelopeOf(emptyResponse) } } },
    async (request) => {
      await service.logout(memberOf(request));
      return ok(request.locale, null);
    },
  );

  app.get(
    '/api/user/sessions',
    {
      onRequest,
      schema: { tags, security: auth, summary: 'Active sessions of the member', response: { 200: envelopeOf(sessionsResponse) } },
    },
    async (request) => ok(request.locale, await service.listSessions(memberOf(request))),
  );

  app.post(
    '/api/user/sessions/sign_out_others',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'End every other session',
        response: { 200: envelopeOf(z.object({ ended: z.number().int().nonnegative() })) },
      },
    },
    async (request) => ok(request.locale, { ended: await service.signOutOthers(memberOf(request)) }),
  );

  app.post(
    '/api/user/update_password_forced',
    {
      onRequest,
      schema: {
        tags,
        security: auth,
        summary: 'Set a new login password after an operator reset (code 300)',
        body: forcedPasswordRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.setForcedPassword(memberOf(request), request.body.password);
      return ok(request.locale, null);
    },
  );

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
