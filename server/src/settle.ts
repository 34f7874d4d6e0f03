// `npm run settle [-- --day YYYY-MM-DD] [--chunk N]`: runs the daily settlement from the shell (the
// configured DATABASE_URL, or the embedded database in DATA_DIR): one day, or every ended day since
// the last completed one, as the scheduled job does. Safe to run while servers run it too. Days
// settle in order (docs/decisions/017-settlement-days-in-order.md): a day that has not ended, or whose
// previous day has not completed, is refused with a one-line message and exit code 1.
import { parseArgs } from 'node:util';
import { translate } from '@custos/contract';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { AppError } from './http/app-error.js';
import { createLogger } from './lib/logger.js';
import { createServices } from './container.js';
import { systemClock } from './lib/clock.js';
import { HostingRepository } from './modules/hosting/hosting.repository.js';
import { SettlementService } from './modules/hosting/settlement.service.js';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { day: { type: 'string' }, chunk: { type: 'string' } } });
  if (values.day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.day)) throw new Error('--day must be YYYY-MM-DD');
  const config = loadConfig(process.env);
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    // The same services a server wires, so every settlement step (custody, machines, dividend) runs.
    const services = createServices(database, config, createLogger(config.logLevel));
    const settlement = values.chunk
      ? new SettlementService(
          database.db,
          new HostingRepository(database.db),
          services.ledger,
          services.audit,
          config.platformTimeZone,
          systemClock,
          createLogger(config.logLevel),
          BigInt(values.chunk),
        )
      : services.settlement;
    if (values.chunk) {
      settlement.addStep(services.machines.settlementStep(() => settlement.chunkSize));
      settlement.addStep(services.earnings.settlementStep());
      for (const step of services.teamEarnings.settlementSteps()) settlement.addStep(step);
    }
    const runs = values.day ? [await settlement.settle(values.day)].filter((run) => run !== null) : await settlement.settleDue();
    for (const run of runs) {
      process.stdout.write(
        `${run.day}: ${run.status}, ${run.ordersAccrued} orders accrued (${run.interestTotal} USDT), ${run.ordersExpired} expired, ${run.ordersRenewed} renewed\n`,
      );
    }
    if (runs.length === 0) process.stdout.write('settle: nothing to do (already settled)\n');
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // A refusal reads as the console shows it (in English); anything else as thrown.
    const message =
      error instanceof AppError
        ? translate('en', error.messageKey, error.params)
        : error instanceof Error
          ? error.message.split('\n')[0]
          : String(error);
    process.stderr.write(`settle: ${message}\n`);
    process.exit(1);
  },
);
