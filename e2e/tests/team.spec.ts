import type { APIRequestContext } from '@playwright/test';
import type { HostingConfig, HostingOrder, TeamInfo } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import zhHans from '../../web/src/app/i18n/locales/zh-Hans.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';
import { currentAccount, currentAccountId } from '../support/funding';
import { copyPosterLink, recordCopies, registerFromLink } from '../support/team';

/**
 * The team end to end: A copies the share link from the poster, B registers from it in a browser of
 * their own (the invitation code filled in), C registers with the same code, B opens custody, and A
 * sees both in the members list (B valid) and the team performance on the Team tab.
 */

const TRADE = 'team-trade-1';

async function call<T>(
  request: APIRequestContext,
  method: 'GET' | 'POST',
  url: string,
  token: string,
  data?: object,
): Promise<T> {
  const response = await request.fetch(url, { method, headers: { authorization: token, lang: 'EN' }, ...(data ? { data } : {}) });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  expect(envelope.code, envelope.message).toBe(200);
  return envelope.data;
}

for (const [locale, texts] of [
  ['en', en],
  ['zh-Hans', zhHans],
] as const) {
  test(`A shares the poster link, B and C join with it, B's custody shows in A's team (${locale})`, async ({
    page,
    context,
    browser,
    request,
    members,
    fund,
  }) => {
    const errors = collectErrors(page);
    const a = await members.create('team-a');
    await recordCopies(context);
    await prepareStorage(page, { credential: a.token, locale });

    // The poster: the code, and the link copied as it is shown; a drawn image.
    const invitation = await copyPosterLink(page, texts);
    const { code } = invitation;
    const poster = page.getByTestId('share-poster-image');
    await expect(poster).toBeVisible();
    await expect
      .poll(() => poster.evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight]))
      .toEqual([600, 900]);

    // B opens the link in a browser of their own and registers: the invitation code is already there.
    const { token: bToken } = await registerFromLink(browser, invitation, {
      locale,
      texts,
      emailPrefix: 'team-b',
      password: 'team-b-password',
    });
    const bNickname = (await currentAccount(request, bToken)).nickname;

    // C registers with the same code.
    const c = await members.create('team-c', { invitationCode: code });

    // B opens 600 USDT of custody on the 30-day plan.
    await call(request, 'POST', '/api/user/set_trade_password', bToken, { password: TRADE, confirmPassword: TRADE });
    await fund(await currentAccountId(request, bToken), 'USDT', '1000');
    const plans = (await call<HostingConfig>(request, 'GET', '/api/hosting/config', bToken)).plans;
    const order = await call<HostingOrder>(request, 'POST', '/api/hosting/create', bToken, {
      planId: plans.find((plan) => plan.periodDays === 30)!.id,
      amount: '600',
      autoRenew: false,
      tradePassword: TRADE,
      idempotencyKey: crypto.randomUUID(),
    });
    try {
      // A's members: C (newest) then B, B valid with 600.0000 in custody, C not valid.
      await page.goto('/#/pages/blance_record/blance_record7');
      const rows = page.getByTestId('team-member');
      await expect(rows).toHaveCount(2);
      await expect(rows.getByTestId('team-member-nickname')).toHaveText([c.nickname, bNickname]);
      const bRow = page.locator(`[data-testid="team-member"][data-nickname="${bNickname}"]`);
      await expect(bRow.getByTestId('team-member-valid')).toHaveText(texts.team.validTag);
      await expect(bRow.getByTestId('team-member-custody')).toHaveText('600.0000');
      const cRow = page.locator(`[data-testid="team-member"][data-nickname="${c.nickname}"]`);
      await expect(cRow.getByTestId('team-member-valid')).toHaveText(texts.team.notValidTag);
      await expect(cRow.getByTestId('team-member-custody')).toHaveText('0.0000');

      // The Team tab: 600.0000 of team performance, all of it new today; two direct members, one valid.
      await page.goto('/#/pages/blance_record/blance_record6');
      await expect(page.getByTestId('team-performance-total')).toHaveText('600.0000USDT');
      await expect(page.getByTestId('team-performance-today')).toHaveText('600.0000');
      await expect(page.getByTestId('team-direct')).toHaveText('2');
      await expect(page.getByTestId('team-indirect')).toHaveText('0');
      await expect(page.getByTestId('team-valid-direct')).toHaveText('1');
      await expect(page.getByTestId('team-valid')).toHaveText('1');
      await expect(page.getByTestId('team-level')).toHaveText('V0');
      const info = await call<TeamInfo>(request, 'GET', '/api/user/team_info', a.token);
      expect(info.performance.total).toBe('600.0000');
      expect(errors).toEqual([]);
    } finally {
      // The AI dividend of the earn test is shared by every member with 500 USDT or more in custody.
      await call(request, 'POST', '/api/hosting/sub', bToken, { orderId: order.id, tradePassword: TRADE });
    }
  });
}

test('the console shows the level table, previews a table, and a member’s team with upline and downline', async ({
  request,
  members,
  operators,
  openConsole,
}) => {
  const a = await members.create('team-console-a');
  const { inviteCode } = await call<{ inviteCode: string }>(request, 'GET', '/api/user/share', a.token);
  const b = await members.create('team-console-b', { invitationCode: inviteCode });
  const c = await members.create('team-console-c', {
    invitationCode: (await call<{ inviteCode: string }>(request, 'GET', '/api/user/share', b.token)).inviteCode,
  });
  const console = await openConsole(await operators.create('finance'));
  const errors = collectErrors(console);

  // The seeded table, V0–V5; previewing it unchanged moves nobody.
  await openConsolePage(console, 'Team levels');
  await expect(console.getByTestId('level-5-name')).toHaveValue('V5');
  await expect(console.getByTestId('level-1-minTeamPerformance')).toHaveValue('10000.0000');
  await console.getByTestId('team-levels-preview').click();
  await expect(console.getByTestId('team-levels-preview-result')).toContainText(', 0 member account(s) would change level');

  // B's team: A above, C below.
  await openConsolePage(console, 'Members');
  await console.getByPlaceholder('E-mail, nickname or invitation code').fill(b.email);
  await console.getByRole('button', { name: 'Search' }).click();
  // Until the search answers, the list shows everyone (C's row names B as its inviter).
  await expect(console.getByRole('cell', { name: b.email, exact: true })).toHaveCount(1);
  await console.getByRole('cell', { name: b.email, exact: true }).click();
  const detail = console.getByRole('dialog');
  await detail.getByRole('tab', { name: 'Team' }).click();
  await expect(detail.getByTestId('member-team-level')).toHaveText('V0');
  const cells = (email: string) => detail.getByRole('row').filter({ hasText: email }).getByRole('cell');
  await expect(cells(a.email)).toHaveText(['-1', a.email, a.nickname, 'V0', '0.0000', '0.0000', '1 direct / 2 all']);
  await expect(cells(c.email)).toHaveText(['1', c.email, c.nickname, 'V0', '0.0000', '0.0000', '0 direct / 0 all']);
  expect(errors).toEqual([]);
});
