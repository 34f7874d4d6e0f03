import type { APIRequestContext } from '@playwright/test';
import type { HostingConfig, HostingOrder, TeamLevelInput, TeamLevelVersion } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import zhHans from '../../web/src/app/i18n/locales/zh-Hans.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { expect, test } from '../support/fixtures';
import { settleDaysBefore } from '../support/settlement';
import { currentAccount, currentAccountId } from '../support/funding';
import { withPlatformLock } from '../support/locks';
import { copyPosterLink, recordCopies, registerFromLink } from '../support/team';

/**
 * Team income end to end (docs/decisions/024-team-earnings.md): A copies the poster link, B registers
 * from it in a browser of their own and C with the same code, B opens 1000 USDT of custody, the
 * platform day moves on and the days are settled; A sees B's direct income (10 % of B's 1.2000 a day)
 * to arrive and then arrived, the V1 promotion bonus, the members list and the way to V2.
 *
 * The level table is the platform's: the test saves its own (in force from the next platform day)
 * and, at the end, the seeded one again, holding the server-clock lock all along (it moves the clock
 * too), and redeems B's custody (the earn test's dividend is shared by all custody of 500 or more).
 * Its table pays no level dividend or community rate, so no other member's figures enter A's.
 */

const DAY_MS = 86_400_000;
const TRADE = 'team-income-trade-1';
test.describe.configure({ timeout: 180_000 });

const zero = {
  indirectRatePct: '0',
  indirectGenerations: 0,
  communityRatePct: '0',
  managementRatePct: '0',
  dividendRatePct: '0',
};
/** V1: one valid direct member and 500 of team performance; V2: two and 2000. Direct 10 %, bonuses 5 and 20. */
const TABLE: TeamLevelInput[] = [
  {
    level: 0,
    name: 'V0',
    minOwnCustody: '0',
    minValidDirect: 0,
    minTeamPerformance: '0',
    minLegs: 0,
    legsLevel: null,
    directRatePct: '0',
    promotionBonus: '0',
    ...zero,
  },
  {
    level: 1,
    name: 'V1',
    minOwnCustody: '0',
    minValidDirect: 1,
    minTeamPerformance: '500',
    minLegs: 0,
    legsLevel: null,
    directRatePct: '10',
    promotionBonus: '5',
    ...zero,
  },
  {
    level: 2,
    name: 'V2',
    minOwnCustody: '0',
    minValidDirect: 2,
    minTeamPerformance: '2000',
    minLegs: 0,
    legsLevel: null,
    directRatePct: '10',
    promotionBonus: '20',
    ...zero,
  },
];

/** The platform day (Asia/Shanghai) `offsetDays` after the server's `nowMs`. */
function platformDate(nowMs: number, offsetDays: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(nowMs + offsetDays * DAY_MS));
}

async function call<T>(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  token: string | null,
  data?: object,
): Promise<T> {
  const response = await request.fetch(url, {
    method,
    headers: { lang: 'EN', ...(token ? { authorization: token } : {}) },
    ...(data ? { data } : {}),
  });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  expect(envelope.code, envelope.message).toBe(200);
  return envelope.data;
}

