/** Where the server reads "now": the system's clock, or one a test or the demo moves (`AdjustableClock`). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
