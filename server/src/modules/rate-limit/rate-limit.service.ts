import { AppError } from '../../http/app-error.js';
import type { RateLimitRepository } from './rate-limit.repository.js';

export interface RateLimitRule {
  /** What is limited, e.g. "operator-login:user". */
  name: string;
  maxAttempts: number;
  windowS: number;
}

/** Limits shared by every server instance, because the counts live in the database. */
export class RateLimitService {
  constructor(private readonly repository: RateLimitRepository) {}

  /** Counts an attempt; past the rule's limit it refuses with 429 and the wait. */
  async consume(rule: RateLimitRule, subject: string): Promise<void> {
    const state = await this.repository.hit(`${rule.name}:${subject}`, rule.windowS);
    if (state.attempts > rule.maxAttempts) throw AppError.tooManyRequests(state.resetInS);
  }

  /** Refuses (429) while the subject has used up its attempts, without counting this one. */
  async assertNotLocked(rule: RateLimitRule, subject: string): Promise<void> {
    const state = await this.repository.peek(`${rule.name}:${subject}`, rule.windowS);
    if (state && state.attempts >= rule.maxAttempts) throw AppError.tooManyRequests(state.resetInS);
  }

  async reset(rule: RateLimitRule, subject: string): Promise<void> {
    await this.repository.clear(`${rule.name}:${subject}`);
  }

  purgeStale(ageS: number): Promise<number> {
    return this.repository.purgeOlderThan(ageS);
  }
}