for (const [locale, texts] of [
  ['en', en],
  ['zh-Hans', zhHans],
] as const) {
  test(`A's poster link brings B and C; B's custody pays A direct income and a promotion (${locale})`, async ({
    page,
    context,
    browser,
    request,
    members,
    operators,
    fund,
  }) => {
    const errors = collectErrors(page);
    const a = await members.create('income-a');
    await recordCopies(context);
    await prepareStorage(page, { credential: a.token, locale });

    // A copies the poster's link; B registers from it in a browser of their own; C with the same code.
    const invitation = await copyPosterLink(page, texts);
    const { code } = invitation;
    const { email: bEmail, token: bToken } = await registerFromLink(browser, invitation, {
      locale,
      texts,
      emailPrefix: 'income-b',
      password: 'income-b-password',
    });
    const bNickname = (await currentAccount(request, bToken)).nickname;
    const c = await members.create('income-c', { invitationCode: code });
    await call(request, 'POST', '/api/user/set_trade_password', bToken, { password: TRADE, confirmPassword: TRADE });
    await fund(await currentAccountId(request, bToken), 'USDT', '1000');

    await withPlatformLock('server-clock', async () => {
      // Made once the clock stands still (the other worker's run of this test moves it).
      const operator = `Bearer ${(await operators.create('finance')).token}`;
      const versions = await call<TeamLevelVersion[]>(request, 'GET', '/api/admin/team/levels', operator);
      const seeded = versions[versions.length - 1]!.levels;
      let order: HostingOrder | null = null;
      try {
        const serverNow = Date.parse(
          (await call<{ now: string }>(request, 'POST', '/api/test/clock', null, { advanceMs: 0 })).now,
        );
        const days = [0, 1, 2].map((offset) => platformDate(serverNow, offset));
        // The test's table, in force from tomorrow.
        await call(request, 'PUT', '/api/admin/team/levels', operator, { levels: TABLE });
        // B: 1000 USDT for 30 days at 0.12 % a day: 1.2000 a day from tomorrow.
        const plans = (await call<HostingConfig>(request, 'GET', '/api/hosting/config', bToken)).plans;
        order = await call<HostingOrder>(request, 'POST', '/api/hosting/create', bToken, {
          planId: plans.find((plan) => plan.periodDays === 30)!.id,
          amount: '1000',
          autoRenew: false,
          tradePassword: TRADE,
          idempotencyKey: crypto.randomUUID(),
        });
        // Three days on; today, tomorrow and the day after are settled in order (only the console settles
        // test days: the platform's job runs at a real 00:05). Tomorrow's earnings arrive with the day after.
        await call(request, 'POST', '/api/test/clock', null, { advanceMs: 3 * DAY_MS });
        await settleDaysBefore(request, operator, days[0]!);
        for (const day of days) {
          const run = await call<{ day: string; status: string }>(
            request,
            'POST',
            `/api/admin/settlement/runs/${day}/rerun`,
            operator,
            {},
          );
          expect(run).toMatchObject({ day, status: 'completed' });
        }

        // The income log: B's direct income of the day after (to arrive) and of tomorrow (arrived), each
        // 10 % of B's 1.2000; the V1 bonus of 5.0000 (A reached V1 with B's valid custody), arrived.
        await page.goto('/#/pages/blance_record/blance_record5');
        const direct = page.locator('[data-testid="income-item"][data-type="direct"]');
        await expect(direct).toHaveCount(2);
        await expect(direct.getByTestId('income-amount')).toHaveText(['+0.1200 USDT', '+0.1200 USDT']);
        await expect(direct.getByTestId('income-state')).toHaveText([texts.income.state.to_arrive, texts.income.state.arrived]);
        await expect(direct.first().getByTestId('income-day')).toHaveText(texts.income.day.replace('{{day}}', days[2]!));
        const bMasked = `${bEmail[0]}***${bEmail.slice(bEmail.indexOf('@') - 1)}`;
        await expect(direct.first().getByTestId('income-team-detail')).toHaveText(
          texts.teamEarnings.fromMember
            .replace('{{nickname}}', bNickname)
            .replace('{{email}}', bMasked)
            .replace('{{generation}}', '1') + texts.teamEarnings.rate.replace('{{base}}', '1.2000').replace('{{rate}}', '10'),
        );
        const promotion = page.locator('[data-testid="income-item"][data-type="promotion"]');
        await expect(promotion).toHaveCount(1);
        await expect(promotion.getByTestId('income-amount')).toHaveText('+5.0000 USDT');
        await expect(promotion.getByTestId('income-state')).toHaveText(texts.income.state.arrived);
        await expect(promotion.getByTestId('income-team-detail')).toHaveText(texts.teamEarnings.bonus.replace('{{level}}', 'V1'));

        // The Team tab: V1, the way to V2 (one more valid direct member, 1000 more performance), earnings per type.
        await page.goto('/#/pages/blance_record/blance_record6');
        await expect(page.getByTestId('team-level')).toHaveText('V1');
        await expect(page.getByTestId('team-next-badge')).toHaveText('V2');
        await expect(page.getByTestId('team-missing').locator('li')).toHaveText([
          texts.team.missingDirect.replace('{{count}}', '1'),
          texts.team.missingPerformance.replace('{{amount}}', '1,000.0000'),
        ]);
        const earning = (type: string) => page.locator(`[data-testid="team-earning"][data-type="${type}"]`);
        await expect(earning('direct').getByTestId('team-earning-to-arrive')).toHaveText('0.1200');
        await expect(earning('direct').getByTestId('team-earning-arrived')).toHaveText('0.1200');
        await expect(earning('promotion').getByTestId('team-earning-to-arrive')).toHaveText('0.0000');
        await expect(earning('promotion').getByTestId('team-earning-arrived')).toHaveText('5.0000');
        await expect(earning('management').getByTestId('team-earning-arrived')).toHaveText('0.0000');

        // The members list: C (newest, not valid) and B (valid, 1000.0000 in custody).
        await page.goto('/#/pages/blance_record/blance_record7');
        const rows = page.getByTestId('team-member');
        await expect(rows.getByTestId('team-member-nickname')).toHaveText([c.nickname, bNickname]);
        await expect(rows.getByTestId('team-member-valid')).toHaveText([texts.team.notValidTag, texts.team.validTag]);
        await expect(rows.getByTestId('team-member-custody')).toHaveText(['0.0000', '1,000.0000']);
      } finally {
        // The seeded table again from the next platform day, and B's custody redeemed.
        await call(request, 'PUT', '/api/admin/team/levels', operator, { levels: seeded });
        if (order) await call(request, 'POST', '/api/hosting/sub', bToken, { orderId: order.id, tradePassword: TRADE });
      }
    });
    expect(errors).toEqual([]);
  });
}
