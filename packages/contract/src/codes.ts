/**
 * Business codes carried in the envelope's `code` field (product.md §3). The HTTP status only tells
 * the class of the outcome; clients trust a parseable envelope over the status.
 */
export const BusinessCode = {
  OK: 200,
  /** The login password must be set anew (an operator reset it); the app opens update_pwd2. */
  PASSWORD_RESET_REQUIRED: 300,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  /** Console log-in: the password was right and the operator's authenticator code is needed as well. */
  AUTHENTICATOR_CODE_REQUIRED: 4010,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** The request body is over the call's limit. */
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  /** The trading password has not been set; the app opens update_pwd3. */
  TRADE_PASSWORD_NOT_SET: 4900,
  /** No withdrawal method exists; the app opens withdraw2. */
  NO_WITHDRAW_METHOD: 4901,
} as const;

export type BusinessCode = (typeof BusinessCode)[keyof typeof BusinessCode];

export const ALL_BUSINESS_CODES: readonly BusinessCode[] = Object.values(BusinessCode);

/** HTTP status that accompanies each business code. */
export function httpStatusFor(code: BusinessCode): number {
  switch (code) {
    case BusinessCode.OK:
      return 200;
    case BusinessCode.BAD_REQUEST:
      return 400;
    case BusinessCode.UNAUTHORIZED:
    case BusinessCode.AUTHENTICATOR_CODE_REQUIRED:
      return 401;
    case BusinessCode.PASSWORD_RESET_REQUIRED:
    case BusinessCode.TRADE_PASSWORD_NOT_SET:
    case BusinessCode.FORBIDDEN:
      return 403;
    case BusinessCode.NOT_FOUND:
      return 404;
    case BusinessCode.NO_WITHDRAW_METHOD:
    case BusinessCode.CONFLICT:
      return 409;
    case BusinessCode.PAYLOAD_TOO_LARGE:
      return 413;
    case BusinessCode.TOO_MANY_REQUESTS:
      return 429;
    case BusinessCode.INTERNAL:
      return 500;
  }
}

/** Codes after which the member app opens a fixed screen, 1.5 s after showing the message. */
export const REDIRECT_ROUTE_BY_CODE = {
  [BusinessCode.PASSWORD_RESET_REQUIRED]: '/pages/update_pwd/update_pwd2',
  [BusinessCode.TRADE_PASSWORD_NOT_SET]: '/pages/update_pwd/update_pwd3',
  [BusinessCode.NO_WITHDRAW_METHOD]: '/pages/withdraw/withdraw2',
} as const satisfies Partial<Record<BusinessCode, string>>;
