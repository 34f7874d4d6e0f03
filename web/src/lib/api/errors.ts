/** Why a call failed; the message has already been shown to the member. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly kind: 'business' | 'transport' | 'timeout',
    message: string,
    /** The envelope code for business failures. */
    readonly code?: number,
  ) {
    super(message);
  }
}
