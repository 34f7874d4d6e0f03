import { ApiError } from '../api/errors';

/**
 * A key for one money request (`idempotencyKey`): a UUID. `crypto.randomUUID` only exists in secure
 * contexts, so a page served over plain http on a LAN address builds the same version-4 UUID from
 * `crypto.getRandomValues`.
 */
export function newIdempotencyKey(
  cryptoImpl: Pick<Crypto, 'getRandomValues'> & Partial<Pick<Crypto, 'randomUUID'>> = crypto,
): string {
  if (typeof cryptoImpl.randomUUID === 'function') return cryptoImpl.randomUUID();
  const bytes = cryptoImpl.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whether the next attempt must reuse the key of a failed one. Only when the outcome is unknown (the
 * request may have reached the server: network error or time-out) — a retry with the same key then
 * returns the first result instead of moving money twice. A business refusal moved nothing, so the
 * next attempt starts afresh.
 */
export function mustReuseKeyAfter(error: unknown): boolean {
  return !(error instanceof ApiError && error.kind === 'business');
}

/** Holds the key of the request being made; a new one after a success or a refusal. */
export class IdempotencyKeyHolder {
  private key = newIdempotencyKey();

  get current(): string {
    return this.key;
  }

  succeeded(): void {
    this.key = newIdempotencyKey();
  }

  failed(error: unknown): void {
    if (!mustReuseKeyAfter(error)) this.key = newIdempotencyKey();
  }
}
