import { AppError } from '../../http/app-error.js';
import { BusinessCode } from '@custos/contract';

/**
 * How many downloads each client address may have running at once (decision 053). Per address,
 * never one global cap: one address holding many slow downloads must not stop anyone else's.
 */
export class DownloadSlots {
  private readonly running = new Map<string, number>();

  constructor(readonly perAddress: number) {}

  /** Takes a slot for `address`, or refuses with a 429; the returned function gives it back (once). */
  acquire(address: string): () => void {
    const count = this.running.get(address) ?? 0;
    if (count >= this.perAddress) {
      throw new AppError(BusinessCode.TOO_MANY_REQUESTS, 'download.too_many', { count: this.perAddress }, { 'retry-after': '5' });
    }
    this.running.set(address, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(address) ?? 1) - 1;
      if (left <= 0) this.running.delete(address);
      else this.running.set(address, left);
    };
  }

  /** Downloads running for an address (for tests and metrics). */
  runningFor(address: string): number {
    return this.running.get(address) ?? 0;
  }
}
