import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import {
  BusinessCode,
  fieldLabel,
  httpStatusFor,
  isMessageKey,
  localeFromLangHeader,
  translate,
  type Envelope,
  type Locale,
  type MessageKey,
  type MessageParams,
} from '@custos/contract';
import { AppError } from './app-error.js';
import { drainRefusedBody } from './body-limits.js';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string | undefined;
}

function sendError(
  reply: FastifyReply,
  code: BusinessCode,
  messageKey: MessageKey,
  params: MessageParams = {},
  headers: Record<string, string> = {},
): FastifyReply {
  const body: Envelope<null> = { code, message: translate(reply.request.locale, messageKey, params), data: null };
  return reply.code(httpStatusFor(code)).headers(headers).type('application/json; charset=utf-8').send(body);
}

/** Why a field failed, as a message key: contract reasons first, then zod's issue kind. */
function reasonKeyFor(issue: ValidationIssue): MessageKey {
  const fromContract = `reason.${issue.message ?? ''}`;
  if (isMessageKey(fromContract)) return fromContract;
  switch (issue.keyword) {
    case 'invalid_type':
      return /received undefined/.test(issue.message ?? '') ? 'reason.required' : 'reason.wrong_type';
    case 'unrecognized_keys':
      return 'reason.unknown_field';
    case 'too_big':
      return 'reason.too_long';
    default:
      return 'reason.invalid';
  }
}

/** `400` naming the (first) offending field in the caller's language. */
export function validationMessage(locale: Locale, issues: readonly ValidationIssue[]): string {
  const issue = issues[0];
  if (!issue) return translate(locale, 'bad_request');
  const path = issue.instancePath.split('/').filter(Boolean);
  const fieldName = path.filter((segment) => !/^\d+$/.test(segment)).at(-1) ?? 'body';
  const field = fieldLabel(locale, fieldName);
  const reasonKey = reasonKeyFor(issue);
  const reason = translate(locale, reasonKey, { field });
  // "please enter e-mail" already names the field.
  return reasonKey === 'reason.required' ? reason : translate(locale, 'field_error', { field, reason });
}

/** One error handler: every failure leaves as an envelope with a code and a localised message. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError | AppError>((error, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.code === BusinessCode.INTERNAL) request.log.error({ err: error }, 'internal error');
      return sendError(reply, error.code, error.messageKey, error.params, error.headers);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const body: Envelope<null> = {
        code: BusinessCode.BAD_REQUEST,
        message: validationMessage(request.locale, error.validation),
        data: null,
      };
      return reply.code(400).send(body);
    }
    if (isResponseSerializationError(error)) {
      // The server broke its own contract: a bug, never the caller's fault.
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return sendError(reply, BusinessCode.INTERNAL, 'internal');
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(reply, BusinessCode.BAD_REQUEST, 'invalid_json');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(reply, BusinessCode.BAD_REQUEST, 'unsupported_media_type');
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return drainRefusedBody(request.raw).then(() => {
          sendError(reply, BusinessCode.PAYLOAD_TOO_LARGE, 'body_too_large');
        });
      default:
        break;
    }
    const statusCode = error.statusCode;
    if (statusCode === 429) return sendError(reply, BusinessCode.TOO_MANY_REQUESTS, 'too_many_requests', { seconds: 60 });
    // Whatever else Fastify refuses before a route runs (bad Content-Length, 413, 414, 415, …) is the
    // caller's mistake: a 400 envelope, never Fastify's own body.
    if (error instanceof SyntaxError || (statusCode !== undefined && statusCode >= 400 && statusCode < 500)) {
      return sendError(reply, BusinessCode.BAD_REQUEST, 'bad_request');
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, BusinessCode.INTERNAL, 'internal');
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    return sendError(reply, BusinessCode.NOT_FOUND, 'route_not_found', { method: request.method, path });
  });
}

/**
 * Fastify's `frameworkErrors`: the router's refusals (a broken %-escape in the path, a path parameter
 * over its length limit) come here before any hook ran, so the caller's language and request id are
 * set here too, and they leave as the same envelope as every other refusal.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.locale = localeFromLangHeader(request.headers.lang);
  void reply.header('x-request-id', request.id);
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      void sendError(reply, BusinessCode.BAD_REQUEST, 'bad_url');
      return;
    default:
      request.log.error({ err: error }, 'router error');
      void sendError(reply, BusinessCode.INTERNAL, 'internal');
  }
}
