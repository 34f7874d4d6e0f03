import type { FastifyRequest } from 'fastify';

/** Where a request came from, for sessions, rate limits and the audit log. */
export interface RequestOrigin {
  ip: string;
  userAgent: string | null;
  requestId: string;
}

export function originOf(request: FastifyRequest): RequestOrigin {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null, requestId: request.id };
}

/** `Authorization: Bearer <token>` or the bare token, as the spec's clients send it. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  return header.replace(/^Bearer\s+/i, '').trim();
}
