import { AppError } from '../../http/app-error.js';
import type { AccountGuardPolicy, BucketClaim, RateLimitRepository } from './rate-limit.repository.js';

export type { AccountGuardPolicy } from './rate-limit.repository.js';

export interface RateLimitRule {
  /** What is limited, e.g. "operator-login:user". */
  name: string;
  maxAttempts: number;
  windowS: number;
}

/**
 * An attempt counted before its answer is known. A check that turns out right hands it back
 * (`release`), so only failures stay counted, yet parallel guesses can never get more checks than
 * the limit allows: the count goes up before any comparison.
 */
export interface Reservation {
  release(): Promise<void>;
}

/** An account-wide attempt (see `reserveAccountAttempt`); `failures` includes this one. */
export interface AccountReservation extends Reservation {
  failures: number;
}

/** Limits shared by every server instance, because the counts live in the database. */
export class RateLimitService {
  constructor(private readonly repository: RateLimitRepository) {}

  private readonly queues = new Map<string, Promise<unknown>>();

  /**
   * Runs `task` after every earlier task for `key` in this process has finished. A reservation is
   * held while its password is compared; without this, a member's own parallel requests with the
   * right password (a burst of transfers) would hold every slot at once and refuse each other. The
   * database count still bounds what several server instances let through together.
   */
  async exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    }
  }

  /** Counts an attempt; past the rule's limit it refuses with 429 and the wait. */
  async consume(rule: RateLimitRule, subject: string): Promise<void> {
    const state = await this.repository.hit(`${rule.name}:${subject}`, rule.windowS);
    if (state.attempts > rule.maxAttempts) throw AppError.tooManyRequests(state.resetInS);
  }

  /**
   * Counts an attempt atomically before it is checked, or refuses (429 with the wait) when the
   * window is full; nothing is counted then. Release the reservation when the attempt succeeds.
   */
  async reserve(rule: RateLimitRule, subject: string): Promise<Reservation> {
    const claim: BucketClaim | null = await this.repository.claim(`${rule.name}:${subject}`, rule.windowS, rule.maxAttempts);
    if (!claim) {
      const state = await this.repository.peek(`${rule.name}:${subject}`, rule.windowS);
      throw AppError.tooManyRequests(state?.resetInS ?? 1);
    }
    return { release: () => this.repository.release(claim) };
  }

  /**
   * `reserve` that answers null instead of refusing when the window is full, for callers whose
   * refusal is not a 429 (a code's own tries used up). `attempts` counts this one.
   */
  async tryReserve(rule: RateLimitRule, subject: string): Promise<(Reservation & { attempts: number }) | null> {
    const claim = await this.repository.claim(`${rule.name}:${subject}`, rule.windowS, rule.maxAttempts);
    if (!claim) return null;
    return { attempts: claim.attempts, release: () => this.repository.release(claim) };
  }

  /** Refuses (429) while the subject has used up its attempts, without counting this one. */
  async assertNotLocked(rule: RateLimitRule, subject: string): Promise<void> {
    const state = await this.repository.peek(`${rule.name}:${subject}`, rule.windowS);
    if (state && state.attempts >= rule.maxAttempts) throw AppError.tooManyRequests(state.resetInS);
  }

  async reset(rule: RateLimitRule, subject: string): Promise<void> {
    await this.repository.clear(`${rule.name}:${subject}`);
  }

  /**
   * Counts an attempt against an account over every address. Past the policy's ceiling an attempt
   * waits (429) until a delay that doubles with each failure has passed since the last one, unless
   * `exempt` (an address the owner has used, or an operator giving an authenticator code).
   */
  async reserveAccountAttempt(
    policy: AccountGuardPolicy & { name: string },
    subject: string,
    exempt: boolean,
  ): Promise<AccountReservation> {
    const key = `${policy.name}:${subject}`;
    const claim = await this.repository.claimAccountAttempt(key, policy, exempt);
    if (!claim.claimed) throw AppError.tooManyRequests(claim.retryAfterS);
    return {
      failures: claim.failures,
      release: () => this.repository.releaseAccountAttempt(key, claim.windowStartedAt),
    };
  }

  /** True the first time in a window that the account's failures reach the ceiling. */
  accountNoticeDue(policy: AccountGuardPolicy & { name: string }, subject: string): Promise<boolean> {
    return this.repository.markAccountNoticeDue(`${policy.name}:${subject}`, policy.ceiling);
  }

  async resetAccount(policy: { name: string }, subject: string): Promise<void> {
    await this.repository.clearAccount(`${policy.name}:${subject}`);
  }

  purgeStale(ageS: number): Promise<number> {
    return this.repository.purgeOlderThan(ageS);
  }
}
