import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Remembers, per session and for a short time, that a typed secret matched its argon2id hash, so a
 * member placing several money calls in a row pays for one argon2 check instead of one per call.
 * The secret is still required and compared on every call; only an HMAC under a key that lives in
 * this process's memory is kept, bound to the exact hash it was checked against (a changed trading
 * password, whose hash has a new salt, never matches an old entry).
 */
export class VerifiedSecretCache {
  private readonly key = randomBytes(32);
  private readonly entries = new Map<string, { digest: Buffer; hash: string; expiresAtMs: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  private digest(secret: string): Buffer {
    return createHmac('sha256', this.key).update(secret, 'utf8').digest();
  }

  matches(scope: string, hash: string, secret: string): boolean {
    const entry = this.entries.get(scope);
    if (!entry) return false;
    if (entry.expiresAtMs <= this.now() || entry.hash !== hash) {
      this.entries.delete(scope);
      return false;
    }
    return timingSafeEqual(entry.digest, this.digest(secret));
  }

  remember(scope: string, hash: string, secret: string): void {
    this.entries.delete(scope);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(scope, { digest: this.digest(secret), hash, expiresAtMs: this.now() + this.ttlMs });
  }
}
