import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  money,
  OTC_SETTINGS_DEFAULTS,
  type Money,
  type OtcListingDetail,
  type OtcOrder,
  type OtcOrderDetail,
} from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { LedgerRepository } from '../src/modules/ledger/ledger.repository.js';
import { LedgerService } from '../src/modules/ledger/ledger.service.js';
import { OtcRepository } from '../src/modules/otc/otc.repository.js';
import { trackBalances, type BalanceTracker } from './support/balances.js';
import { listingBody, seedTraders, TRADE_PASSWORD, type Trader } from './support/otc.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

// A real server process on real PostgreSQL, killed with SIGKILL during a burst of OTC takes,
// payments, cancellations and releases; after a restart every order is in a valid state and the
// escrow held equals what listings and open orders hold (docs/decisions/031-otc.md).
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let database: TestDatabase;
let server: ChildProcess | undefined;
let baseUrl = '';
let sellers: Trader[];
let buyers: Trader[];
let balances: BalanceTracker;

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

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}
async function call<T>(url: string, token: string, body?: object): Promise<Envelope<T>> {
  const response = await fetch(`${baseUrl}${url}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', authorization: token, lang: 'EN' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await response.json()) as Envelope<T>;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.database;
  const ledger = new LedgerService(db, new LedgerRepository(db));
  sellers = await seedTraders(db, ledger, 'crash-seller', 4, '100000');
  buyers = await seedTraders(db, ledger, 'crash-buyer', 12, '1000');
  balances = await trackBalances(
    { testDatabase: database },
    Object.fromEntries([...sellers, ...buyers].map((trader, index) => [`trader${index}`, trader.accountId])),
  );
  // Room for a long burst: many cancellations and open orders per taker.
  await db.execute(
    sql`insert into platform_settings (key, value)
        values ('otc', ${JSON.stringify({ ...OTC_SETTINGS_DEFAULTS, takerDailyCancelLimit: 100, maxOpenTakerOrders: 20 })}::jsonb)`,
  );
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = await startServer(port);
}, 120_000);
afterAll(async () => {
  server?.kill('SIGKILL');
  await database.dispose();
});

async function checkEscrow(): Promise<void> {
  const { db } = database.database;
  const problems = await new OtcRepository(db).escrowProblems();
  expect(problems).toEqual([]);
  const report = await new LedgerService(db, new LedgerRepository(db)).verify();
  expect(report.problems).toEqual([]);
  // Every order is in a state it may be in, with what that state needs.
  const invalid = await queryRows<{ id: string }>(
    db,
    sql`select id::text as id from otc_orders
        where not ((state = 'pending_payment' and paid_at is null and completed_at is null and cancelled_at is null)
                or (state = 'paid' and paid_at is not null and completed_at is null and cancelled_at is null)
                or (state = 'appeal' and paid_at is not null)
                or (state = 'completed' and completed_at is not null and cancelled_at is null)
                or (state = 'cancelled' and cancelled_at is not null and cancel_reason is not null and completed_at is null))`,
  );
  expect(invalid).toEqual([]);
}

describe('a crash during an OTC burst', () => {
  it(
    'leaves every order valid and escrow equal to open quantities, before and after a restart',
    { timeout: 240_000 },
    async () => {
      const listings: string[] = [];
      for (const seller of sellers) {
        const posted = await call<OtcListingDetail>(
          '/api/otc/post',
          seller.token,
          listingBody(seller, { quantity: '5000', minPerOrder: '10', maxPerOrder: '50' }),
        );
        expect(posted.code).toBe(200);
        listings.push(posted.data.id);
      }

      // Every operation the server acknowledged (answered 200) before the kill, to be found after it.
      const takes = new Map<string, { buyer: Trader; amount: string }>();
      const paid = new Set<string>();
      const released = new Set<string>();
      const cancelled = new Map<string, 'buyer_cancelled' | 'seller_cancelled'>();
      let acknowledged = 0;
      let dead = false;
      const buyerLoop = async (buyer: Trader) => {
        while (!dead) {
          try {
            const listingId = listings[randomInt(listings.length)]!;
            const taken = await call<OtcOrderDetail>('/api/otc/buy', buyer.token, {
              listingId,
              amount: String(10 + randomInt(20)),
              idempotencyKey: randomUUID(),
            });
            if (taken.code !== 200) continue;
            takes.set(taken.data.id, { buyer, amount: taken.data.amount });
            acknowledged += 1;
            const pay = randomInt(10) < 6;
            const action = pay ? '/api/otc/confirm_pay' : '/api/otc/buyer_cancel';
            if ((await call(action, buyer.token, { orderId: taken.data.id })).code === 200) {
              if (pay) paid.add(taken.data.id);
              else cancelled.set(taken.data.id, 'buyer_cancelled');
              acknowledged += 1;
            }
          } catch {
            // The server died under this request.
          }
        }
      };
      const sellerLoop = async (seller: Trader) => {
        while (!dead) {
          try {
            const paidList = await call<{ items: OtcOrder[] }>('/api/otc/my_sell_list?state=paid&pageSize=20', seller.token);
            for (const order of paidList.data?.items ?? []) {
              const release = await call('/api/otc/release', seller.token, { orderId: order.id, tradePassword: TRADE_PASSWORD });
              if (release.code === 200) {
                released.add(order.id);
                acknowledged += 1;
              }
            }
            const pending = await call<{ items: OtcOrder[] }>(
              '/api/otc/my_sell_list?state=pending_payment&pageSize=5',
              seller.token,
            );
            const victim = pending.data?.items[0];
            if (victim && randomInt(4) === 0) {
              if ((await call('/api/otc/cancel', seller.token, { orderId: victim.id })).code === 200) {
                cancelled.set(victim.id, 'seller_cancelled');
                acknowledged += 1;
              }
            }
          } catch {
            // The server died under this request.
          }
        }
      };
      const loops = [...buyers.map(buyerLoop), ...sellers.map(sellerLoop)];
      while (acknowledged < 120) await new Promise((resolve) => setTimeout(resolve, 20));
      server!.kill('SIGKILL');
      dead = true;
      await Promise.all(loops);

      const { db } = database.database;
      const expectAcknowledged = async () => {
        const rows = await queryRows<{ id: string; buyer: string; amount: string; state: string; cancel_reason: string | null }>(
          db,
          sql`select id::text as id, buyer_account_id::text as buyer, amount::text as amount, state, cancel_reason from otc_orders`,
        );
        const byId = new Map(rows.map((row) => [row.id, row]));
        for (const [id, take] of takes) {
          expect(byId.get(id), `acknowledged order ${id}`).toMatchObject({ buyer: take.buyer.accountId, amount: take.amount });
        }
        // A paid order can only have gone on to its release since (neither side may cancel it).
        for (const id of paid) expect(['paid', 'completed']).toContain(byId.get(id)?.state);
        for (const id of released) expect(byId.get(id)?.state).toBe('completed');
        for (const [id, reason] of cancelled) expect(byId.get(id)).toMatchObject({ state: 'cancelled', cancel_reason: reason });
      };
      const [counts] = await queryRows<{ orders: number; completed: number; cancelled: number; open: number }>(
        db,
        sql`select count(*)::int as orders, count(*) filter (where state = 'completed')::int as completed,
            count(*) filter (where state = 'cancelled')::int as cancelled,
            count(*) filter (where state in ('pending_payment', 'paid', 'appeal'))::int as open from otc_orders`,
      );
      expect(counts!.orders).toBeGreaterThan(20);
      expect(counts!.completed).toBeGreaterThan(0);
      expect(counts!.cancelled).toBeGreaterThan(0);
      await checkEscrow();
      await expectAcknowledged();

      // The exact totals: each buyer has the 1000 they were funded with plus every completed order's
      // amount, the platform's fees are the completed orders' fees, and each listing's completed
      // quantity is its completed orders' sum.
      const expectTotals = async () => {
        const rows = await queryRows<{ id: string; buyer: string; listing: string; state: string; amount: string; fee: string }>(
          db,
          sql`select id::text as id, buyer_account_id::text as buyer, listing_id::text as listing, state, amount::text as amount,
                fee::text as fee from otc_orders`,
        );
        const completed = rows.filter((row) => row.state === 'completed');
        const sum = (values: string[]) =>
          money.formatMoney(values.reduce((total, value) => money.add(total, money.parseMoney(value)), money.ZERO));
        const balances = await new LedgerService(db, new LedgerRepository(db)).balancesOf(buyers.map((buyer) => buyer.accountId));
        for (const buyer of buyers) {
          const bought = completed.filter((row) => row.buyer === buyer.accountId).map((row) => row.amount);
          expect(money.formatMoney(balances.get(`${buyer.accountId}:USDT:available`) ?? money.ZERO)).toBe(
            sum(['1000', ...bought]),
          );
        }
        const [fees] = await queryRows<{ balance: string }>(
          db,
          sql`select coalesce(sum(balance), 0)::numeric(38,4)::text as balance from ledger_accounts where platform_code = 'fees'`,
        );
        expect(fees!.balance).toBe(sum(['0', ...completed.map((row) => row.fee)]));
        const listingRows = await queryRows<{ id: string; completed: string }>(
          db,
          sql`select id::text as id, completed::text as completed from otc_listings`,
        );
        for (const listing of listingRows)
          expect(listing.completed).toBe(
            sum(['0', ...completed.filter((row) => row.listing === listing.id).map((row) => row.amount)]),
          );
      };
      await expectTotals();

      // After a restart the open orders carry on: every paid order is released, every pending one cancelled.
      server = await startServer(Number(new URL(baseUrl).port));
      for (const seller of sellers) {
        for (const state of ['paid', 'pending_payment'] as const) {
          const open = await call<{ items: OtcOrder[] }>(`/api/otc/my_sell_list?state=${state}&pageSize=100`, seller.token);
          for (const order of open.data.items) {
            const done =
              state === 'paid'
                ? await call('/api/otc/release', seller.token, { orderId: order.id, tradePassword: TRADE_PASSWORD })
                : await call('/api/otc/cancel', seller.token, { orderId: order.id });
            expect(done.code).toBe(200);
          }
        }
        const listing = await call('/api/otc/revoke', seller.token, { listingId: listings[sellers.indexOf(seller)]! });
        expect(listing.code).toBe(200);
      }
      const [left] = await queryRows<{ open: number; held: string }>(
        db,
        sql`select (select count(*)::int from otc_orders where state in ('pending_payment', 'paid', 'appeal')) as open,
            (select coalesce(sum(amount), 0)::numeric(38,4)::text from ledger_holds where status = 'pending' and reference_type like 'otc_%') as held`,
      );
      expect(left).toEqual({ open: 0, held: '0.0000' });
      await checkEscrow();
      await expectAcknowledged();
      await expectTotals();

      // Every account, exactly: with every order finished and every listing revoked nothing is held;
      // each buyer has what they bought, each seller paid what was sold plus the 0.1 % maker fee
      // (rounded up to 4 places), and the fees account has those fees.
      const completed = await queryRows<{ buyer: string; listing: string; amount: string }>(
        database.database.db,
        sql`select buyer_account_id::text as buyer, listing_id::text as listing, amount::text as amount
            from otc_orders where state = 'completed'`,
      );
      const label = new Map([...sellers, ...buyers].map((trader, index) => [trader.accountId, `trader${index}`]));
      const sellerOf = new Map(listings.map((listing, index) => [listing, sellers[index]!.accountId]));
      const changes = new Map<string, Money>();
      const addTo = (key: string, units: Money) => changes.set(key, money.add(changes.get(key) ?? money.ZERO, units));
      for (const order of completed) {
        const amount = money.parseMoney(order.amount);
        const fee = money.multiply(amount, '0.001', 'up');
        addTo(`${label.get(order.buyer)}:USDT:available`, amount);
        addTo(`${label.get(sellerOf.get(order.listing)!)}:USDT:available`, money.negate(money.add(amount, fee)));
        addTo('platform:fees:USDT', fee);
      }
      await balances.expectChanges(
        Object.fromEntries(
          [...changes].filter(([, units]) => units !== money.ZERO).map(([key, units]) => [key, money.formatMoney(units)]),
        ),
      );
    },
  );
});
