import type { FastifyReply, FastifyRequest } from 'fastify';
import { BusinessCode } from '@custos/contract';
import { AppError } from '../../http/app-error.js';
import { bearerToken } from '../../http/origin.js';
import type { AuthService, MemberSessionContext } from './auth.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    memberSession: MemberSessionContext | null;
  }
}

/** Calls a member whose password was reset by an operator may still make (everything else → 300). */
const ALLOWED_WHILE_RESET_REQUIRED = new Set(['/api/user/update_password_forced', '/api/user/logout']);

/**
 * onRequest hook for member calls: a live session; code 300 until an operator-reset password is
 * replaced. It runs before the body is parsed or validated, so a caller without a session gets 401
 * and learns nothing about the call's inputs (decision 018).
 */
export function requireMember(service: AuthService) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const context = await service.authenticate(bearerToken(request));
    if (context.member.mustResetPassword && !ALLOWED_WHILE_RESET_REQUIRED.has(request.routeOptions.url ?? '')) {
      throw new AppError(BusinessCode.PASSWORD_RESET_REQUIRED, 'password_reset_required');
    }
    request.memberSession = context;
  };
}

export function memberOf(request: FastifyRequest): MemberSessionContext {
  if (!request.memberSession) throw AppError.unauthorized();
  return request.memberSession;
}
