// What the withdrawal tests left unchecked, found by mutation testing (decision 056): the ledger
// entries and audit rows behind a request, a rejection, a refund and a payment marked by hand, the
// live events the member is told, the edges of the amount checks and of the daily limit, the
// replay before every other check, the window's message for other open days, and the cooling-off
// pause after a security reset to the minute.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminWithdrawal, WithdrawIndex, WithdrawMethod, WithdrawSettings, Withdrawal } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

// Friday 2026-11-20, 10:00 in Shanghai (the platform's default time zone), inside the default window.
const FRIDAY_MORNING = new Date('2026-11-20T02:00:00Z');
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
let now = FRIDAY_MORNING;
const clock = { now: () => now };

let t: TestApp;
let finance: string;

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(as: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

/** A member with a trading password, a funded main account and a TRC20 address saved. */
async function member(email: string, funded = '1000') {
  const token = await registerMember(t, email);
  const accountId = await accountIdOf(t, token);
  await setTradePassword(t, token);
  await fund(t, accountId, 'USDT', funded);
  const tron = (await call<WithdrawMethod>(token, 'POST', '/api/withdraw/add_chain', { network: 'TRC20', address: TRON_ADDRESS }))
    .body.data;
  const [row] = await queryRows<{ member_id: string }>(
    t.testDatabase.database.db,
    sql`select member_id from accounts where id = ${accountId}::uuid`,
  );
  return { token, accountId, memberId: row!.member_id, tron };
}

function request(token: string, methodId: string, amount: string, idempotencyKey: string = randomUUID()) {
  return call<Withdrawal>(token, 'POST', '/api/withdraw/withdraw', {
    methodId,
    amount,
    tradePassword: 'trade-pass-1',
    idempotencyKey,
  });
}

function operator(action: string, id: string, payload?: object) {
  return call<AdminWithdrawal>(finance, 'POST', `/api/admin/withdrawals/${id}/${action}`, payload);
}

/** Runs `body` with some withdrawal settings changed, and puts the settings back after. */
async function withSettings(patch: Partial<WithdrawSettings>, body: () => Promise<void>): Promise<void> {
  const before = (await call<WithdrawSettings>(finance, 'GET', '/api/admin/withdraw/settings')).body.data;
  const changed = await call(finance, 'PUT', '/api/admin/withdraw/settings', { ...before, ...patch });
  expect(changed.body.code).toBe(200);
  try {
    await body();
  } finally {
    await call(finance, 'PUT', '/api/admin/withdraw/settings', before);
  }
}

/** Every posting of the entries that name the withdrawal, oldest first. */
function postingsOf(id: string) {
  return queryRows<{
    kind: string;
    record_type: string;
    amount: string;
    owner: string | null;
    platform: string | null;
    purpose: string;
  }>(
    t.testDatabase.database.db,
    sql`select e.kind, p.record_type, p.amount::text as amount, a.owner_account_id as owner, a.platform_code as platform, a.purpose
        from postings p join journal_entries e on e.id = p.entry_id join ledger_accounts a on a.id = p.ledger_account_id
        where e.reference_type = 'withdrawal' and e.reference_id = ${id} order by p.id`,
  );
}

function auditsOf(id: string) {
  return queryRows<{ action: string; target_type: string; before: unknown; after: unknown }>(
    t.testDatabase.database.db,
    sql`select action, target_type, before, after from audit_log where target_id = ${id} order by created_at, id`,
  );
}

function eventsOf(memberId: string) {
  return queryRows<{ kind: string; payload: unknown }>(
    t.testDatabase.database.db,
    sql`select kind, payload from member_events where member_id = ${memberId}::uuid and kind like 'withdrawal.%' order by id`,
  );
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  finance = await operatorToken(t, 'withdraw-mutants-finance', 'finance');
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  now = FRIDAY_MORNING;
});

