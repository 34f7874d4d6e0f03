// The cheapest HTTP API that can do a transfer on this machine: node:http, a pg pool and the very
// statement pgbench runs, as a named prepared statement, one round trip a request. No sessions, no
// validation, no logging. `run.mjs` measures it with the same load generator as the real API, so
// the report shows how much of the raw-SQL rate any HTTP API keeps here, before our own code costs
// anything. Started by run.mjs: `node floor-server.mjs DATABASE_URL PORT`.
import http from 'node:http';
import pg from 'pg';

const [databaseUrl, port] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 40 });
const statement = `WITH debit AS (
  UPDATE ledger_accounts SET balance = balance - $2::numeric, updated_at = now()
  WHERE id = (SELECT src FROM bench_pairs WHERE n = $1) AND balance >= $2::numeric RETURNING id, balance
), credit AS (
  UPDATE ledger_accounts SET balance = balance + $2::numeric, updated_at = now()
  WHERE id = (SELECT dst FROM bench_pairs WHERE n = $1) RETURNING id, balance
), entry AS (
  INSERT INTO journal_entries (idempotency_key, kind) VALUES ('floor:' || $3, 'transfer') RETURNING id
)
INSERT INTO postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type)
SELECT entry.id, debit.id, 'USDT', -$2::numeric, debit.balance, 'transfer_out' FROM entry, debit
UNION ALL
SELECT entry.id, credit.id, 'USDT', $2::numeric, credit.balance, 'transfer_in' FROM entry, credit`;

const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    pool.query({ name: 'floor-transfer', text: statement, values: [body.pair, body.amount, body.idempotencyKey] }).then(
      (result) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ code: result.rowCount === 2 ? 200 : 409 }));
      },
      (error) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ code: 500, msg: String(error) }));
      },
    );
  });
});
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('floor ready\n'));
process.on('SIGTERM', () => {
  server.close();
  void pool.end();
});
