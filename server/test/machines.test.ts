import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MachineIndex, MachineProduct, MemberMachine, MiningRecord } from '@custos/contract';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** Mining machines with an injected clock: buying with USDT or tickets, daily output by the settlement, lifetime, retiring. */

let now = new Date('2026-11-20T02:00:00Z'); // 10:00 in Shanghai: machines bought now start on 2026-11-20
const clock = { now: () => now };
let t: TestApp;
let token: string;
let accountId: string;
let finance: string;
let products: MachineProduct[];

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST', url: string, payload?: object, as = token) {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

function buy(machineId: string, payWith: 'USDT' | 'TICKET', key = randomUUID()) {
  return call<MemberMachine>('POST', '/api/machine/buy', {
    machineId,
    payWith,
    tradePassword: 'trade-pass-1',
    idempotencyKey: key,
  });
}

function operator<T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: finance, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => response.json<Envelope<T>>());
}

async function settle(...days: string[]) {
  for (const day of days) await t.services.settlement.settle(day);
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  token = await registerMember(t, 'miner@example.com');
  accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  finance = await operatorToken(t, 'machines-finance', 'finance');
  products = (await call<MachineProduct[]>('GET', '/api/machine/list')).body.data;
});
afterAll(async () => {
  await t.close();
});

describe('mining machines', () => {
  it('sells the seeded machines', () => {
    expect(products.map((product) => [product.name, product.hashrate, product.priceUsdt, product.lifetimeDays])).toEqual([
      ['S1 Lite 10T', '10', '100.0000', 180],
      ['S2 Pro 50T', '50', '480.0000', 360],
      ['S3 Max 100T', '100', '900.0000', 360],
    ]);
  });

  it('buys with USDT (to the treasury) or with tickets (available to used), refusing what the balance cannot pay', async () => {
    const [s1] = products;
    const balances = await trackBalances(t, { miner: accountId });
    expect((await buy(s1!.id, 'USDT')).body).toMatchObject({ code: 409, message: 'Insufficient USDT balance' });
    expect((await buy(s1!.id, 'TICKET')).body).toMatchObject({ code: 409, message: 'Insufficient TICKET balance' });
    await balances.expectChanges({});
    await fund(t, accountId, 'USDT', '150');
    await fund(t, accountId, 'TICKET', '120');
    await balances.reset();
    const key = randomUUID();
    const bought = await buy(s1!.id, 'USDT', key);
    expect(bought.body.data).toMatchObject({
      name: 'S1 Lite 10T',
      dailyOutput: '5.0000',
      paidAsset: 'USDT',
      paidAmount: '100.0000',
      startDate: '2026-11-20',
      endDate: '2027-05-19',
      status: 'running',
      daysLeft: 180,
    });
    expect((await buy(s1!.id, 'USDT', key)).body.data.id).toBe(bought.body.data.id);
    expect((await buy(s1!.id, 'TICKET', key)).body.code).toBe(409);
    // Its price once (the replay and the refused reuse of the key move nothing), to the treasury.
    await balances.expectChanges({ 'miner:USDT:available': '-100.0000', 'platform:treasury:USDT': '100.0000' });
    await buy(s1!.id, 'TICKET');
    await balances.expectChanges({ 'miner:TICKET:available': '-100.0000', 'miner:TICKET:used': '100.0000' });
    expect(await availableOf(t, accountId, 'USDT')).toBe('50.0000');
    const index = (await call<MachineIndex>('GET', '/api/machine/index')).body.data;
    expect(index).toMatchObject({
      totalHashrate: '20',
      running: 2,
      ticketsAvailable: '20.0000',
      ticketsUsed: '100.0000',
      outputSoFar: '0.0000',
    });
    expect(index.machines.total).toBe(2);
  });

  it('produces RAB every day after the start for its lifetime, then stops; a retired product keeps running', async () => {
    const product = await operator<MachineProduct>('POST', '/api/admin/machines/products', {
      name: 'Test 2.5T',
      hashrate: '2.5',
      priceUsdt: '10',
      priceTickets: '10',
      dailyOutputPerT: '0.3333',
      lifetimeDays: 3,
    });
    const balances = await trackBalances(t, { miner: accountId });
    const machine = (await buy(product.data.id, 'USDT')).body.data;
    expect(machine.dailyOutput).toBe('0.8332'); // 2.5 × 0.3333 = 0.83325, rounded down
    expect((await operator<MachineProduct>('POST', `/api/admin/machines/products/${product.data.id}/retire`)).data.status).toBe(
      'retired',
    );
    expect((await buy(product.data.id, 'USDT')).body).toMatchObject({ code: 409, message: 'This machine is no longer on sale' });
    await balances.expectChanges({ 'miner:USDT:available': '-10.0000', 'platform:treasury:USDT': '10.0000' });

    now = new Date('2026-11-25T02:00:00Z'); // every day to settle has ended
    await settle('2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24');
    // The two 10T machines (5 RAB a day each) on 11-21 … 11-24 = 40, the test machine on 11-21 … 11-23
    // = 3 × 0.8332 = 2.4996: 42.4996 RAB from the rewards account.
    await balances.expectChanges({ 'miner:RAB:available': '42.4996', 'platform:rewards:RAB': '-42.4996' });
    const records = (await call<{ items: MiningRecord[]; total: number }>('GET', `/api/machine/detail?machineId=${machine.id}`))
      .body.data;
    expect(records.items.map((record) => [record.day, record.amount])).toEqual([
      ['2026-11-23', '0.8332'],
      ['2026-11-22', '0.8332'],
      ['2026-11-21', '0.8332'],
    ]);
    const runs = await operator<{ day: string; machinesMined: number; outputTotal: string }[]>(
      'GET',
      '/api/admin/settlement/runs',
    );
    expect(runs.data.find((run) => run.day === '2026-11-23')).toMatchObject({ machinesMined: 3, outputTotal: '10.8332' });
    const index = (await call<MachineIndex>('GET', '/api/machine/index?status=expired')).body.data;
    expect(index.machines.items[0]).toMatchObject({
      id: machine.id,
      status: 'expired',
      daysMined: 3,
      outputSoFar: '2.4996',
      daysLeft: 0,
    });
    // The two 10T machines made 5 RAB each on four days; the test machine 3 × 0.8332.
    expect(await availableOf(t, accountId, 'RAB')).toBe('42.4996');
    expect((await call<MachineIndex>('GET', '/api/machine/index')).body.data).toMatchObject({
      running: 2,
      lastDayOutput: '10.0000',
    });
    const log = await call<{ items: { type: string }[] }>('GET', '/api/user/balance_log?asset=RAB&pageSize=1');
    expect(log.body.data.items[0]!.type).toBe('mining_output');
  });

  it('a settled day run again produces nothing more', async () => {
    const balances = await trackBalances(t, { miner: accountId });
    const before = await availableOf(t, accountId, 'RAB');
    expect(await t.services.settlement.settle('2026-11-24')).toBeNull();
    expect(await availableOf(t, accountId, 'RAB')).toBe(before);
    await balances.expectChanges({});
  });

  it('lets operators see members’ machines', async () => {
    const page = await operator<{ items: { memberEmail: string; name: string }[]; total: number }>(
      'GET',
      '/api/admin/machines?query=miner@example.com',
    );
    expect(page.data.total).toBe(3);
    expect(page.data.items.every((item) => item.memberEmail === 'miner@example.com')).toBe(true);
  });
});
