import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  checkForgotCodeRequest,
  checkRegisterInfoRequest,
  codeSentResponse,
  CODE_RESEND_COUNTDOWN_S,
  emptyResponse,
  envelopeOf,
  loginByCodeRequest,
  loginRequest,
  registerRequest,
  resetPasswordRequest,
  sendForgotCodeRequest,
  sendLoginCodeRequest,
  sendRegisterCodeRequest,
  sessionResponse,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import type { AuthService } from './auth.service.js';

const tags = ['member: auth'];
const codeSent = { resendAfterS: CODE_RESEND_COUNTDOWN_S };

export const authRoutes: FastifyPluginAsyncZod<{ service: AuthService }> = async (app, { service }) => {
  app.post(
    '/api/auth/send_register_code',
    {
      schema: {
        tags,
        summary: 'Send the registration code',
        body: sendRegisterCodeRequest,
        response: { 200: envelopeOf(codeSentResponse) },
      },
    },
    async (request) => {
      await service.sendRegisterCode(request.body.email, request.body.invitationCode, request.locale, originOf(request));
      return ok(request.locale, codeSent);
    },
  );

  app.post(
    '/api/auth/check_register_info',
    {
      schema: {
        tags,
        summary: 'Check a registration code without using it up',
        body: checkRegisterInfoRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.checkCode(request.body.email, 'register', request.body.code, originOf(request));
      return ok(request.locale, null);
    },
  );

  app.post(
    '/api/auth/register',
    { schema: { tags, summary: 'Register and log in', body: registerRequest, response: { 200: envelopeOf(sessionResponse) } } },
    async (request) => {
      const token = await service.register(request.body, request.locale, originOf(request));
      return ok(request.locale, { token });
    },
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags,
        summary: 'Log in with e-mail and password',
        body: loginRequest,
        response: { 200: envelopeOf(sessionResponse) },
      },
    },
    async (request) => {
      const token = await service.login(request.body.email, request.body.password, originOf(request));
      return ok(request.locale, { token });
    },
  );

  app.post(
    '/api/auth/send_login_code',
    {
      schema: {
        tags,
        summary: 'Send a log-in code (passwordless)',
        body: sendLoginCodeRequest,
        response: { 200: envelopeOf(codeSentResponse) },
      },
    },
    async (request) => {
      await service.sendLoginCode(request.body.email, request.locale, originOf(request));
      return ok(request.locale, codeSent);
    },
  );

  app.post(
    '/api/auth/login_by_code',
    {
      schema: {
        tags,
        summary: 'Log in with an e-mail code',
        body: loginByCodeRequest,
        response: { 200: envelopeOf(sessionResponse) },
      },
    },
    async (request) => {
      const token = await service.loginByCode(request.body.email, request.body.code, originOf(request));
      return ok(request.locale, { token });
    },
  );

  app.post(
    '/api/auth/send_forgot_code',
    {
      schema: {
        tags,
        summary: 'Send a password reset code',
        body: sendForgotCodeRequest,
        response: { 200: envelopeOf(codeSentResponse) },
      },
    },
    async (request) => {
      await service.sendResetCode(request.body.email, request.locale, originOf(request));
      return ok(request.locale, codeSent);
    },
  );

  app.post(
    '/api/auth/check_forgot_code',
    {
      schema: {
        tags,
        summary: 'Check a reset code without using it up',
        body: checkForgotCodeRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.checkCode(request.body.email, 'reset_password', request.body.code, originOf(request));
      return ok(request.locale, null);
    },
  );

  app.post(
    '/api/auth/reset_password',
    {
      schema: {
        tags,
        summary: 'Set a new login password with a reset code',
        body: resetPasswordRequest,
        response: { 200: envelopeOf(emptyResponse) },
      },
    },
    async (request) => {
      await service.resetPassword(request.body, originOf(request));
      return ok(request.locale, null);
    },
  );
};
