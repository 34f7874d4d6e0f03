// What the airdrop tests left unchecked, found by mutation testing (decision 056): the ledger entry's
// reference and record types, the audit row of a campaign, the arrival run asked for at the
// campaign's time, a long list of unknown members, the arrival of a campaign not yet due, cancelled
// or unknown, and the console's lists paged.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AirdropCampaign } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let now = new Date('2026-11-20T02:00:00Z'); // 10:00 in Shanghai
const clock = { now: () => now };
let t: TestApp;

type Envelope<T = unknown> = { code: number; message: string; data: T };
type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

function call<T = unknown>(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

async function member(email: string) {
  const token = await registerMember(t, email);
  return { email, token, accountId: await accountIdOf(t, token) };
}

async function operator(username: string) {
  const token = await operatorToken(t, username, 'finance');
  const [row] = await queryRows<{ id: string }>(
    t.testDatabase.database.db,
    sql`select id from operators where username = ${username}`,
  );
  return { token, id: row!.id };
}

async function campaign(token: string, request: Record<string, unknown>) {
  const created = await call<AirdropCampaign>(token, 'POST', '/api/admin/airdrops', request);
  expect(created.body.code).toBe(200);
  return created.body.data;
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(async () => {
  await t.close();
});

describe('airdrops, as mutation testing found them unchecked', () => {
  it('pays each recipient one airdrop entry naming the campaign, from the rewards account', async () => {
    now = new Date('2026-11-20T02:00:00Z');
    const finance = await operator('airdrops-mutants-entries');
    const one = await member('airdrops-mutants-entries-1@example.com');
    const two = await member('airdrops-mutants-entries-2@example.com');
    const balances = await trackBalances(t, { one: one.accountId, two: two.accountId });
    const made = await campaign(finance.token, {
      name: 'Entries',
      amount: '2.5',
      selection: 'list',
      members: [one.email, two.email],
    });
    expect(await t.services.airdrops.arrive(made.id)).toBe(true);
    await balances.expectChanges({
      'one:RAB:available': '2.5000',
      'two:RAB:available': '2.5000',
      'platform:rewards:RAB': '-5.0000',
    });
    const entries = await queryRows<{ kind: string; reference_type: string; reference_id: string; record_types: string[] }>(
      t.testDatabase.database.db,
      sql`select e.kind, e.reference_type, e.reference_id,
                 array(select p.record_type from postings p where p.entry_id = e.id order by p.id) as record_types
          from journal_entries e where e.idempotency_key like ${`airdrop:${made.id}:%`} order by e.id`,
    );
    const entry = {
      kind: 'airdrop',
      reference_type: 'airdrop_campaign',
      reference_id: made.id,
      record_types: ['airdrop', 'airdrop'],
    };
    expect(entries).toEqual([entry, entry]);
  });

  it('audits a campaign by list and one by level with what was asked and who receives it', async () => {
    now = new Date('2026-11-20T02:00:00Z');
    const finance = await operator('airdrops-mutants-audit');
    const one = await member('airdrops-mutants-audit@example.com');
    const byList = await campaign(finance.token, {
      name: 'Audit list',
      amount: '1.5',
      selection: 'list',
      members: [one.email],
      arriveAt: '2026-11-21T02:00:00Z',
    });
    // The default table's V0 asks for nothing: every member is at or above it.
    const byLevel = await campaign(finance.token, {
      name: 'Audit level',
      amount: '0.5',
      selection: 'level',
      minLevel: 0,
      arriveAt: '2026-11-21T02:00:00Z',
    });
    const audits = await queryRows<Record<string, unknown>>(
      t.testDatabase.database.db,
      sql`select operator_id, action, target_type, target_id, before, after, ip, request_id from audit_log
          where operator_id = ${finance.id}::uuid and action like 'airdrop.%' order by created_at`,
    );
    const row = (id: string, after: Record<string, unknown>) => ({
      operator_id: finance.id,
      action: 'airdrop.created',
      target_type: 'airdrop_campaign',
      target_id: id,
      before: null,
      after: { asset: 'RAB', day: '2026-11-21', arriveAt: '2026-11-21T02:00:00.000Z', ...after },
      ip: '127.0.0.1',
      request_id: expect.stringMatching(/.+/) as unknown,
    });
    expect(audits).toEqual([
      row(byList.id, {
        name: 'Audit list',
        amount: '1.5000',
        selection: 'list',
        minLevel: null,
        members: [one.email],
        recipients: 1,
        total: '1.5000',
      }),
      row(byLevel.id, {
        name: 'Audit level',
        amount: '0.5000',
        selection: 'level',
        minLevel: 0,
        members: null,
        recipients: byLevel.recipients,
        total: byLevel.total,
      }),
    ]);
    expect(byLevel.recipients).toBeGreaterThanOrEqual(1);
    for (const id of [byList.id, byLevel.id]) await call(finance.token, 'POST', `/api/admin/airdrops/${id}/cancel`, {});
  });

  it('asks for an arrival run at the campaign’s time, and saves the campaign even when that request fails', async () => {
    now = new Date('2026-11-20T02:00:00Z');
    const finance = await operator('airdrops-mutants-schedule');
    const one = await member('airdrops-mutants-schedule@example.com');
    const delays: number[] = [];
    t.services.airdrops.useScheduler(async (delayS) => {
      delays.push(delayS);
    });
    try {
      const request = { name: 'Scheduled', amount: '1', selection: 'list', members: [one.email] };
      const later = await campaign(finance.token, { ...request, arriveAt: '2026-11-20T02:01:30.500Z' });
      const atOnce = await campaign(finance.token, request);
      expect(delays).toEqual([91, 0]);

      t.services.airdrops.useScheduler(() => Promise.reject(new Error('the job queue is down')));
      const unscheduled = await call<AirdropCampaign>(finance.token, 'POST', '/api/admin/airdrops', {
        ...request,
        arriveAt: '2026-11-21T02:00:00Z',
      });
      expect(unscheduled.body).toMatchObject({ code: 200, data: { status: 'scheduled', recipients: 1 } });
      for (const id of [later.id, atOnce.id, unscheduled.body.data.id]) {
        await call(finance.token, 'POST', `/api/admin/airdrops/${id}/cancel`, {});
      }
    } finally {
      t.services.airdrops.useScheduler(undefined as unknown as (delayS: number) => Promise<void>);
    }
  });

  it('names the first ten unknown members and counts the rest', async () => {
    now = new Date('2026-11-20T02:00:00Z');
    const finance = await operator('airdrops-mutants-unknown');
    const names = Array.from({ length: 12 }, (_, index) => `airdrops-ghost-${index + 1}@example.com`);
    const refuse = (members: string[]) =>
      call(finance.token, 'POST', '/api/admin/airdrops/preview', { name: 'Ghosts', amount: '1', selection: 'list', members });
    expect((await refuse(names)).body).toMatchObject({
      code: 400,
      message: `These members do not exist, nothing was saved: ${names.slice(0, 10).join(', ')} (+2)`,
    });
    expect((await refuse(names.slice(0, 10))).body).toMatchObject({
      code: 400,
      message: `These members do not exist, nothing was saved: ${names.slice(0, 10).join(', ')}`,
    });
  });

  it('pays nothing for a campaign not yet due, cancelled, or unknown', async () => {
    now = new Date('2026-11-20T02:00:00Z');
    const finance = await operator('airdrops-mutants-arrive');
    const one = await member('airdrops-mutants-arrive@example.com');
    const balances = await trackBalances(t, { one: one.accountId });
    const request = { name: 'Not yet', amount: '4', selection: 'list', members: [one.email], arriveAt: '2026-11-21T02:00:00Z' };
    const notYet = await campaign(finance.token, request);
    const cancelled = await campaign(finance.token, { ...request, name: 'Cancelled' });
    expect((await call(finance.token, 'POST', `/api/admin/airdrops/${cancelled.id}/cancel`, {})).body.code).toBe(200);

    expect(await t.services.airdrops.arrive(notYet.id)).toBe(false);
    now = new Date('2026-11-21T02:00:00Z');
    expect(await t.services.airdrops.arrive(cancelled.id)).toBe(false);
    expect(await t.services.airdrops.arrive(randomUUID())).toBe(false);
    await balances.expectChanges({});
    const statuses = await queryRows<{ id: string; status: string }>(
      t.testDatabase.database.db,
      sql`select id, status from airdrop_campaigns where id in (${notYet.id}::uuid, ${cancelled.id}::uuid) order by name`,
    );
    expect(statuses).toEqual([
      { id: cancelled.id, status: 'cancelled' },
      { id: notYet.id, status: 'scheduled' },
    ]);
    // Its time now: it arrives, once.
    expect(await t.services.airdrops.arrive(notYet.id)).toBe(true);
    await balances.expectChanges({ 'one:RAB:available': '4.0000', 'platform:rewards:RAB': '-4.0000' });
  });

  it('pages the console’s campaigns and a campaign’s recipients; an unknown campaign has none to list', async () => {
    now = new Date('2026-11-20T02:00:00Z');
    const finance = await operator('airdrops-mutants-pages');
    const people = [];
    for (const name of ['a', 'b', 'c']) people.push(await member(`airdrops-mutants-pages-${name}@example.com`));
    const request = {
      amount: '1',
      selection: 'list',
      members: people.map((person) => person.email),
      arriveAt: '2026-11-21T02:00:00Z',
    };
    const first = await campaign(finance.token, { ...request, name: 'Pages first' });
    const second = await campaign(finance.token, { ...request, name: 'Pages second' });
    const third = await campaign(finance.token, { ...request, name: 'Pages third' });
    const [count] = await queryRows<{ n: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as n from airdrop_campaigns`,
    );

    // Pages of two (with pages of one, an offset of (page - 1) / pageSize would be the same); other
    // tests' campaigns, older, follow this test's three.
    const campaigns = (page: number) =>
      call<Page<AirdropCampaign>>(finance.token, 'GET', `/api/admin/airdrops?page=${page}&pageSize=2`);
    const top = (await campaigns(1)).body.data;
    expect(top).toMatchObject({ total: count!.n, page: 1, pageSize: 2 });
    expect(top.items.map((item) => item.id)).toEqual([third.id, second.id]);
    const next = (await campaigns(2)).body.data;
    expect(next.total).toBe(count!.n);
    expect(next.items[0]!.id).toBe(first.id);
    expect(next.items).toHaveLength(Math.min(2, count!.n - 2));

    const recipients = (page: number) =>
      call<Page<{ email: string; paid: boolean }>>(
        finance.token,
        'GET',
        `/api/admin/airdrops/${first.id}/recipients?page=${page}&pageSize=2`,
      );
    const firstPage = (await recipients(1)).body.data;
    expect(firstPage.total).toBe(3);
    expect(firstPage.items.map((item) => item.email)).toEqual([people[0]!.email, people[1]!.email]);
    const secondPage = (await recipients(2)).body.data;
    expect(secondPage.total).toBe(3);
    expect(secondPage.items).toEqual([expect.objectContaining({ email: people[2]!.email, paid: false })]);
    expect((await call(finance.token, 'GET', `/api/admin/airdrops/${randomUUID()}/recipients`)).body).toMatchObject({
      code: 404,
      message: 'Not found',
    });
    for (const id of [first.id, second.id, third.id]) await call(finance.token, 'POST', `/api/admin/airdrops/${id}/cancel`, {});
  });

  it('pays a campaign of more recipients than one batch holds, every one of them', async () => {
    now = new Date('2026-11-20T02:00:00Z');
    const finance = await operator('airdrops-mutants-batch');
    // 101 members, one more than a batch of 100 (registering them through the calls would take
    // minutes under mutation testing; what is tested here is only how the arrival walks them).
    await t.testDatabase.database.db.execute(
      sql`insert into members (email, password_hash)
          select 'airdrops-batch-' || g || '@example.com', 'x' from generate_series(1, 101) g`,
    );
    await t.testDatabase.database.db.execute(
      sql`insert into accounts (member_id, kind, invite_code, nickname)
          select id, 'main', 'B' || lpad(row_number() over (order by email)::text, 11, '0'), 'batch'
          from members where email like 'airdrops-batch-%'`,
    );
    const accounts = await queryRows<{ id: string; email: string }>(
      t.testDatabase.database.db,
      sql`select a.id, m.email from accounts a join members m on m.id = a.member_id where m.email like 'airdrops-batch-%'`,
    );
    expect(accounts).toHaveLength(101);
    const balances = await trackBalances(t, Object.fromEntries(accounts.map((row) => [row.email, row.id])));
    const made = await campaign(finance.token, {
      name: 'Batch',
      amount: '0.01',
      selection: 'list',
      members: accounts.map((row) => row.email),
    });
    expect(made.recipients).toBe(101);
    expect(await t.services.airdrops.arrive(made.id)).toBe(true);
    await balances.expectChanges({
      ...Object.fromEntries(accounts.map((row) => [`${row.email}:RAB:available`, '0.0100'])),
      'platform:rewards:RAB': '-1.0100',
    });
    expect((await t.services.airdrops.campaign(made.id)).status).toBe('arrived');
  });
});
