import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
let accountId: string;
let memberId: string;
let proposer: string;
let approver: string;
let support: string;
let reviewer: string;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, as: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

beforeAll(async () => {
  t = await createTestApp();
  const token = await registerMember(t, 'adjusted@example.com');
  accountId = await accountIdOf(t, token);
  const [row] = await queryRows<{ member_id: string }>(
    t.testDatabase.database.db,
    sql`select member_id from accounts where id = ${accountId}::uuid`,
  );
  memberId = row!.member_id;
  proposer = await operatorToken(t, 'finance-one', 'finance');
  approver = await operatorToken(t, 'finance-two', 'finance');
  support = await operatorToken(t, 'support-one', 'support');
  reviewer = await operatorToken(t, 'reviewer-one', 'reviewer');
});
afterAll(async () => {
  await t.close();
});

function propose(fields: Record<string, unknown>, as = proposer) {
  return call<{ id: string; status: string }>('POST', '/api/admin/ledger/adjustments', as, {
    accountId,
    asset: 'USDT',
    direction: 'credit',
    amount: '125.5',
    reason: 'compensation for ticket 42',
    ...fields,
  });
}

describe('manual adjustments (four eyes)', () => {
  it('posts a credit only when a second operator approves it, and audits both steps', async () => {
    const tracked = await trackBalances(t, { member: accountId });
    const proposal = await propose({});
    expect(proposal.body.data).toMatchObject({ status: 'proposed', amount: '125.5000', proposedBy: 'finance-one' });
    expect(await availableOf(t, accountId, 'USDT')).toBe('0.0000');
    await tracked.expectChanges({});

    const self = await call('POST', `/api/admin/ledger/adjustments/${proposal.body.data.id}/approve`, proposer, {});
    expect(self).toMatchObject({ status: 403, body: { message: 'Another operator must approve your own proposal' } });

    const approved = await call<{ status: string; entryId: string; decidedBy: string }>(
      'POST',
      `/api/admin/ledger/adjustments/${proposal.body.data.id}/approve`,
      approver,
      { note: 'checked the ticket' },
    );
    expect(approved.body.data).toMatchObject({ status: 'approved', decidedBy: 'finance-two' });
    expect(approved.body.data.entryId).toMatch(/^\d+$/);
    expect(await availableOf(t, accountId, 'USDT')).toBe('125.5000');
    // A credit comes out of the platform's adjustments account, nowhere else.
    await tracked.expectChanges({ 'member:USDT:available': '125.5000', 'platform:adjustments:USDT': '-125.5000' });

    const again = await call('POST', `/api/admin/ledger/adjustments/${proposal.body.data.id}/approve`, approver, {});
    expect(again.body).toMatchObject({ code: 409, message: 'This adjustment has already been decided' });
    expect(await availableOf(t, accountId, 'USDT')).toBe('125.5000');
    await tracked.expectChanges({});

    const audit = await queryRows<{ action: string }>(
      t.testDatabase.database.db,
      sql`select action from audit_log where target_id = ${proposal.body.data.id} order by created_at`,
    );
    expect(audit.map((row) => row.action)).toEqual(['ledger.adjustment_proposed', 'ledger.adjustment_approved']);

    const balances = await call<{ accountId: string; ledgerAccounts: { asset: string; purpose: string; balance: string }[] }[]>(
      'GET',
      `/api/admin/members/${memberId}/balances`,
      support,
    );
    const ledgerAccounts = balances.body.data[0]!.ledgerAccounts;
    // Every account is opened with each asset × purpose; only USDT available holds money here.
    expect(ledgerAccounts).toHaveLength(16);
    expect(ledgerAccounts.filter((row) => row.balance !== '0.0000')).toEqual([
      expect.objectContaining({ asset: 'USDT', purpose: 'available', balance: '125.5000' }),
    ]);
    const postings = await call<{ items: { type: string; amount: string }[] }>(
      'GET',
      `/api/admin/ledger/postings?accountId=${accountId}`,
      support,
    );
    expect(postings.body.data.items).toEqual([expect.objectContaining({ type: 'adjustment_credit', amount: '125.5000' })]);
  });

  it('refuses to approve a debit above the balance, leaving it proposed', async () => {
    const tracked = await trackBalances(t, { member: accountId });
    const proposal = await propose({ direction: 'debit', amount: '200' });
    const refused = await call('POST', `/api/admin/ledger/adjustments/${proposal.body.data.id}/approve`, approver, {});
    expect(refused.body).toMatchObject({ code: 409, message: 'Insufficient USDT balance' });
    const list = await call<{ items: { id: string; status: string }[] }>(
      'GET',
      '/api/admin/ledger/adjustments?status=proposed',
      proposer,
    );
    expect(list.body.data.items.map((item) => item.id)).toContain(proposal.body.data.id);
    const rejected = await call<{ status: string }>(
      'POST',
      `/api/admin/ledger/adjustments/${proposal.body.data.id}/reject`,
      approver,
      {
        note: 'too much',
      },
    );
    expect(rejected.body.data.status).toBe('rejected');
    expect(await availableOf(t, accountId, 'USDT')).toBe('125.5000');
    await tracked.expectChanges({});
  });

  it('checks permissions and input', async () => {
    const tracked = await trackBalances(t, { member: accountId });
    expect((await propose({}, support)).status).toBe(403);
    expect((await call('GET', '/api/admin/ledger/adjustments', reviewer)).status).toBe(403);
    expect((await call('GET', '/api/admin/ledger/verify', reviewer)).status).toBe(403);
    expect((await propose({ amount: '1.00001' })).body.message).toMatch(/amount/);
    expect((await propose({ reason: '' })).body.message).toMatch(/reason/);
    expect((await propose({ accountId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    await tracked.expectChanges({});
  });

  it('lets finance change the exchange settings (audited) and shows platform accounts and a clean report', async () => {
    const settings = { enabled: true, rabPriceUsdt: '0.75', feeRate: '0.01', minRab: '1.0000', minUsdt: '1.0000' };
    expect((await call('PUT', '/api/admin/exchange/settings', support, settings)).status).toBe(403);
    const saved = await call('PUT', '/api/admin/exchange/settings', proposer, settings);
    expect(saved.body.data).toEqual(settings);
    expect((await call('PUT', '/api/admin/exchange/settings', proposer, { ...settings, feeRate: '1.5' })).status).toBe(400);
    const [audit] = await queryRows<{ before: { rabPriceUsdt: string }; after: { rabPriceUsdt: string } }>(
      t.testDatabase.database.db,
      sql`select before, after from audit_log where action = 'exchange.settings_updated'`,
    );
    expect([audit!.before.rabPriceUsdt, audit!.after.rabPriceUsdt]).toEqual(['0.5', '0.75']);

    const platform = await call<{ platformCode: string; asset: string; balance: string }[]>(
      'GET',
      '/api/admin/ledger/platform',
      support,
    );
    expect(platform.body.data).toContainEqual(
      expect.objectContaining({ platformCode: 'adjustments', asset: 'USDT', balance: '-125.5000' }),
    );
    const report = await call<{ clean: boolean; counts: { entries: number } }>('GET', '/api/admin/ledger/verify', support);
    expect(report.body.data).toMatchObject({ clean: true, counts: { entries: 1 } });
  });
});
