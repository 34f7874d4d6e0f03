import { base32Decode, hotp, totpStep } from '../../server/src/lib/totp';

const lastStepBySecret = new Map<string, number>();

/**
 * A code an authenticator app holding `secret` shows, never one of a step already used in this run:
 * the server accepts each step once (and one step of drift either way), so a second log-in within
 * the same 30 s uses the next step's code, and a third waits for the clock to catch up.
 * `clockOffsetMs` is how far the server's clock runs ahead of this one (earn.spec moves it).
 */
export async function freshCode(secret: string, clockOffsetMs = 0): Promise<string> {
  for (;;) {
    const current = totpStep(Date.now() + clockOffsetMs);
    const step = Math.max(current, (lastStepBySecret.get(secret) ?? current - 1) + 1);
    if (step <= current + 1) {
      lastStepBySecret.set(secret, step);
      return hotp(base32Decode(secret), step);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** What the app shows right now, without reserving the step (for making up a wrong code). */
export function currentCode(secret: string): string {
  return hotp(base32Decode(secret), totpStep(Date.now()));
}
