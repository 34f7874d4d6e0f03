// What the machines tests left unchecked, found by mutation testing (decision 056): the price of the
// asset paid with (the seeded products cost the same in USDT and tickets), the ledger entry's kind,
// reference and record types, a replay after the product was retired, two buys racing on one key,
// the member's own machines only (by status, paged), the console's product list, edit, retire and
// reactivate with their audit rows, and the console's machine list with and without filters.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money, type MachineIndex, type MachineProduct, type MemberMachine } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let now = new Date('2026-11-20T02:00:00Z'); // 10:00 in Shanghai: machines bought now start on 2026-11-20
const clock = { now: () => now };
let t: TestApp;

type Envelope<T = unknown> = { code: number; message: string; data: T };
type AdminProduct = MachineProduct & { running: number };
type AdminMachine = MemberMachine & { memberEmail: string; accountId: string };
type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

function call<T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

async function member(email: string) {
  const token = await registerMember(t, email);
  const accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  return { token, accountId };
}

function buy(token: string, machineId: string, payWith: 'USDT' | 'TICKET', key: string = randomUUID()) {
  return call<MemberMachine>(token, 'POST', '/api/machine/buy', {
    machineId,
    payWith,
    tradePassword: 'trade-pass-1',
    idempotencyKey: key,
  });
}

const terms = { hashrate: '4', priceUsdt: '30', priceTickets: '7', dailyOutputPerT: '0.25', lifetimeDays: 10 };

async function product(operator: string, name: string, overrides: Partial<typeof terms> = {}) {
  const created = await call<MachineProduct>(operator, 'POST', '/api/admin/machines/products', { name, ...terms, ...overrides });
  expect(created.body.code).toBe(200);
  return created.body.data;
}

async function operatorIdOf(username: string) {
  const [row] = await queryRows<{ id: string }>(
    t.testDatabase.database.db,
    sql`select id from operators where username = ${username}`,
  );
  return row!.id;
}

