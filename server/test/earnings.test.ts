import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money, type AiInfo, type HostingConfig, type IncomeItem } from '@custos/contract';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf, fund, setTradePassword } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The AI dividend shared by the settlement among valid members pro rata to custody, claimed once; and the income log. */

let now = new Date('2026-11-20T02:00:00Z');
let t: TestApp;
let finance: string;
const members: { token: string; accountId: string }[] = [];

type Envelope<T = unknown> = { code: number; message: string; data: T };

function call<T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, as: string, payload?: object) {
  return t.app
    .inject({ method, url, headers: { authorization: as, lang: 'EN' }, ...(payload ? { payload } : {}) })
    .then((response) => ({ status: response.statusCode, body: response.json<Envelope<T>>() }));
}

beforeAll(async () => {
  t = await createTestApp({}, { clock: { now: () => now } });
  finance = await operatorToken(t, 'earnings-finance', 'finance');
  for (const [index, custody] of ['600', '1800', '400'].entries()) {
    const token = await registerMember(t, `dividend-${index}@example.com`);
    const accountId = await accountIdOf(t, token);
    await setTradePassword(t, token);
    await fund(t, accountId, 'USDT', custody);
    const plan = (await call<HostingConfig>('GET', '/api/hosting/config', token)).body.data.plans.find(
      (item) => item.periodDays === 30,
    )!;
    const created = await call('POST', '/api/hosting/create', token, {
      planId: plan.id,
      amount: custody,
      autoRenew: false,
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
    });
    expect(created.body.code).toBe(200);
    members.push({ token, accountId });
  }
});
afterAll(async () => {
  await t.close();
});

describe('the AI dividend', () => {
  it('shares the day’s pool among valid members pro rata to custody, as claimable shares', async () => {
    const pools = await call<{ day: string; amount: string; distributed: string | null }[]>(
      'PUT',
      '/api/admin/dividend/pools/2026-11-21',
      finance,
      {
        amount: '100',
      },
    );
    expect(pools.body.data).toEqual([
      { day: '2026-11-21', amount: '100.0000', distributed: null, members: null, claimed: '0.0000' },
    ]);
    const [a, b, c] = members;
    const balances = await trackBalances(t, { a: a!.accountId, b: b!.accountId, c: c!.accountId });
    now = new Date('2026-11-22T02:00:00Z'); // both days have ended
    await t.services.settlement.settle('2026-11-20');
    await t.services.settlement.settle('2026-11-21');
    // Custody opened on 11-20 earns from 11-21 at 0.12 % a day: A 600 → 0.72, B 1800 → 2.16, C 400 →
    // 0.48, from the interest account. The dividend is only shared as claimable: no money moves yet.
    await balances.expectChanges({
      'a:USDT:available': '0.7200',
      'b:USDT:available': '2.1600',
      'c:USDT:available': '0.4800',
      'platform:interest:USDT': '-3.3600',
    });
    const infoA = (await call<AiInfo>('GET', '/api/ai/info', a!.token)).body.data;
    expect(infoA).toMatchObject({
      claimable: '25.0000',
      claimedTotal: '0.0000',
      isValid: true,
      lastPool: { day: '2026-11-21', amount: '100.0000', members: 2 },
    });
    expect(infoA.records.items).toEqual([
      { day: '2026-11-21', custody: '600.0000', amount: '25.0000', status: 'claimable', claimedAt: null },
    ]);
    expect((await call<AiInfo>('GET', '/api/ai/info', b!.token)).body.data.claimable).toBe('75.0000');
    // Below 500 USDT in custody: not valid, no share.
    expect((await call<AiInfo>('GET', '/api/ai/info', c!.token)).body.data).toMatchObject({
      claimable: '0.0000',
      isValid: false,
    });
    const runs = (
      await call<{ day: string; dividendShares: number; dividendTotal: string }[]>('GET', '/api/admin/settlement/runs', finance)
    ).body.data;
    expect(runs.find((run) => run.day === '2026-11-21')).toMatchObject({ dividendShares: 2, dividendTotal: '100.0000' });
    // A shared day's pool cannot change any more.
    expect((await call('PUT', '/api/admin/dividend/pools/2026-11-21', finance, { amount: '500' })).body).toMatchObject({
      code: 409,
      message: 'The dividend of that day has been shared out already',
    });
  });

  it('pays a claim once, into cash, even when claimed twice at the same time', async () => {
    // PGlite runs one transaction at a time: only this test's PostgreSQL run proves the race.
    const [a, b, c] = members;
    const balances = await trackBalances(t, { a: a!.accountId, b: b!.accountId, c: c!.accountId });
    const before = await availableOf(t, a!.accountId, 'USDT');
    const [first, second] = await Promise.all([
      call('POST', '/api/ai/receive', a!.token),
      call('POST', '/api/ai/receive', a!.token),
    ]);
    const codes = [first.body.code, second.body.code].sort();
    expect(codes).toEqual([200, 409]);
    expect([first.body, second.body].find((body) => body.code === 200)?.data).toEqual({ amount: '25.0000', days: 1 });
    expect(await availableOf(t, a!.accountId, 'USDT')).toBe(
      money.formatMoney(money.add(money.parseMoney(before), money.parseMoney('25'))),
    );
    const info = (await call<AiInfo>('GET', '/api/ai/info', a!.token)).body.data;
    expect(info).toMatchObject({ claimable: '0.0000', claimedTotal: '25.0000' });
    expect(info.records.items[0]!.status).toBe('claimed');
    // One claim paid, out of the rewards account; the second and C's (nothing to claim) moved nothing.
    await balances.expectChanges({ 'a:USDT:available': '25.0000', 'platform:rewards:USDT': '-25.0000' });
    expect((await call('POST', '/api/ai/receive', c!.token)).body).toMatchObject({
      code: 409,
      message: 'There is nothing to claim yet',
    });
    await balances.expectChanges({});
    const pools = await call<{ claimed: string; distributed: string; members: number }[]>(
      'GET',
      '/api/admin/dividend/pools',
      finance,
    );
    expect(pools.body.data[0]).toMatchObject({ distributed: '100.0000', members: 2, claimed: '25.0000' });
  });
});

describe('the income log', () => {
  it('lists every earning with its type, state and source, and filters by type', async () => {
    const [a, b] = members;
    const log = (await call<{ items: IncomeItem[] }>('GET', '/api/income/log', a!.token)).body.data.items;
    expect(log).toEqual([
      { type: 'dividend', asset: 'USDT', amount: '25.0000', state: 'arrived', source: 'AI', day: '2026-11-21' },
      { type: 'static', asset: 'USDT', amount: '0.7200', state: 'arrived', source: '30 days', day: '2026-11-21' },
    ]);
    const unclaimed = (await call<{ items: IncomeItem[] }>('GET', '/api/income/log?type=dividend', b!.token)).body.data.items;
    expect(unclaimed).toEqual([
      { type: 'dividend', asset: 'USDT', amount: '75.0000', state: 'to_arrive', source: 'AI', day: '2026-11-21' },
    ]);
    const types = (await call<{ type: string; available: boolean }[]>('GET', '/api/income/type_list', a!.token)).body.data;
    // The team's types since docs/decisions/024-team-earnings.md (their rows: team-earnings.test.ts) and airdrops (airdrops.test.ts): every type.
    expect(types.filter((type) => type.available).map((type) => type.type)).toEqual([
      'static',
      'mining',
      'dividend',
      'direct',
      'indirect',
      'community',
      'management',
      'promotion',
      'airdrop',
    ]);
  });
});
