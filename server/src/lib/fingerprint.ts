import { createHash } from 'node:crypto';

/** SHA-256 of a request's meaningful fields, to tell a true retry from a reused idempotency key. */
export function fingerprint(fields: Record<string, string>): string {
  const canonical = JSON.stringify(
    Object.keys(fields)
      .sort()
      .map((key) => [key, fields[key]]),
  );
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** "0.50000000" and "0.5" are the same price. */
export function normaliseDecimal(value: string): string {
  const [whole = '0', fraction = ''] = value.trim().split('.');
  const trimmedFraction = fraction.replace(/0+$/, '');
  const trimmedWhole = whole.replace(/^0+(?=\d)/, '');
  return trimmedFraction ? `${trimmedWhole}.${trimmedFraction}` : trimmedWhole;
}
