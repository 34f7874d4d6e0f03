import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { LedgerRepository } from '../src/modules/ledger/ledger.repository.js';
import { LedgerService } from '../src/modules/ledger/ledger.service.js';
import { trackBalances } from './support/balances.js';
import { codeIn, startMailCatcher } from './support/mail-catcher.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

// A real server process on real PostgreSQL, killed with SIGKILL in the middle of a load of transfers.
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let database: TestDatabase;
let catcher: Awaited<ReturnType<typeof startMailCatcher>>;
let server: ChildProcess | undefined;
let baseUrl = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      SMTP_URL: catcher.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
    },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during start-up');
    if (Date.now() > deadline) throw new Error('server did not start');
    const healthy = await fetch(`${baseUrl}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

type Envelope<T = unknown> = { code: number; message: string; data: T };

async function call<T>(url: string, body?: object, token?: string): Promise<Envelope<T>> {
  const response = await fetch(`${baseUrl}${url}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await response.json()) as Envelope<T>;
}

beforeAll(async () => {
  database = await createTestDatabase();
  catcher = await startMailCatcher();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = await startServer(port);
}, 90_000);
afterAll(async () => {
  server?.kill('SIGKILL');
  await catcher?.close();
  await database.dispose();
});

describe('a crash under load', () => {
  it('loses nothing that was acknowledged and leaves the ledger clean', { timeout: 180_000 }, async () => {
    const db = database.database.db;
    const email = 'crash@example.com';
    const [settings] = await queryRows<{ value: { rootInviteCode: string } }>(
      db,
      sql`select value from platform_settings where key = 'registration'`,
    );
    const invitationCode = settings!.value.rootInviteCode;
    expect(await call('/api/auth/send_register_code', { email, invitationCode })).toMatchObject({ code: 200 });
    const code = codeIn(await catcher.waitFor(email));
    const registered = await call<{ token: string }>('/api/auth/register', {
      email,
      code,
      invitationCode,
      password: 'crash-password',
      confirmPassword: 'crash-password',
    });
    const token = registered.data.token;
    await call('/api/user/set_trade_password', { password: 'trade-pass-1', confirmPassword: 'trade-pass-1' }, token);
    const subId = (await call<{ id: string }>('/api/account/create_sub', { nickname: 'Sub' }, token)).data.id;
    const accounts = await call<{ id: string; current: boolean }[]>('/api/account/list', undefined, token);
    const mainId = accounts.data.find((account) => account.current)!.id;
    const ledger = new LedgerService(db, new LedgerRepository(db));
    await ledger.transaction((tx) =>
      ledger.post(tx, {
        idempotencyKey: `crash-fund:${mainId}`,
        kind: 'adjustment',
        postings: [
          {
            account: { ownerAccountId: mainId, asset: 'USDT', purpose: 'available' },
            amount: money.parseMoney('1000'),
            recordType: 'adjustment_credit',
          },
          {
            account: { platformCode: 'adjustments', asset: 'USDT' },
            amount: money.parseMoney('-1000'),
            recordType: 'adjustment_credit',
          },
        ],
      }),
    );

    const balances = await trackBalances({ testDatabase: database }, { main: mainId, sub: subId });

    // Eight clients send transfers of 0.01 until the server dies; each remembers what was acknowledged.
    const acknowledged: string[] = [];
    const unanswered: string[] = [];
    const refused: string[] = [];
    let dead = false;
    const client = async () => {
      while (!dead) {
        const idempotencyKey = randomUUID();
        try {
          const result = await call<{ id: string }>(
            '/api/account/transfer',
            { toAccountId: subId, asset: 'USDT', amount: '0.01', tradePassword: 'trade-pass-1', idempotencyKey },
            token,
          );
          if (result.code === 200) acknowledged.push(idempotencyKey);
          else refused.push(`${result.code} ${result.message}`);
        } catch {
          unanswered.push(idempotencyKey);
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));
    server!.kill('SIGKILL');
    dead = true;
    await Promise.all(clients);

    // Every acknowledged transfer is in the database, and the ledger is consistent.
    const stored = await queryRows<{ client_key: string }>(
      db,
      sql`select client_key from account_transfers where from_account_id = ${mainId}::uuid`,
    );
    const storedKeys = new Set(stored.map((row) => row.client_key));
    expect(acknowledged.filter((key) => !storedKeys.has(key))).toEqual([]);
    expect((await ledger.verify()).clean).toBe(true);

    // After a restart, retrying the requests that got no answer posts each at most once.
    server = await startServer(Number(new URL(baseUrl).port));
    for (const idempotencyKey of unanswered) {
      const retried = await call(
        '/api/account/transfer',
        { toAccountId: subId, asset: 'USDT', amount: '0.01', tradePassword: 'trade-pass-1', idempotencyKey },
        token,
      );
      expect(retried.code).toBe(200);
    }
    // Exactly the acknowledged and the retried ones are stored, each once (nothing was refused), and
    // the balances moved by exactly 0.01 for each: nothing lost, nothing doubled, no other account.
    expect(refused).toEqual([]);
    const after = await queryRows<{ client_key: string }>(
      db,
      sql`select client_key from account_transfers where from_account_id = ${mainId}::uuid`,
    );
    expect(after.map((row) => row.client_key).sort()).toEqual([...acknowledged, ...unanswered].sort());
    const moved = money.formatMoney(
      money.multiply(money.parseMoney('0.01'), String(acknowledged.length + unanswered.length), 'down'),
    );
    await balances.expectChanges({ 'main:USDT:available': `-${moved}`, 'sub:USDT:available': moved });
    expect((await ledger.verify()).clean).toBe(true);
  });
});
