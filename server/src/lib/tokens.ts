import { createHash, randomBytes, randomInt } from 'node:crypto';

/** An opaque bearer token: 256 bits from the CSPRNG, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their SHA-256, so a database leak does not leak sessions. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A one-time password for people to type: no look-alike characters, CSPRNG, uniform. */
export function newOneTimePassword(length = 20): string {
  let password = '';
  for (let index = 0; index < length; index += 1) password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return password;
}

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function fromInviteAlphabet(length: number): string {
  let code = '';
  for (let index = 0; index < length; index += 1) code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return code;
}

/** An 8-character invitation code (no look-alike characters), CSPRNG. */
export function newInviteCode(): string {
  return fromInviteAlphabet(8);
}

/** The random part of a default nickname: 6 characters, unrelated to the e-mail and the invitation code. */
export function newNicknameTag(): string {
  return fromInviteAlphabet(6);
}
