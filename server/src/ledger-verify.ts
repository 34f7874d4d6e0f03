// `npm run ledger:verify`: proves the ledger's invariants over a whole database (the configured
// DATABASE_URL, or the embedded one in DATA_DIR). Exits 0 when clean; otherwise prints the
// offending rows and exits 1.
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { LedgerRepository } from './modules/ledger/ledger.repository.js';
import { LedgerService } from './modules/ledger/ledger.service.js';

async function main(): Promise<number> {
  const config = loadConfig(process.env);
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    const report = await new LedgerService(database.db, new LedgerRepository(database.db)).verify();
    const out = process.stdout;
    out.write(
      `ledger: ${report.counts.entries} entries, ${report.counts.postings} postings, ${report.counts.accounts} accounts\n`,
    );
    for (const total of report.totals) out.write(`  sum of ${total.asset} balances: ${total.sum}\n`);
    if (report.clean) {
      out.write('ledger: clean (entries balance per asset, balances equal their postings, none negative, keys unique)\n');
      return 0;
    }
    for (const problem of report.problems) process.stderr.write(`  ${problem.check}: ${problem.detail}\n`);
    process.stderr.write(`ledger: ${report.problems.length} problem(s)\n`);
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`ledger:verify failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
