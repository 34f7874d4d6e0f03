// What the hosting tests left unchecked, found by mutation testing (decision 056): the custody
// interest entry's kind, reference and record types (read back, with every account's change).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostingConfig } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let now = new Date('2026-11-20T02:00:00Z'); // 10:00 in Shanghai: custody opened now earns from 11-21
let t: TestApp;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

beforeAll(async () => {
  t = await createTestApp({}, { clock: { now: () => now } });
});
afterAll(async () => {
  await t.close();
});

describe('custody interest, as mutation testing found it unchecked', () => {
  it('pays a day’s interest as one custody_interest entry naming the day, from the interest account', async () => {
    const token = await registerMember(t, 'hosting-mutants-interest@example.com');
    const accountId = await accountIdOf(t, token);
    await setTradePassword(t, token);
    await fund(t, accountId, 'USDT', '1000');
    const plan = (await call<HostingConfig>(token, 'GET', '/api/hosting/config')).body.data.plans.find(
      (item) => item.periodDays === 30,
    )!;
    const opened = await call(token, 'POST', '/api/hosting/create', {
      planId: plan.id,
      amount: '1000',
      autoRenew: false,
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
    });
    expect(opened.body.code).toBe(200);
    const balances = await trackBalances(t, { member: accountId });

    now = new Date('2026-11-22T02:00:00Z');
    await t.services.settlement.settle('2026-11-20');
    await t.services.settlement.settle('2026-11-21');
    // 0.12 % a day of 1000 USDT, for 11-21 only (custody opened on 11-20 earns from the next day).
    await balances.expectChanges({ 'member:USDT:available': '1.2000', 'platform:interest:USDT': '-1.2000' });
    const entries = await queryRows<{ kind: string; reference_type: string; reference_id: string; record_types: string[] }>(
      t.testDatabase.database.db,
      sql`select e.kind, e.reference_type, e.reference_id,
                 array(select p.record_type from postings p where p.entry_id = e.id order by p.id) as record_types
          from journal_entries e where e.idempotency_key like 'custody-interest:%' order by e.id`,
    );
    expect(entries).toEqual([
      {
        kind: 'custody_interest',
        reference_type: 'settlement_day',
        reference_id: '2026-11-21',
        record_types: ['interest', 'interest'],
      },
    ]);
  });
});
