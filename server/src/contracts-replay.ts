// `npm run contracts:replay [-- --speed 10] [--loop] [--file path.csv]`: replays recorded bid/ask ticks
// (server/data/contract-ticks.csv by default) into the contract products of the configured database
// (DATABASE_URL, or the embedded one in DATA_DIR), as source `replay`, and walks them: take-profit,
// stop-loss and stop-out fire as they would from a feed (docs/decisions/034-contracts.md). Safe while
// servers run: the watcher walks each product under its row lock.
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { createServices } from './container.js';
import { createLogger } from './lib/logger.js';
import { ContractsReplay } from './modules/contracts/replay.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { speed: { type: 'string' }, loop: { type: 'boolean' }, file: { type: 'string' } },
  });
  const speed = values.speed === undefined ? 1 : Number(values.speed);
  if (!Number.isFinite(speed) || speed <= 0) throw new Error('--speed must be a positive number');
  const config = loadConfig(process.env);
  const database = await openDatabase(config.database);
  const logger = createLogger(config.logLevel);
  try {
    await database.migrate();
    const services = createServices(database, config, logger);
    await services.settings.ensureDefaults();
    const replay = new ContractsReplay(services.contracts, logger, { speed, loop: values.loop === true, file: values.file });
    const stop = () => void replay.stop();
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    await replay.start();
    await replay.done();
    await services.contracts.watcher.watchAll();
    await services.contracts.watcher.stop();
    process.stdout.write(`contracts replay: ${replay.ingested} ticks replayed\n`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`contracts replay: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
