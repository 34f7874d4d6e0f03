import { BusinessCode, type MessageKey, type MessageParams } from '@custos/contract';

/**
 * A refusal the caller should see: a business code and a message key translated into the caller's
 * language by the error handler. Anything thrown that is not an AppError is a 500.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: BusinessCode,
    readonly messageKey: MessageKey,
    readonly params: MessageParams = {},
    /** Extra headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(messageKey);
  }

  static badRequest(messageKey: MessageKey = 'bad_request', params?: MessageParams): AppError {
    return new AppError(BusinessCode.BAD_REQUEST, messageKey, params);
  }
  static unauthorized(messageKey: MessageKey = 'unauthorized'): AppError {
    return new AppError(BusinessCode.UNAUTHORIZED, messageKey);
  }
  static forbidden(messageKey: MessageKey = 'forbidden'): AppError {
    return new AppError(BusinessCode.FORBIDDEN, messageKey);
  }
  static notFound(messageKey: MessageKey = 'not_found', params?: MessageParams): AppError {
    return new AppError(BusinessCode.NOT_FOUND, messageKey, params);
  }
  static conflict(messageKey: MessageKey = 'conflict', params?: MessageParams): AppError {
    return new AppError(BusinessCode.CONFLICT, messageKey, params);
  }
  static tooManyRequests(retryAfterS: number): AppError {
    return new AppError(
      BusinessCode.TOO_MANY_REQUESTS,
      'too_many_requests',
      { seconds: retryAfterS },
      { 'retry-after': String(retryAfterS) },
    );
  }
}
