import type { Clock } from './clock.js';

/**
 * The system clock moved by an offset that end-to-end tests may change (to "advance the platform
 * day"). Only used when TEST_CLOCK_CONTROL is set; production servers run on the system clock.
 */
export class AdjustableClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): Date {
    this.offsetMs += ms;
    return this.now();
  }
}
