// The contracts price watcher's thread (decision 043): started by the server on PostgreSQL, it walks
// the ticks the server stores (told by message) and, every second, any product behind (ticks of a
// restart or of another instance), closes the orders they reach and runs the stop-out sweeps, on its
// own event loop and database pool, so a busy API never delays a take-profit.
import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig } from './config.js';
import { createServices } from './container.js';
import { openDatabase } from './db/client.js';
import { IntervalTask } from './lib/interval-task.js';
import { createLogger } from './lib/logger.js';
import type { WatcherReply, WatcherRequest, WatcherThreadData } from './modules/contracts/watcher-thread.js';

const SWEEP_INTERVAL_MS = 1000;

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('the contracts watcher runs as a thread of the server');
  const reply = (message: WatcherReply) => port.postMessage(message);
  try {
    const { env } = workerData as WatcherThreadData;
    const config = loadConfig(env);
    const logger = createLogger(config.logLevel);
    // Generic plans (decision 046): the walk's statement runs on every tick, and planning it cost
    // as much as running it.
    const database = await openDatabase(config.database, { genericPlans: true });
    const services = createServices(database, config, logger);
    const sweep = new IntervalTask(
      () => services.contracts.watcher.watchAll(),
      SWEEP_INTERVAL_MS,
      (error) => logger.warn({ err: error }, 'contracts watcher sweep failed'),
    );
    port.on('message', (request: WatcherRequest) => {
      if (request.type === 'walk') {
        for (const productId of request.productIds) services.contracts.watcher.kick(productId);
        return;
      }
      void (async () => {
        await sweep.stop();
        await services.contracts.watcher.stop();
        await database.close();
        reply({ type: 'stopped' });
        port.close();
      })();
    });
    if (config.jobsEnabled) sweep.start();
    reply({ type: 'ready' });
  } catch (error) {
    reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    port.close();
  }
}

void main();
