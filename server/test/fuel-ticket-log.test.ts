import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FuelTicketLogItem, MachineProduct } from '@custos/contract';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** withdraw_record7: FUEL and TICKET movements of the account in use, available and used, newest first. */

let t: TestApp;
let token: string;
let other: string;

type Page = { items: FuelTicketLogItem[]; total: number; page: number; pageSize: number };

function get(url: string, as = token) {
  return t.app
    .inject({ method: 'GET', url, headers: { authorization: as, lang: 'EN' } })
    .then((response) => response.json<{ code: number; message: string; data: Page }>());
}

beforeAll(async () => {
  t = await createTestApp();
  token = await registerMember(t, 'fuel-tickets@example.com');
  other = await registerMember(t, 'fuel-tickets-other@example.com');
  const accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  await fund(t, accountId, 'TICKET', '120');
  await fund(t, accountId, 'FUEL', '5.5');
  await fund(t, accountId, 'USDT', '10');
  await fund(t, await accountIdOf(t, other), 'FUEL', '1');
  const machines = await t.app.inject({ method: 'GET', url: '/api/machine/list', headers: { authorization: token, lang: 'EN' } });
  const s1 = machines.json<{ data: MachineProduct[] }>().data.find((product) => product.name === 'S1 Lite 10T')!;
  const balances = await trackBalances(t, { member: accountId });
  const bought = await t.app.inject({
    method: 'POST',
    url: '/api/machine/buy',
    headers: { authorization: token, lang: 'EN' },
    payload: { machineId: s1.id, payWith: 'TICKET', tradePassword: 'trade-pass-1', idempotencyKey: randomUUID() },
  });
  expect(bought.json()).toMatchObject({ code: 200 });
  // Paid with tickets: its 100 tickets move from available to used (shown as both), nothing else moves.
  await balances.expectChanges({ 'member:TICKET:available': '-100.0000', 'member:TICKET:used': '100.0000' });
});
afterAll(async () => {
  await t.close();
});

describe('fuel and ticket records', () => {
  it('list every FUEL and TICKET movement, available and used, newest first; never USDT', async () => {
    const log = await get('/api/user/fuel_ticket_log');
    expect(log.data.total).toBe(4);
    expect(log.data.items.map((item) => [item.asset, item.purpose, item.type, item.amount, item.balanceAfter])).toEqual([
      ['TICKET', 'used', 'machine_purchase', '100.0000', '100.0000'],
      ['TICKET', 'available', 'machine_purchase', '-100.0000', '20.0000'],
      ['FUEL', 'available', 'adjustment_credit', '5.5000', '5.5000'],
      ['TICKET', 'available', 'adjustment_credit', '120.0000', '120.0000'],
    ]);
  });

  it('filter by asset and page', async () => {
    const fuel = await get('/api/user/fuel_ticket_log?asset=FUEL');
    expect(fuel.data.items.map((item) => item.amount)).toEqual(['5.5000']);
    const second = await get('/api/user/fuel_ticket_log?asset=TICKET&page=2&pageSize=2');
    expect(second.data).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.data.items.map((item) => item.amount)).toEqual(['120.0000']);
    expect((await get('/api/user/fuel_ticket_log?asset=USDT')).code).toBe(400);
  });

  it("show a member only their own account's records", async () => {
    const log = await get('/api/user/fuel_ticket_log', other);
    expect(log.data.items.map((item) => [item.asset, item.amount])).toEqual([['FUEL', '1.0000']]);
    expect((await get('/api/user/fuel_ticket_log', '')).code).toBe(401);
  });
});
