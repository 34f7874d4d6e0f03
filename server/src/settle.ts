// `npm run settle [-- --day YYYY-MM-DD] [--chunk N]`: runs the daily settlement from the shell (the
// configured DATABASE_URL, or the embedded database in DATA_DIR): one day, or every ended day since
// the last completed one, as the scheduled job does. Safe to run while servers run it too.
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { createLogger } from './lib/logger.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { systemClock } from './modules/common/common.service.js';
import { HostingRepository } from './modules/hosting/hosting.repository.js';
import { SETTLEMENT_CHUNK, SettlementService } from './modules/hosting/settlement.service.js';
import { LedgerRepository } from './modules/ledger/ledger.repository.js';
import { LedgerService } from './modules/ledger/ledger.service.js';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { day: { type: 'string' }, chunk: { type: 'string' } } });
  if (values.day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.day)) throw new Error('--day must be YYYY-MM-DD');
  const config = loadConfig(process.env);
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    const { db } = database;
    const ledger = new LedgerService(db, new LedgerRepository(db));
    const settlement = new SettlementService(
      db,
      new HostingRepository(db),
      ledger,
      new AuditRepository(db),
      config.platformTimeZone,
      systemClock,
      createLogger(config.logLevel),
      values.chunk ? BigInt(values.chunk) : SETTLEMENT_CHUNK,
    );
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
    process.stderr.write(`settle: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
