import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * A few things are the platform's, not a test's: the exchange settings, the server's clock. A test
 * that changes one holds its lock for as long as it relies on its own value, so the same test
 * repeated on the other worker (`--repeat-each`) waits for it rather than changing it underneath.
 * The lock is a directory (made atomically) in a folder the global setup makes fresh for each run,
 * so a run that was killed leaves no lock behind for the next.
 */
export async function withPlatformLock<T>(
  name: 'exchange-settings' | 'server-clock' | 'otc-settings' | 'app-releases' | 'contracts-settings',
  body: () => Promise<T>,
): Promise<T> {
  const folder = process.env.E2E_LOCK_DIR;
  if (!folder) throw new Error('E2E_LOCK_DIR is not set (global setup did not run)');
  const lock = path.join(folder, name);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Held by the other worker: wait for it to let go (the holder's test time-out bounds this).
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await body();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
