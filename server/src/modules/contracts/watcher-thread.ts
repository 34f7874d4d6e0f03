import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';

/** What the server's thread tells the watcher thread. */
export type WatcherRequest = { type: 'walk'; productIds: string[] } | { type: 'stop' };
/** What the watcher thread answers. */
export type WatcherReply = { type: 'ready' } | { type: 'stopped' } | { type: 'failed'; message: string };

/** What the watcher thread is started with: the server's environment, its pool cut down. */
export interface WatcherThreadData {
  env: Record<string, string | undefined>;
}

/** Connections of the watcher thread's own pool: a walk per product side by side, the sweeps, and room. */
export const WATCHER_POOL_SIZE = 8;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 30_000;

export interface WatcherThread {
  /** Asks the thread to walk these products' new ticks (coalesced there). */
  walk(productIds: string[]): void;
  /** Lets the running walk finish, closes the thread's database pool and ends the thread. */
  stop(): Promise<void>;
}

/**
 * Starts the contracts price watcher on a thread of its own (decision 043): `entry` is the watcher's
 * entry file beside the server's (src/contracts-watcher.ts under tsx, dist/contracts-watcher.js in
 * the bundle). Resolves once the thread has its database and services.
 */
export async function startWatcherThread(
  entry: URL,
  env: Record<string, string | undefined>,
  logger: FastifyBaseLogger,
): Promise<WatcherThread> {
  const workerData: WatcherThreadData = { env: { ...env, DATABASE_POOL_SIZE: String(WATCHER_POOL_SIZE) } };
  // Under tsx (the source run by tests and `npm run dev`), the thread registers tsx's loader first:
  // loader hooks are per thread, and a thread started on a .ts file would not have them.
  const worker = entry.pathname.endsWith('.ts')
    ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`, {
        eval: true,
        workerData,
      })
    : new Worker(entry, { workerData });
  let stopping = false;
  worker.on('error', (error) => logger.error({ err: error }, 'contracts watcher thread failed'));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the contracts watcher thread did not start')), START_TIMEOUT_MS);
    const onMessage = (reply: WatcherReply) => {
      if (reply.type === 'ready') {
        clearTimeout(timer);
        worker.off('message', onMessage);
        resolve();
      } else if (reply.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`the contracts watcher thread did not start: ${reply.message}`));
      }
    };
    worker.on('message', onMessage);
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the contracts watcher thread exited during start-up (${code})`));
    });
  });
  worker.on('exit', (code) => {
    if (!stopping) logger.error({ code }, 'contracts watcher thread exited');
  });
  const post = (request: WatcherRequest) => worker.postMessage(request);
  return {
    walk(productIds) {
      if (!stopping && productIds.length > 0) post({ type: 'walk', productIds });
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      post({ type: 'stop' });
      const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
