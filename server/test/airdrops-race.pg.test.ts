import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money, type AirdropCampaign } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { createLogger } from '../src/lib/logger.js';
import { AirdropsRepository } from '../src/modules/airdrops/airdrops.repository.js';
import { AirdropsService } from '../src/modules/airdrops/airdrops.service.js';
import { TeamRepository } from '../src/modules/team/team.repository.js';
import { trackBalances } from './support/balances.js';
import { accountIdOf, availableOf } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Airdrop arrival under real concurrency (PostgreSQL): several arrival runs at once pay each recipient
 * once, and a cancel racing the arrival either cancels with nothing paid or is refused with all paid.
 */

let now = new Date('2026-11-20T02:00:00Z');
const clock = { now: () => now };
let t: TestApp;
let finance: string;
const emails: string[] = [];
const accounts: string[] = [];

/** Each recipient's RAB up by `amount`, all of it out of the rewards account. */
function everyonePaid(amount: string): Record<string, string> {
  const units = money.parseMoney(amount);
  return {
    ...Object.fromEntries(accounts.map((_, index) => [`r${index}:RAB:available`, money.formatMoney(units)])),
    'platform:rewards:RAB': money.formatMoney(money.negate(accounts.reduce((sum) => money.add(sum, units), money.ZERO))),
  };
}

function recipients(): Record<string, string> {
  return Object.fromEntries(accounts.map((account, index) => [`r${index}`, account]));
}

type Envelope<T = unknown> = { code: number; message: string; data: T };

async function create(name: string, amount: string, arriveAt: string | null): Promise<AirdropCampaign> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/admin/airdrops',
    headers: { authorization: finance, lang: 'EN' },
    payload: { name, amount, selection: 'list', members: emails, arriveAt },
  });
  const body = response.json<Envelope<AirdropCampaign>>();
  expect(body.code, body.message).toBe(200);
  return body.data;
}

async function entries(campaignId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as n from journal_entries where kind = 'airdrop' and reference_id = ${campaignId}`,
  );
  return row!.n;
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  for (let index = 0; index < 12; index += 1) {
    const email = `race-${index}@example.com`;
    emails.push(email);
    accounts.push(await accountIdOf(t, await registerMember(t, email)));
  }
  finance = await operatorToken(t, 'race-finance', 'finance');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('airdrop arrival on PostgreSQL', () => {
  it('six arrival runs at once pay each of 12 recipients exactly once', async () => {
    const campaign = await create('Concurrent', '7.0001', null);
    const tracked = await trackBalances(t, recipients());
    const results = await Promise.all(Array.from({ length: 6 }, () => t.services.airdrops.arriveDue()));
    // Runs that found recipients held by another run leave the finishing to it; exactly one finishes.
    expect(results.reduce((sum, arrived) => sum + arrived, 0)).toBe(1);
    expect(await entries(campaign.id)).toBe(12);
    for (const account of accounts) expect(await availableOf(t, account, 'RAB')).toBe('7.0001');
    expect(await t.services.airdrops.campaign(campaign.id)).toMatchObject({ status: 'arrived', paid: 12 });
    // 12 × 7.0001 = 84.0012 out of rewards, once.
    await tracked.expectChanges(everyonePaid('7.0001'));
  });

  it('a cancel racing the arrival: either cancelled with nothing paid, or refused with everyone paid', async () => {
    // The canceller's instance runs a minute behind (its clock says the time has not come), so the only
    // thing keeping the two apart is the campaign row's lock and status.
    const behind = new AirdropsService(
      t.testDatabase.database.db,
      new AirdropsRepository(t.testDatabase.database.db),
      new TeamRepository(t.testDatabase.database.db),
      t.services.ledger,
      t.services.audit,
      t.services.memberEvents,
      t.config.platformTimeZone,
      { now: () => new Date(now.getTime() - 60_000) },
      createLogger('silent'),
    );
    const [operator] = await queryRows<{ id: string }>(
      t.testDatabase.database.db,
      sql`select id from operators where username = 'race-finance'`,
    );
    const outcomes = { cancelled: 0, arrived: 0 };
    for (let round = 0; round < 8; round += 1) {
      const balances = await Promise.all(accounts.map((account) => availableOf(t, account, 'RAB')));
      const tracked = await trackBalances(t, recipients());
      const campaign = await create(`Race ${round}`, '1', new Date(now.getTime() + 30_000).toISOString());
      now = new Date(now.getTime() + 30_000);
      const [cancel, arrive] = await Promise.allSettled([
        behind.cancel(operator!.id, campaign.id, { ip: '127.0.0.1', userAgent: null, requestId: `race-${round}` }),
        t.services.airdrops.arrive(campaign.id),
      ]);
      const state = await t.services.airdrops.campaign(campaign.id);
      const after = await Promise.all(accounts.map((account) => availableOf(t, account, 'RAB')));
      if (cancel.status === 'fulfilled') {
        outcomes.cancelled += 1;
        expect(state).toMatchObject({ status: 'cancelled', paid: 0 });
        expect(arrive).toEqual({ status: 'fulfilled', value: false });
        expect(await entries(campaign.id)).toBe(0);
        expect(after).toEqual(balances);
        await tracked.expectChanges({});
      } else {
        outcomes.arrived += 1;
        expect(String(cancel.reason)).toMatch(/airdrop.not_cancellable/);
        expect(state).toMatchObject({ status: 'arrived', paid: 12 });
        expect(await entries(campaign.id)).toBe(12);
        expect(after).toEqual(
          balances.map((balance) => money.formatMoney(money.add(money.parseMoney(balance), money.parseMoney('1')))),
        );
        await tracked.expectChanges(everyonePaid('1'));
      }
      now = new Date(now.getTime() + 60_000);
    }
    expect(outcomes.cancelled + outcomes.arrived).toBe(8);
  });
});