function auditsOf(targetId: string) {
  return queryRows<Record<string, unknown>>(
    t.testDatabase.database.db,
    sql`select operator_id, action, target_type, target_id, before, after, ip, request_id from audit_log
        where target_id = ${targetId} order by created_at`,
  );
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(async () => {
  await t.close();
});

describe('mining machines, as mutation testing found them unchecked', () => {
  it('charges the price of the asset paid with, as one machine_purchase entry naming the machine', async () => {
    const finance = await operatorToken(t, 'machines-mutants-price', 'finance');
    const made = await product(finance, 'Mutants Price 4T');
    const { token, accountId } = await member('machines-mutants-price@example.com');
    await fund(t, accountId, 'USDT', '100');
    await fund(t, accountId, 'TICKET', '100');
    const balances = await trackBalances(t, { member: accountId });

    const withUsdt = await buy(token, made.id, 'USDT');
    expect(withUsdt.body.data).toMatchObject({ paidAsset: 'USDT', paidAmount: '30.0000', dailyOutput: '1.0000' });
    await balances.expectChanges({ 'member:USDT:available': '-30.0000', 'platform:treasury:USDT': '30.0000' });
    const withTickets = await buy(token, made.id, 'TICKET');
    expect(withTickets.body.data).toMatchObject({ paidAsset: 'TICKET', paidAmount: '7.0000' });
    await balances.expectChanges({ 'member:TICKET:available': '-7.0000', 'member:TICKET:used': '7.0000' });

    const entries = await queryRows<{ kind: string; reference_type: string; reference_id: string; record_types: string[] }>(
      t.testDatabase.database.db,
      sql`select e.kind, e.reference_type, e.reference_id,
                 array(select p.record_type from postings p where p.entry_id = e.id order by p.id) as record_types
          from journal_entries e where e.idempotency_key like ${`machine:${accountId}:%`} order by e.id`,
    );
    expect(entries).toEqual([
      {
        kind: 'machine_purchase',
        reference_type: 'member_machine',
        reference_id: withUsdt.body.data.id,
        record_types: ['machine_purchase', 'machine_purchase'],
      },
      {
        kind: 'machine_purchase',
        reference_type: 'member_machine',
        reference_id: withTickets.body.data.id,
        record_types: ['machine_purchase', 'machine_purchase'],
      },
    ]);
  });

  it('answers a replayed buy with its machine even after the product was retired, moving nothing again', async () => {
    const finance = await operatorToken(t, 'machines-mutants-replay', 'finance');
    const made = await product(finance, 'Mutants Replay 4T');
    const { token, accountId } = await member('machines-mutants-replay@example.com');
    await fund(t, accountId, 'USDT', '100');
    const balances = await trackBalances(t, { member: accountId });
    const key = randomUUID();
    const bought = await buy(token, made.id, 'USDT', key);
    expect(bought.body.code).toBe(200);
    expect((await call(finance, 'POST', `/api/admin/machines/products/${made.id}/retire`)).body.code).toBe(200);

    const replayed = await buy(token, made.id, 'USDT', key);
    expect(replayed.body).toMatchObject({ code: 200, data: { id: bought.body.data.id, paidAmount: '30.0000' } });
    expect((await buy(token, made.id, 'USDT')).body).toMatchObject({ code: 409, message: 'This machine is no longer on sale' });
    await balances.expectChanges({ 'member:USDT:available': '-30.0000', 'platform:treasury:USDT': '30.0000' });
  });

  it('refuses a machine that does not exist, with the reason, and moves nothing', async () => {
    const { token, accountId } = await member('machines-mutants-missing@example.com');
    await fund(t, accountId, 'USDT', '100');
    const balances = await trackBalances(t, { member: accountId });
    const missing = randomUUID();
    expect((await buy(token, missing, 'USDT')).body).toMatchObject({ code: 404, message: 'Not found' });
    expect((await call(token, 'GET', `/api/machine/info?id=${missing}`)).body).toMatchObject({ code: 404, message: 'Not found' });
    await balances.expectChanges({});
  });

  it('buys one machine when two requests race on one key, and answers both with it', async () => {
    const finance = await operatorToken(t, 'machines-mutants-race', 'finance');
    const made = await product(finance, 'Mutants Race 4T');
    const { token, accountId } = await member('machines-mutants-race@example.com');
    await fund(t, accountId, 'USDT', '100');
    const balances = await trackBalances(t, { member: accountId });
    const key = randomUUID();
    const [first, second] = await Promise.all([buy(token, made.id, 'USDT', key), buy(token, made.id, 'USDT', key)]);
    expect(first.body.code).toBe(200);
    expect(second.body).toMatchObject({ code: 200, data: { id: first.body.data.id } });
    await balances.expectChanges({ 'member:USDT:available': '-30.0000', 'platform:treasury:USDT': '30.0000' });
    const machines = await queryRows<{ n: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as n from member_machines where account_id = ${accountId}::uuid`,
    );
    expect(machines).toEqual([{ n: 1 }]);
  });

  it('shows a product to members until it is retired, and its terms', async () => {
    const finance = await operatorToken(t, 'machines-mutants-info', 'finance');
    const made = await product(finance, 'Mutants Info 4T');
    const { token } = await member('machines-mutants-info@example.com');
    const expected = {
      id: made.id,
      name: 'Mutants Info 4T',
      hashrate: '4',
      priceUsdt: '30.0000',
      priceTickets: '7.0000',
      dailyOutputPerT: '0.25',
      lifetimeDays: 10,
      status: 'active',
    };
    expect((await call(token, 'GET', `/api/machine/info?id=${made.id}`)).body.data).toEqual(expected);
    const onSale = async () => (await call<MachineProduct[]>(token, 'GET', '/api/machine/list')).body.data.map((p) => p.id);
    expect(await onSale()).toContain(made.id);
    await call(finance, 'POST', `/api/admin/machines/products/${made.id}/retire`);
    expect(await onSale()).not.toContain(made.id);
    expect((await call(token, 'GET', `/api/machine/info?id=${made.id}`)).body.data).toEqual({ ...expected, status: 'retired' });
  });

  it('lists only the member’s own machines, by status, one page at a time', async () => {
    const finance = await operatorToken(t, 'machines-mutants-pages', 'finance');
    const short = await product(finance, 'Mutants Short 4T', { lifetimeDays: 1 });
    const long = await product(finance, 'Mutants Long 4T');
    const mine = await member('machines-mutants-pages@example.com');
    const other = await member('machines-mutants-pages-other@example.com');
    await fund(t, mine.accountId, 'USDT', '200');
    await fund(t, other.accountId, 'USDT', '100');
    const balances = await trackBalances(t, { mine: mine.accountId, other: other.accountId });
    now = new Date('2026-11-20T02:00:00Z');
    const expiring = (await buy(mine.token, short.id, 'USDT')).body.data;
    const running = [];
    for (let i = 0; i < 3; i += 1) running.push((await buy(mine.token, long.id, 'USDT')).body.data);
    await buy(other.token, long.id, 'USDT');
    await balances.expectChanges({
      'mine:USDT:available': '-120.0000',
      'other:USDT:available': '-30.0000',
      'platform:treasury:USDT': '150.0000',
    });
    // The short machine mines 11-21 (its last day) and stops; the others mine 11-21 too (1 RAB a day each).
    now = new Date('2026-11-22T02:00:00Z');
    await t.services.settlement.settle('2026-11-20');
    await t.services.settlement.settle('2026-11-21');
    // Other tests' machines mine that day too: the rewards account pays exactly what every member received.
    const paid = await balances.changes();
    expect(paid).toMatchObject({ 'mine:RAB:available': '4.0000', 'other:RAB:available': '1.0000' });
    const received = Object.entries(paid).filter(([key]) => key.endsWith(':RAB:available'));
    const total = received.reduce((sum, [, amount]) => money.add(sum, money.parseMoney(amount)), money.ZERO);
    expect(Object.keys(paid).sort()).toEqual([...received.map(([key]) => key), 'platform:rewards:RAB'].sort());
    expect(paid['platform:rewards:RAB']).toBe(money.formatMoney(money.negate(total)));
    await balances.reset();

    const index = (query: string) => call<MachineIndex>(mine.token, 'GET', `/api/machine/index?${query}`);
    const first = (await index('page=1&pageSize=2')).body.data.machines;
    expect(first).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    expect(first.items.map((item) => item.id)).toEqual([running[2]!.id, running[1]!.id]);
    const second = (await index('page=2&pageSize=2')).body.data.machines;
    expect(second.total).toBe(4);
    expect(second.items.map((item) => item.id)).toEqual([running[0]!.id, expiring.id]);
    const expired = (await index('status=expired')).body.data.machines;
    expect(expired.total).toBe(1);
    expect(expired.items.map((item) => [item.id, item.status, item.daysMined, item.daysLeft])).toEqual([
      [expiring.id, 'expired', 1, 0],
    ]);
    const active = (await index('status=running')).body.data.machines;
    expect(active.total).toBe(3);
    expect(active.items.map((item) => [item.status, item.daysLeft])).toEqual([
      ['running', 8],
      ['running', 8],
      ['running', 8],
    ]);
    await balances.expectChanges({});
  });

  it('lists every product to the console with its running machines, retired ones included', async () => {
    const finance = await operatorToken(t, 'machines-mutants-console', 'finance');
    const made = await product(finance, 'Mutants Console 4T');
    const { token, accountId } = await member('machines-mutants-console@example.com');
    await fund(t, accountId, 'USDT', '100');
    const balances = await trackBalances(t, { member: accountId });
    await buy(token, made.id, 'USDT');
    await buy(token, made.id, 'USDT');
    await balances.expectChanges({ 'member:USDT:available': '-60.0000', 'platform:treasury:USDT': '60.0000' });
    await call(finance, 'POST', `/api/admin/machines/products/${made.id}/retire`);
    const listed = (await call<AdminProduct[]>(finance, 'GET', '/api/admin/machines/products')).body.data;
    expect(listed.find((row) => row.id === made.id)).toEqual({
      id: made.id,
      name: 'Mutants Console 4T',
      hashrate: '4',
      priceUsdt: '30.0000',
      priceTickets: '7.0000',
      dailyOutputPerT: '0.25',
      lifetimeDays: 10,
      status: 'retired',
      running: 2,
    });
    expect(listed.find((row) => row.name === 'S1 Lite 10T')).toMatchObject({ status: 'active', running: 0 });
  });

  it('edits a product for later buyers only, audited with the before and after; an unknown one is not found', async () => {
    now = new Date('2026-11-20T02:00:00Z');
    const finance = await operatorToken(t, 'machines-mutants-edit', 'finance');
    const made = await product(finance, 'Mutants Edit 4T');
    const { token, accountId } = await member('machines-mutants-edit@example.com');
    await fund(t, accountId, 'USDT', '100');
    const balances = await trackBalances(t, { member: accountId });
    const before = (await buy(token, made.id, 'USDT')).body.data;

    const next = {
      name: 'Mutants Edited 8T',
      hashrate: '8',
      priceUsdt: '40',
      priceTickets: '9',
      dailyOutputPerT: '0.5',
      lifetimeDays: 20,
    };
    const edited = await call<MachineProduct>(finance, 'PUT', `/api/admin/machines/products/${made.id}`, next);
    expect(edited.body.data).toEqual({
      id: made.id,
      name: 'Mutants Edited 8T',
      hashrate: '8',
      priceUsdt: '40.0000',
      priceTickets: '9.0000',
      dailyOutputPerT: '0.5',
      lifetimeDays: 20,
      status: 'active',
    });
    const after = (await buy(token, made.id, 'USDT')).body.data;
    expect(after).toMatchObject({
      name: 'Mutants Edited 8T',
      paidAmount: '40.0000',
      dailyOutput: '4.0000',
      endDate: '2026-12-10',
    });
    await balances.expectChanges({ 'member:USDT:available': '-70.0000', 'platform:treasury:USDT': '70.0000' });
    const index = (await call<MachineIndex>(token, 'GET', '/api/machine/index')).body.data.machines.items;
    expect(index.find((item) => item.id === before.id)).toMatchObject({ name: 'Mutants Edit 4T', paidAmount: '30.0000' });

    expect((await call(finance, 'PUT', `/api/admin/machines/products/${randomUUID()}`, next)).body).toMatchObject({
      code: 404,
      message: 'Not found',
    });
    expect(await auditsOf(made.id)).toEqual([
      expect.objectContaining({ action: 'machines.product_created' }),
      {
        operator_id: await operatorIdOf('machines-mutants-edit'),
        action: 'machines.product_updated',
        target_type: 'machine_product',
        target_id: made.id,
        before: { ...made, status: 'active' },
        after: next,
        ip: '127.0.0.1',
        request_id: expect.stringMatching(/.+/) as unknown,
      },
    ]);
  });

  it('retires and reactivates a product, each audited; an unknown one is not found', async () => {
    const finance = await operatorToken(t, 'machines-mutants-status', 'finance');
    const made = await product(finance, 'Mutants Status 4T');
    const retired = await call<MachineProduct>(finance, 'POST', `/api/admin/machines/products/${made.id}/retire`);
    expect(retired.body.data.status).toBe('retired');
    const active = await call<MachineProduct>(finance, 'POST', `/api/admin/machines/products/${made.id}/activate`);
    expect(active.body.data.status).toBe('active');
    expect((await call(finance, 'POST', `/api/admin/machines/products/${randomUUID()}/retire`)).body).toMatchObject({
      code: 404,
      message: 'Not found',
    });
    const operatorId = await operatorIdOf('machines-mutants-status');
    const row = (action: string, before: string, after: string) => ({
      operator_id: operatorId,
      action,
      target_type: 'machine_product',
      target_id: made.id,
      before: { status: before },
      after: { status: after },
      ip: '127.0.0.1',
      request_id: expect.stringMatching(/.+/) as unknown,
    });
    expect((await auditsOf(made.id)).slice(1)).toEqual([
      row('machines.product_retired', 'active', 'retired'),
      row('machines.product_reactivated', 'retired', 'active'),
    ]);
  });

  it('lists members’ machines to the console: all of them, by status, or by the member’s email', async () => {
    const finance = await operatorToken(t, 'machines-mutants-members', 'finance');
    const made = await product(finance, 'Mutants Members 4T');
    const one = await member('machines-mutants-one@example.com');
    const two = await member('machines-mutants-two@example.com');
    await fund(t, one.accountId, 'USDT', '100');
    await fund(t, two.accountId, 'USDT', '100');
    const balances = await trackBalances(t, { one: one.accountId, two: two.accountId });
    const ofOne = (await buy(one.token, made.id, 'USDT')).body.data;
    const ofTwo = (await buy(two.token, made.id, 'USDT')).body.data;
    await balances.expectChanges({
      'one:USDT:available': '-30.0000',
      'two:USDT:available': '-30.0000',
      'platform:treasury:USDT': '60.0000',
    });
    const [counts] = await queryRows<{ all: number; running: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as all, (count(*) filter (where status = 'running'))::int as running from member_machines`,
    );

    const list = (query: string) => call<Page<AdminMachine>>(finance, 'GET', `/api/admin/machines?${query}`);
    const everything = (await list('page=1&pageSize=100')).body.data;
    expect(everything.total).toBe(counts!.all);
    expect(everything.items.slice(0, 2).map((item) => [item.id, item.memberEmail, item.accountId])).toEqual([
      [ofTwo.id, 'machines-mutants-two@example.com', two.accountId],
      [ofOne.id, 'machines-mutants-one@example.com', one.accountId],
    ]);
    const second = (await list('page=2&pageSize=1')).body.data;
    expect(second.total).toBe(counts!.all);
    expect(second.items.map((item) => item.id)).toEqual([ofOne.id]);
    const running = (await list('status=running&pageSize=100')).body.data;
    expect(running.total).toBe(counts!.running);
    expect(running.items.every((item) => item.status === 'running')).toBe(true);
    const byEmail = (await list('query=MACHINES-MUTANTS-ONE@example.com')).body.data;
    expect(byEmail.total).toBe(1);
    expect(byEmail.items.map((item) => item.id)).toEqual([ofOne.id]);
  });
});