describe('withdrawals, as mutation testing found them unchecked', () => {
  it('holds on request and releases on rejection, each entry naming the withdrawal, audited and told to the member', async () => {
    const m = await member('wd-mutants-reject@example.com');
    const balances = await trackBalances(t, { member: m.accountId });
    const made = await request(m.token, m.tron.id, '50');
    expect(made.body.data).toMatchObject({
      status: 'pending',
      destination: TRON_ADDRESS,
      amount: '50.0000',
      fee: '1.0000',
      received: '49.0000',
      decidedAt: null,
      completedAt: null,
    });
    await balances.expectChanges({ 'member:USDT:available': '-50.0000', 'member:USDT:held': '50.0000' });
    const id = made.body.data.id;

    const rejected = await operator('reject', id, { reason: 'Address under review' });
    expect(rejected.body.data).toMatchObject({ status: 'refunded', reason: 'Address under review' });
    expect(rejected.body.data.decidedAt).not.toBeNull();
    expect(rejected.body.data.completedAt).not.toBeNull();
    await balances.expectChanges({ 'member:USDT:available': '50.0000', 'member:USDT:held': '-50.0000' });

    expect(await postingsOf(id)).toEqual([
      { kind: 'hold', record_type: 'withdraw', amount: '-50.0000', owner: m.accountId, platform: null, purpose: 'available' },
      { kind: 'hold', record_type: 'withdraw', amount: '50.0000', owner: m.accountId, platform: null, purpose: 'held' },
      {
        kind: 'hold_release',
        record_type: 'withdraw_refund',
        amount: '-50.0000',
        owner: m.accountId,
        platform: null,
        purpose: 'held',
      },
      {
        kind: 'hold_release',
        record_type: 'withdraw_refund',
        amount: '50.0000',
        owner: m.accountId,
        platform: null,
        purpose: 'available',
      },
    ]);
    expect(await auditsOf(id)).toEqual([
      {
        action: 'withdrawal.rejected',
        target_type: 'withdrawal',
        before: { status: 'pending', amount: '50.0000', destination: TRON_ADDRESS },
        after: { status: 'refunded', reason: 'Address under review' },
      },
    ]);
    expect(await eventsOf(m.memberId)).toEqual([
      { kind: 'withdrawal.refunded', payload: { withdrawalId: id, amount: '50.0000' } },
    ]);
    // Decided once: neither a second rejection nor a refund nor a payment applies to it.
    for (const [action, payload] of [
      ['reject', { reason: 'again' }],
      ['refund', { reason: 'again' }],
      ['mark_paid', { reference: 'late' }],
    ] as const) {
      expect((await operator(action, id, payload)).body).toMatchObject({
        code: 409,
        message: 'This withdrawal can no longer be changed',
      });
    }
    await balances.expectChanges({});
  });

  it('marks a chain withdrawal paid with its hash: the hold goes to withdrawals and fees, audited and told', async () => {
    const m = await member('wd-mutants-paid@example.com');
    const balances = await trackBalances(t, { member: m.accountId });
    const id = (await request(m.token, m.tron.id, '40')).body.data.id;
    // Only an approved withdrawal can be marked paid.
    expect((await operator('mark_paid', id, { reference: 'early' })).body).toMatchObject({
      code: 409,
      message: 'This withdrawal can no longer be changed',
    });
    expect((await operator('approve', id)).body.data.status).toBe('processing');
    await balances.expectChanges({ 'member:USDT:available': '-40.0000', 'member:USDT:held': '40.0000' });

    const paid = await operator('mark_paid', id, { reference: ` 0x${'AB'.repeat(32)} ` });
    expect(paid.body.data).toMatchObject({ status: 'success', txHash: 'ab'.repeat(32), payoutReference: null });
    expect(paid.body.data.completedAt).not.toBeNull();
    await balances.expectChanges({
      'member:USDT:held': '-40.0000',
      'platform:withdrawals:USDT': '39.0000',
      'platform:fees:USDT': '1.0000',
    });
    expect((await postingsOf(id)).slice(2)).toEqual([
      { kind: 'hold_capture', record_type: 'withdraw', amount: '-40.0000', owner: m.accountId, platform: null, purpose: 'held' },
      {
        kind: 'hold_capture',
        record_type: 'withdraw',
        amount: '39.0000',
        owner: null,
        platform: 'withdrawals',
        purpose: 'platform',
      },
      { kind: 'hold_capture', record_type: 'withdraw_fee', amount: '1.0000', owner: null, platform: 'fees', purpose: 'platform' },
    ]);
    const audits = await auditsOf(id);
    expect(audits.map((row) => row.action)).toEqual(['withdrawal.approved', 'withdrawal.marked_paid']);
    expect(audits[1]).toMatchObject({
      before: { status: 'processing', amount: '40.0000', destination: TRON_ADDRESS },
      // The reference as typed (the route trims it); the stored hash is its one spelling.
      after: { status: 'success', reference: `0x${'AB'.repeat(32)}` },
    });
    expect(await eventsOf(m.memberId)).toEqual([
      { kind: 'withdrawal.approved', payload: { withdrawalId: id, amount: '40.0000' } },
      { kind: 'withdrawal.paid', payload: { withdrawalId: id, amount: '40.0000' } },
    ]);
  });

  it('marks a bank withdrawal paid with the reference as typed and no transaction hash', async () => {
    const m = await member('wd-mutants-bank@example.com');
    const bank = (
      await call<WithdrawMethod>(m.token, 'POST', '/api/withdraw/add_bank', {
        bankName: 'ICBC',
        cardNumber: '6222021234567890',
        holderName: 'Li Lei',
        branch: 'Pudong',
      })
    ).body.data;
    const balances = await trackBalances(t, { member: m.accountId });
    const id = (await request(m.token, bank.id, '30')).body.data.id;
    await operator('approve', id);
    const paid = await operator('mark_paid', id, { reference: 'ICBC-Ref-0001' });
    expect(paid.body.data).toMatchObject({ status: 'success', txHash: null, payoutReference: 'ICBC-Ref-0001' });
    await balances.expectChanges({
      'member:USDT:available': '-30.0000',
      'platform:withdrawals:USDT': '29.0000',
      'platform:fees:USDT': '1.0000',
    });
  });

  it('refunds an approved withdrawal paid outside, never a pending one, audited and told', async () => {
    const m = await member('wd-mutants-refund@example.com');
    const balances = await trackBalances(t, { member: m.accountId });
    const id = (await request(m.token, m.tron.id, '30')).body.data.id;
    expect((await operator('refund', id, { reason: 'Too early' })).body).toMatchObject({
      code: 409,
      message: 'This withdrawal can no longer be changed',
    });
    await balances.expectChanges({ 'member:USDT:available': '-30.0000', 'member:USDT:held': '30.0000' });
    await operator('approve', id);
    // An approved one is no longer rejected: it is refunded.
    expect((await operator('reject', id, { reason: 'Late' })).body.code).toBe(409);
    await balances.expectChanges({});

    const refunded = await operator('refund', id, { reason: 'Bank returned it' });
    expect(refunded.body.data).toMatchObject({ status: 'refunded', reason: 'Bank returned it', txHash: null });
    expect(refunded.body.data.completedAt).not.toBeNull();
    await balances.expectChanges({ 'member:USDT:available': '30.0000', 'member:USDT:held': '-30.0000' });
    expect((await postingsOf(id)).slice(2).map((row) => [row.kind, row.record_type, row.purpose, row.amount])).toEqual([
      ['hold_release', 'withdraw_refund', 'held', '-30.0000'],
      ['hold_release', 'withdraw_refund', 'available', '30.0000'],
    ]);
    const audits = await auditsOf(id);
    expect(audits.map((row) => row.action)).toEqual(['withdrawal.approved', 'withdrawal.refunded']);
    expect(audits[1]).toMatchObject({
      before: { status: 'processing', amount: '30.0000' },
      after: { status: 'refunded', reason: 'Bank returned it' },
    });
    expect((await eventsOf(m.memberId)).map((row) => row.kind)).toEqual(['withdrawal.approved', 'withdrawal.refunded']);
    expect((await operator('refund', id, { reason: 'Twice' })).body.code).toBe(409);
    await balances.expectChanges({});
  });

  it('answers an unknown withdrawal with not found to every operator action', async () => {
    const unknown = randomUUID();
    for (const [action, payload] of [
      ['approve', undefined],
      ['reject', { reason: 'x' }],
      ['mark_paid', { reference: 'x' }],
      ['refund', { reason: 'x' }],
    ] as const) {
      const response = await operator(action, unknown, payload);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 404, message: 'Not found' });
    }
  });

  it('replays a request by its key before any other check, even once withdrawals are closed', async () => {
    const m = await member('wd-mutants-replay@example.com');
    const balances = await trackBalances(t, { member: m.accountId });
    const key = randomUUID();
    const first = await request(m.token, m.tron.id, '25', key);
    expect(first.body.code).toBe(200);
    await withSettings({ enabled: false }, async () => {
      const replayed = await request(m.token, m.tron.id, '25', key);
      expect(replayed.body).toMatchObject({ code: 200, data: { id: first.body.data.id, status: 'pending' } });
      expect((await request(m.token, m.tron.id, '25')).body).toMatchObject({
        code: 409,
        message: 'Withdrawals are closed at the moment',
      });
    });
    await balances.expectChanges({ 'member:USDT:available': '-25.0000', 'member:USDT:held': '25.0000' });
  });

  it('refuses an unknown method as not found once the member has one; alipay is a payment detail only', async () => {
    const m = await member('wd-mutants-method@example.com');
    const balances = await trackBalances(t, { member: m.accountId });
    const unknown = await request(m.token, randomUUID(), '20');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 404, message: 'Not found' });
    const alipay = await call<WithdrawMethod>(m.token, 'POST', '/api/withdraw/add_alipay', {
      holderName: 'Li Lei',
      account: 'lilei@alipay',
    });
    expect(alipay.body.code).toBe(200);
    const refused = await request(m.token, alipay.body.data.id, '20');
    expect(refused.body.code).toBe(409);
    expect(refused.body.message).toContain('OTC');
    await balances.expectChanges({});
  });

  it('refuses a saved method whose type the operator has turned off', async () => {
    const m = await member('wd-mutants-disabled@example.com');
    const balances = await trackBalances(t, { member: m.accountId });
    await withSettings({ methods: { crypto: false, bank: true, wechat: false, alipay: false } }, async () => {
      expect((await request(m.token, m.tron.id, '20')).body).toMatchObject({
        code: 409,
        message: 'This withdrawal method is not available at the moment',
      });
    });
    await balances.expectChanges({});
  });

  it('names the open days in order when they are not Monday to Friday', async () => {
    const m = await member('wd-mutants-days@example.com');
    const balances = await trackBalances(t, { member: m.accountId });
    // Friday is not among them.
    await withSettings({ openDays: [6, 1, 3] }, async () => {
      expect((await request(m.token, m.tron.id, '20')).body).toMatchObject({
        code: 409,
        message: 'Withdrawals can be requested Mon, Wed, Sat, 09:00–21:00 (Asia/Shanghai)',
      });
    });
    // Monday to Friday given in another order is still said as such; Saturday is closed.
    now = new Date('2026-11-21T04:00:00Z');
    await withSettings({ openDays: [5, 4, 3, 2, 1], openTime: '08:30', closeTime: '20:15' }, async () => {
      expect((await request(m.token, m.tron.id, '20')).body).toMatchObject({
        code: 409,
        message: 'Withdrawals can be requested Monday to Friday, 08:30–20:15 (Asia/Shanghai)',
      });
    });
    await balances.expectChanges({});
  });

  it('accepts the minimum and the maximum themselves, and an amount just above the fee', async () => {
    const m = await member('wd-mutants-edges@example.com');
    const balances = await trackBalances(t, { member: m.accountId });
    expect((await request(m.token, m.tron.id, '10')).body.data).toMatchObject({ amount: '10.0000', received: '9.0000' });
    expect((await request(m.token, m.tron.id, '9.9999')).body).toMatchObject({
      code: 409,
      message: 'The minimum withdrawal is 10.0000 USDT',
    });
    await balances.expectChanges({ 'member:USDT:available': '-10.0000', 'member:USDT:held': '10.0000' });

    await withSettings({ minimum: '1.0000', maximum: '25.0000' }, async () => {
      expect((await request(m.token, m.tron.id, '25')).body.data).toMatchObject({ amount: '25.0000', received: '24.0000' });
      expect((await request(m.token, m.tron.id, '25.0001')).body).toMatchObject({
        code: 409,
        message: 'The maximum withdrawal is 25.0000 USDT',
      });
      // The fee (1) must be less than the amount: 1 is refused, 1.0001 leaves 0.0001 to arrive.
      expect((await request(m.token, m.tron.id, '1')).body).toMatchObject({
        code: 409,
        message: 'The amount does not cover the fee of 1.0000 USDT',
      });
      expect((await request(m.token, m.tron.id, '1.0001')).body.data).toMatchObject({
        amount: '1.0001',
        fee: '1.0000',
        received: '0.0001',
      });
    });
    await balances.expectChanges({ 'member:USDT:available': '-26.0001', 'member:USDT:held': '26.0001' });
  });

  it('accepts up to the daily limit itself, and shows nothing left once the limit is lowered below what was used', async () => {
    const m = await member('wd-mutants-limit@example.com');
    const balances = await trackBalances(t, { member: m.accountId });
    await withSettings({ dailyLimit: '100.0000' }, async () => {
      expect((await request(m.token, m.tron.id, '60')).body.code).toBe(200);
      expect((await request(m.token, m.tron.id, '40')).body.code).toBe(200);
      expect((await request(m.token, m.tron.id, '10')).body).toMatchObject({
        code: 409,
        message: "This exceeds today's limit of 100.0000 USDT (0.0000 USDT left)",
      });
    });
    await withSettings({ dailyLimit: '130.0000' }, async () => {
      expect((await request(m.token, m.tron.id, '40')).body).toMatchObject({
        code: 409,
        message: "This exceeds today's limit of 130.0000 USDT (30.0000 USDT left)",
      });
    });
    await withSettings({ dailyLimit: '50.0000' }, async () => {
      expect((await request(m.token, m.tron.id, '10')).body).toMatchObject({
        code: 409,
        message: "This exceeds today's limit of 50.0000 USDT (0.0000 USDT left)",
      });
    });
    await balances.expectChanges({ 'member:USDT:available': '-100.0000', 'member:USDT:held': '100.0000' });
  });

  it('pauses withdrawals after a security reset for the cooling-off hours, shown to the minute rounded up', async () => {
    const m = await member('wd-mutants-cooling@example.com');
    const balances = await trackBalances(t, { member: m.accountId });
    // Reset at 02:05:30 Shanghai time on Friday: the 24 hours end on Saturday at 02:05:30, shown as 02:06.
    const resetAt = new Date('2026-11-19T18:05:30Z');
    await t.testDatabase.database.db.execute(
      sql`update members set security_reset_at = ${resetAt.toISOString()} where id = ${m.memberId}::uuid`,
    );
    const index = await call<WithdrawIndex>(m.token, 'GET', '/api/withdraw/index');
    expect(index.body.data.coolingOffUntil).toBe('2026-11-20T18:05:30.000Z');
    expect((await request(m.token, m.tron.id, '20')).body).toMatchObject({
      code: 409,
      message:
        'For your safety, withdrawals are paused for 24 hours after your password, authenticator or trading password was reset. You can withdraw again from 2026-11-21 02:06 (Asia/Shanghai).',
    });

    await withSettings({ securityCoolingOffHours: 8 }, async () => {
      // 8 hours: until Friday 02:05:30 UTC (10:05:30 Shanghai), refused a millisecond before, open from then on.
      now = new Date('2026-11-20T02:05:29.999Z');
      expect((await request(m.token, m.tron.id, '20')).body.message).toBe(
        'For your safety, withdrawals are paused for 8 hours after your password, authenticator or trading password was reset. You can withdraw again from 2026-11-20 10:06 (Asia/Shanghai).',
      );
      now = new Date('2026-11-20T02:05:30Z');
      expect((await call<WithdrawIndex>(m.token, 'GET', '/api/withdraw/index')).body.data.coolingOffUntil).toBeNull();
      expect((await request(m.token, m.tron.id, '20')).body.code).toBe(200);
    });
    await balances.expectChanges({ 'member:USDT:available': '-20.0000', 'member:USDT:held': '20.0000' });

    now = FRIDAY_MORNING;
    await withSettings({ securityCoolingOffHours: 0 }, async () => {
      // 0 turns the pause off.
      expect((await call<WithdrawIndex>(m.token, 'GET', '/api/withdraw/index')).body.data.coolingOffUntil).toBeNull();
      expect((await request(m.token, m.tron.id, '15')).body.code).toBe(200);
    });
    await balances.expectChanges({ 'member:USDT:available': '-15.0000', 'member:USDT:held': '15.0000' });
  });

  it('shows the withdraw screen its figures: balance, what was used today, the member’s set-up and account', async () => {
    const token = await registerMember(t, 'wd-mutants-index@example.com');
    const accountId = await accountIdOf(t, token);
    const settings = (await call<WithdrawSettings>(finance, 'GET', '/api/admin/withdraw/settings')).body.data;
    const fresh = await call<WithdrawIndex>(token, 'GET', '/api/withdraw/index');
    expect(fresh.body.data).toEqual({
      balance: '0.0000',
      settings,
      timeZone: 'Asia/Shanghai',
      openNow: true,
      nextOpenAt: null,
      holidayToday: null,
      usedToday: '0.0000',
      methods: [],
      hasTradePassword: false,
      requiresAuthenticator: false,
      isMainAccount: true,
      coolingOffUntil: null,
    });

    await setTradePassword(t, token);
    await fund(t, accountId, 'USDT', '100');
    const balances = await trackBalances(t, { member: accountId });
    const tron = (
      await call<WithdrawMethod>(token, 'POST', '/api/withdraw/add_chain', { network: 'TRC20', address: TRON_ADDRESS })
    ).body.data;
    expect((await request(token, tron.id, '20.5')).body.code).toBe(200);
    await balances.expectChanges({ 'member:USDT:available': '-20.5000', 'member:USDT:held': '20.5000' });
    const after = await call<WithdrawIndex>(token, 'GET', '/api/withdraw/index');
    expect(after.body.data).toMatchObject({
      balance: '79.5000',
      usedToday: '20.5000',
      hasTradePassword: true,
      isMainAccount: true,
    });
    expect(after.body.data.methods.map((method) => method.id)).toEqual([tron.id]);

    const sub = await call<{ id: string }>(token, 'POST', '/api/account/create_sub', { nickname: 'Side' });
    await call(token, 'POST', '/api/account/switch', { accountId: sub.body.data.id });
    expect((await call<WithdrawIndex>(token, 'GET', '/api/withdraw/index')).body.data).toMatchObject({
      balance: '0.0000',
      usedToday: '0.0000',
      isMainAccount: false,
    });
    await balances.expectChanges({});
  });

  it('keeps withdrawals open with the pause turned off even when the reset is stamped ahead of this clock', async () => {
    const m = await member('wd-mutants-cooling-off@example.com');
    const balances = await trackBalances(t, { member: m.accountId });
    // Stamped an hour ahead (another instance's clock): with 0 hours there is no pause at all.
    const ahead = new Date(now.getTime() + 3_600_000);
    await t.testDatabase.database.db.execute(
      sql`update members set security_reset_at = ${ahead.toISOString()} where id = ${m.memberId}::uuid`,
    );
    await withSettings({ securityCoolingOffHours: 0 }, async () => {
      expect((await call<WithdrawIndex>(m.token, 'GET', '/api/withdraw/index')).body.data.coolingOffUntil).toBeNull();
      expect((await request(m.token, m.tron.id, '12')).body.code).toBe(200);
    });
    await balances.expectChanges({ 'member:USDT:available': '-12.0000', 'member:USDT:held': '12.0000' });
  });
});
