import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totpStep } from '../src/lib/totp.js';

// RFC 6238 appendix B test vectors (SHA-1, seed "12345678901234567890"), last 6 digits.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890', 'ascii'));
const VECTORS: [number, string][] = [
  [59, '287082'],
  [1_111_111_109, '081804'],
  [1_111_111_111, '050471'],
  [1_234_567_890, '005924'],
  [2_000_000_000, '279037'],
  [20_000_000_000, '353130'],
];

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC test vectors', () => {
    for (const [seconds, code] of VECTORS) {
      expect(hotp(base32Decode(RFC_SECRET), totpStep(seconds * 1000))).toBe(code);
      expect(matchTotp(RFC_SECRET, code, seconds * 1000)).toBe(totpStep(seconds * 1000));
    }
  });

  it('accepts one step of drift and nothing further', () => {
    const now = 1_234_567_890_000;
    const previous = hotp(base32Decode(RFC_SECRET), totpStep(now) - 1);
    const older = hotp(base32Decode(RFC_SECRET), totpStep(now) - 2);
    expect(matchTotp(RFC_SECRET, previous, now)).toBe(totpStep(now) - 1);
    expect(matchTotp(RFC_SECRET, older, now)).toBeNull();
    expect(matchTotp(RFC_SECRET, 'abcdef', now)).toBeNull();
  });

  it('round-trips base32 and builds the otpauth URI', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 7, 9]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(otpauthUri('Custos', 'a@b.com', 'ABC')).toBe(
      'otpauth://totp/Custos%3Aa%40b.com?secret=ABC&issuer=Custos&algorithm=SHA1&digits=6&period=30',
    );
  });
});
