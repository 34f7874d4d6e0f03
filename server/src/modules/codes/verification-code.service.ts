import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { CODE_RESEND_COUNTDOWN_S, VERIFICATION_CODE_LENGTH } from '@custos/contract';
import { AppError } from '../../http/app-error.js';
import type { RateLimitRule, RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { CodePurpose, VerificationCodeRepository } from './verification-code.repository.js';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_WRONG_ATTEMPTS = 5;
/**
 * Wrong codes per e-mail address and purpose over every code sent in the hour, whatever address
 * they come from: a new code every minute would otherwise give 5 fresh tries a minute (decision 015).
 */
export const CODE_CHECK_PER_EMAIL: RateLimitRule = { name: 'code-check:email', maxAttempts: 10, windowS: 3600 };
/**
 * An address the member used lately has the same two limits to itself (decision 054): 10 wrong codes
 * an hour per e-mail, purpose and address, and 5 tries per code and address (a window as long as the
 * code lives), so a stranger's guesses elsewhere never use up the owner's.
 */
export const CODE_CHECK_PER_FAMILIAR_ADDRESS: RateLimitRule = {
  name: 'code-check:email-familiar',
  maxAttempts: 10,
  windowS: 3600,
};
const CODE_TRIES_PER_FAMILIAR_ADDRESS: RateLimitRule = {
  name: 'code-tries:familiar',
  maxAttempts: CODE_MAX_WRONG_ATTEMPTS,
  windowS: CODE_TTL_MS / 1000,
};

function hashCode(email: string, purpose: CodePurpose, code: string): string {
  return createHash('sha256').update(`${purpose}\u0000${email}\u0000${code}`, 'utf8').digest('hex');
}

/** Six digits from the CSPRNG, uniformly. */
export function newVerificationCode(): string {
  return randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)
    .toString()
    .padStart(VERIFICATION_CODE_LENGTH, '0');
}

/**
 * E-mail codes: 6 digits, valid 10 minutes, single use, at most 5 wrong tries, and not re-sent
 * within 60 s. Only a hash is stored.
 */
export class VerificationCodeService {
  constructor(
    private readonly repository: VerificationCodeRepository,
    private readonly rateLimits: RateLimitService,
  ) {}

  /** Makes a new code (the previous one stops counting); refuses within 60 s of the last one. */
  async issue(email: string, purpose: CodePurpose): Promise<string> {
    const latest = await this.repository.latest(email, purpose);
    if (latest && latest.ageS < CODE_RESEND_COUNTDOWN_S) {
      const waitS = Math.max(1, Math.ceil(CODE_RESEND_COUNTDOWN_S - latest.ageS));
      throw new AppError(429, 'auth.code_too_soon', { seconds: waitS }, { 'retry-after': String(waitS) });
    }
    const code = newVerificationCode();
    await this.repository.insert({
      email,
      purpose,
      codeHash: hashCode(email, purpose, code),
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    });
    return code;
  }

  /**
   * Checks the newest code for the address and purpose; with `consume` it is used up. Each try is
   * counted before the comparison (so parallel guesses cannot outrun the limit), against the code and
   * against the e-mail over the hour; a right code hands its count back. Past the code's limit the
   * member must ask for a new one.
   *
   * `familiarAddress` is the caller's address when the member opened a session from it lately
   * (decision 054): its tries are counted on its own per code and per hour, apart from everyone
   * else's, so strangers who use up the shared counts cannot keep the owner's own code from working.
   */
  async verify(
    email: string,
    purpose: CodePurpose,
    code: string,
    options: { consume: boolean; familiarAddress?: string | undefined },
  ): Promise<void> {
    const familiar = options.familiarAddress;
    const perEmail =
      familiar === undefined
        ? await this.rateLimits.reserve(CODE_CHECK_PER_EMAIL, `${purpose}:${email}`)
        : await this.rateLimits.reserve(CODE_CHECK_PER_FAMILIAR_ADDRESS, `${purpose}:${email}|${familiar}`);
    const latest = await this.repository.latest(email, purpose);
    if (!latest || latest.consumedAt || latest.expired) throw AppError.badRequest('auth.code_wrong');
    const claim = await this.claimCodeAttempt(latest.id, familiar);
    if (claim === null) {
      // Not compared, so not a guess against the e-mail either.
      await perEmail.release();
      throw AppError.badRequest('auth.code_exhausted');
    }
    const expected = Buffer.from(latest.codeHash, 'hex');
    const given = Buffer.from(hashCode(email, purpose, code), 'hex');
    if (!timingSafeEqual(expected, given)) {
      throw AppError.badRequest(claim.attempts >= CODE_MAX_WRONG_ATTEMPTS ? 'auth.code_exhausted' : 'auth.code_wrong');
    }
    await perEmail.release();
    if (!options.consume) {
      await claim.release();
      return;
    }
    if (!(await this.repository.consume(latest.id))) throw AppError.badRequest('auth.code_wrong');
  }

  /**
   * One try at the code: on the code's own count for unfamiliar addresses, in a bucket of the code
   * and the address for a familiar one. Null when that count is used up.
   */
  private async claimCodeAttempt(
    codeId: string,
    familiarAddress: string | undefined,
  ): Promise<{ attempts: number; release(): Promise<void> } | null> {
    if (familiarAddress !== undefined)
      return this.rateLimits.tryReserve(CODE_TRIES_PER_FAMILIAR_ADDRESS, `${codeId}|${familiarAddress}`);
    const attempts = await this.repository.claimAttempt(codeId, CODE_MAX_WRONG_ATTEMPTS);
    if (attempts === null) return null;
    return { attempts, release: () => this.repository.releaseAttempt(codeId) };
  }
}
