/** Why a call failed; the message has already been shown to the member. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    /** unreachable: no answer at all (no connection, server down); transport: an answer that is no envelope. */
    readonly kind: 'business' | 'transport' | 'unreachable' | 'timeout',
    message: string,
    /** The envelope code for business failures. */
    readonly code?: number,
  ) {
    super(message);
  }
}
