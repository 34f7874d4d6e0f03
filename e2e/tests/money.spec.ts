import type { APIRequestContext, Page } from '@playwright/test';
import { fieldLabel, translate, type UserAssets } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import ja from '../../web/src/app/i18n/locales/ja.json' with { type: 'json' };
import zhHans from '../../web/src/app/i18n/locales/zh-Hans.json' with { type: 'json' };
import { collectErrors, hashPath, prepareStorage } from '../support/app';
import { expect, test, TRADE_PASSWORD } from '../support/fixtures';

async function assetsOf(request: APIRequestContext, token: string): Promise<UserAssets> {
  const response = await request.get('/api/user/assets', { headers: { authorization: token } });
  return ((await response.json()) as { data: UserAssets }).data;
}

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => values[name] ?? '');
}

/** Errors a money screen is expected to cause: the server's 400/409 refusals. */
function unexpected(errors: string[]): string[] {
  return errors.filter((error) => !/status of (400|409)/.test(error));
}

async function amountInput(page: Page) {
  return page.getByTestId('amount-input').locator('input');
}

test('exchange in English: balances on Assets and Home, the live quote, both directions, refusals move nothing', async ({
  page,
  request,
  members,
  fund,
}) => {
  const errors = collectErrors(page);
  const member = await members.create('exchange', { tradePassword: true });
  await fund(member.accountId, 'USDT', '1000');
  await fund(member.accountId, 'FUEL', '0.2');
  await prepareStorage(page, { credential: member.token, locale: 'en' });

  // Assets tab: total, cash/custody split, every balance, the account in use.
  await page.goto('/#/pages/my/my');
  await expect(page.getByTestId('total-assets')).toHaveText('1,000.0000USDT');
  await expect(page.getByTestId('cash-assets')).toHaveText('1,000.0000');
  await expect(page.getByTestId('custody-assets')).toHaveText('0.0000');
  await expect(page.getByTestId('balance-USDT').locator('.balance-main')).toHaveText('1,000.0000');
  await expect(page.getByTestId('balance-FUEL').locator('.balance-main')).toHaveText('0.2000');
  await expect(page.getByTestId('balance-FUEL')).toContainText(en.assetNames.FUEL);
  await expect(page.getByTestId('balance-TICKET').locator('.balance-detail')).toHaveText(
    fill(en.assets.ticketsUsed, { used: '0.0000' }),
  );
  await expect(page.getByTestId('account-in-use')).toContainText(member.nickname);
  await expect(page.getByTestId('account-in-use')).toContainText(en.accounts.main);

  // Home tab: the same total, and the shortcuts into the money screens.
  await page.getByTestId('tab-0').click();
  await expect.poll(() => hashPath(page)).toBe('/pages/index/index');
  await expect(page.getByTestId('total-assets')).toHaveText('1,000.0000USDT');
  await page.getByTestId('shortcut-withdraw6').click();
  await expect.poll(() => hashPath(page)).toBe('/pages/withdraw/withdraw6');
  await expect(page.getByTestId('exchange-price')).toHaveText(fill(en.exchange.price, { price: '0.5' }));

  // USDT → RAB: five decimals are refused before anything is sent, with the server's wording.
  const amount = await amountInput(page);
  await amount.fill('100.12345');
  await page.getByTestId('trade-password-input').locator('input').fill(TRADE_PASSWORD);
  await page.getByTestId('exchange-submit').click();
  const placesMessage = translate('en', 'field_error', {
    field: fieldLabel('en', 'amount'),
    reason: translate('en', 'reason.amount_places'),
  });
  await expect(page.getByText(placesMessage)).toBeVisible();

  // The quote: 0.5 % of 100 USDT = 0.5 USDT, 0.2 paid by FUEL and 0.3 by USDT; 99.7 USDT buy 199.4 RAB.
  await amount.fill('100');
  await expect(page.getByTestId('quote-receive')).toHaveText('199.4000 RAB');
  await expect(page.getByTestId('quote-fee')).toHaveText('0.5000 USDT');
  await expect(page.getByTestId('quote-fee-fuel')).toHaveText('0.2000 FUEL');
  await expect(page.getByTestId('quote-fee-usdt')).toHaveText('0.3000 USDT');
  await expect(page.getByText(placesMessage)).toHaveCount(0);

  // A wrong trading password is refused and moves nothing.
  await page.getByTestId('trade-password-input').locator('input').fill('not-the-password');
  await page.getByTestId('exchange-submit').click();
  await expect(page.getByText(translate('en', 'auth.trade_password_wrong'))).toBeVisible();
  const untouched = await assetsOf(request, member.token);
  expect([untouched.USDT.available, untouched.RAB.available, untouched.FUEL.available]).toEqual([
    '1000.0000',
    '0.0000',
    '0.2000',
  ]);

  await page.getByTestId('trade-password-input').locator('input').fill(TRADE_PASSWORD);
  await page.getByTestId('exchange-submit').click();
  await expect(page.getByText(fill(en.exchange.done, { amount: '199.4000', asset: 'RAB' }))).toBeVisible();
  await expect(page.getByTestId('fuel-available')).toHaveText('0.0000 FUEL');
  const afterBuy = await assetsOf(request, member.token);
  expect([afterBuy.USDT.available, afterBuy.RAB.available, afterBuy.FUEL.available]).toEqual(['900.0000', '199.4000', '0.0000']);

  // RAB → USDT with "all": 199.4 RAB = 99.7 USDT, fee 0.4985 USDT (no FUEL left), 99.2015 USDT received.
  await page.getByText(en.exchange.rabToUsdt, { exact: true }).click();
  await expect(page.getByText(fill(en.money.available, { amount: '199.4000', asset: 'RAB' }))).toBeVisible();
  await page.getByTestId('amount-all').click();
  await expect(amount).toHaveValue('199.4');
  await expect(page.getByTestId('quote-receive')).toHaveText('99.2015 USDT');
  await expect(page.getByTestId('quote-fee')).toHaveText('0.4985 USDT');
  await expect(page.getByTestId('quote-fee-fuel')).toHaveText('0.0000 FUEL');
  await expect(page.getByTestId('quote-fee-usdt')).toHaveText('0.4985 USDT');
  await page.getByTestId('trade-password-input').locator('input').fill(TRADE_PASSWORD);
  await page.getByTestId('exchange-submit').click();
  await expect(page.getByText(fill(en.exchange.done, { amount: '99.2015', asset: 'USDT' }))).toBeVisible();
  await expect(page.getByText(fill(en.money.available, { amount: '0.0000', asset: 'RAB' }))).toBeVisible();

  // A minimum the member cannot reach is refused with the server's message.
  await amount.fill('5');
  await expect(page.getByText(translate('en', 'exchange.below_minimum', { minimum: '10.0000', asset: 'RAB' }))).toBeVisible();

  // Exchange records, newest first.
  await page.getByTestId('exchange-records-link').click();
  await expect.poll(() => hashPath(page)).toBe('/pages/blance_record/blance_record3');
  const orders = page.getByTestId('exchange-order');
  await expect(orders).toHaveCount(2);
  await expect(orders.nth(0).getByTestId('exchange-order-amounts')).toHaveText('199.4000 RAB → 99.2015 USDT');
  await expect(orders.nth(0)).toContainText(en.exchange.rabToUsdt);
  await expect(orders.nth(1).getByTestId('exchange-order-amounts')).toHaveText('100.0000 USDT → 199.4000 RAB');
  await expect(
    orders.nth(1).getByText(fill(en.exchange.feeSplit, { fee: '0.5000', fuel: '0.2000', usdt: '0.3000' }), { exact: true }),
  ).toBeVisible();

  // Back on the Assets tab the balances follow.
  await page.goto('/#/pages/my/my');
  await expect(page.getByTestId('total-assets')).toHaveText('999.2015USDT');
  await expect(page.getByTestId('balance-USDT').locator('.balance-main')).toHaveText('999.2015');
  await expect(page.getByTestId('balance-RAB').locator('.balance-main')).toHaveText('0.0000');
  expect(unexpected(errors)).toEqual([]);
});

test('transfer in Simplified Chinese: to a sub-account, then the records and the balance log on both sides', async ({
  page,
  request,
  members,
  fund,
}) => {
  const errors = collectErrors(page);
  const member = await members.create('transfer', { tradePassword: true });
  await fund(member.accountId, 'USDT', '500');
  const created = await request.post('/api/account/create_sub', {
    headers: { authorization: member.token },
    data: { nickname: '储蓄' },
  });
  const sub = ((await created.json()) as { data: { id: string } }).data;
  await prepareStorage(page, { credential: member.token, locale: 'zh-Hans' });

  await page.goto('/#/pages/my/my');
  await expect(page.getByTestId('balance-USDT').locator('.balance-main')).toHaveText('500.0000');
  await page.getByTestId('shortcut-withdraw5').click();
  await expect.poll(() => hashPath(page)).toBe('/pages/withdraw/withdraw5');
  await expect(page.getByTestId('transfer-from')).toContainText(member.nickname);
  await expect(page.getByTestId('transfer-to')).toContainText('储蓄');
  await expect(
    page.getByTestId('transfer-asset').getByText(fill(zhHans.money.available, { amount: '500.0000', asset: 'USDT' }), {
      exact: true,
    }),
  ).toBeVisible();

  // More than the balance, and five decimals, are refused on the spot.
  const amount = await amountInput(page);
  await amount.fill('500.0001');
  await page.getByTestId('trade-password-input').locator('input').fill(TRADE_PASSWORD);
  await page.getByTestId('transfer-submit').click();
  await expect(page.getByText(translate('zh-Hans', 'ledger.insufficient_balance', { asset: 'USDT' }))).toBeVisible();
  await amount.fill('1.00001');
  await expect(
    page.getByText(
      translate('zh-Hans', 'field_error', {
        field: fieldLabel('zh-Hans', 'amount'),
        reason: translate('zh-Hans', 'reason.amount_places'),
      }),
    ),
  ).toBeVisible();

  await amount.fill('120.5');
  // A double tap sends one transfer (the screen holds a second send; the key would make it a replay).
  let transferPosts = 0;
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().endsWith('/api/account/transfer')) transferPosts += 1;
  });
  await page.getByTestId('transfer-submit').dblclick();
  await expect(page.getByText(fill(zhHans.transfer.done, { amount: '120.5000', asset: 'USDT', name: '储蓄' }))).toBeVisible();
  await expect(
    page.getByTestId('transfer-asset').getByText(fill(zhHans.money.available, { amount: '379.5000', asset: 'USDT' }), {
      exact: true,
    }),
  ).toBeVisible();
  expect((await assetsOf(request, member.token)).USDT.available).toBe('379.5000');
  expect(transferPosts).toBe(1);

  await page.getByTestId('transfer-records-link').click();
  await expect.poll(() => hashPath(page)).toBe('/pages/withdraw_record/withdraw_record6');
  const transfers = page.getByTestId('transfer-item');
  await expect(transfers).toHaveCount(1);
  await expect(transfers.first()).toContainText(zhHans.transfer.out);
  await expect(transfers.first()).toContainText(fill(zhHans.transfer.toAccount, { name: '储蓄' }));
  await expect(transfers.first().getByTestId('transfer-amount')).toHaveText('-120.5000 USDT');

  // Balance log: newest first, with types, signed amounts and the balance after; filters by type and asset.
  await page.goto('/#/pages/blance_record/blance_record');
  const entries = page.getByTestId('balance-log-item');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText(zhHans.recordTypes.transfer_out);
  await expect(entries.nth(0).getByTestId('balance-log-amount')).toHaveText('-120.5000 USDT');
  await expect(
    entries.nth(0).getByText(fill(zhHans.records.balanceAfter, { amount: '379.5000', asset: 'USDT' }), { exact: true }),
  ).toBeVisible();
  await expect(entries.nth(1)).toContainText(zhHans.recordTypes.adjustment_credit);
  await expect(entries.nth(1).getByTestId('balance-log-amount')).toHaveText('+500.0000 USDT');
  await page.getByText(zhHans.records.allTypes, { exact: true }).click();
  await page.locator('.adm-selector-item', { hasText: zhHans.recordTypes.transfer_out }).click();
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText(zhHans.recordTypes.transfer_out);
  await page.locator('.adm-capsule-tabs-tab', { hasText: 'RAB' }).click();
  await expect(page.getByTestId('records-empty')).toContainText(zhHans.records.empty);
  await expect(entries).toHaveCount(0);

  // The sub-account sees the same transfer coming in.
  const switched = await request.post('/api/account/switch', {
    headers: { authorization: member.token },
    data: { accountId: sub.id },
  });
  expect((await switched.json()) as unknown).toMatchObject({ code: 200 });
  await page.goto('/#/pages/withdraw_record/withdraw_record6');
  await expect(transfers).toHaveCount(1);
  await expect(transfers.first()).toContainText(zhHans.transfer.in);
  await expect(transfers.first()).toContainText(fill(zhHans.transfer.fromAccount, { name: member.nickname }));
  await expect(transfers.first().getByTestId('transfer-amount')).toHaveText('+120.5000 USDT');
  await page.goto('/#/pages/my/my');
  await expect(page.getByTestId('account-in-use')).toContainText('储蓄');
  await expect(page.getByTestId('account-in-use')).toContainText(zhHans.accounts.sub);
  await expect(page.getByTestId('total-assets')).toHaveText('120.5000USDT');
  expect(unexpected(errors)).toEqual([]);
});

test('exchange in Japanese: a quote whose price moved is refused, the new quote shows, and the retry goes through', async ({
  page,
  request,
  members,
  fund,
}) => {
  const errors = collectErrors(page);
  const member = await members.create('stale', { tradePassword: true });
  await fund(member.accountId, 'USDT', '100');
  // The screen is first shown an older price (0.4) than the server's (0.5), without touching the
  // platform's settings, which other tests read at the same time.
  let stale = true;
  await page.route('**/api/exchange/index', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: { rabPriceUsdt: string } };
    if (stale) body.data.rabPriceUsdt = '0.4';
    await route.fulfill({ response, json: body });
  });
  await prepareStorage(page, { credential: member.token, locale: 'ja' });
  await page.goto('/#/pages/withdraw/withdraw6');
  await expect(page.getByTestId('exchange-price')).toHaveText(fill(ja.exchange.price, { price: '0.4' }));
  const amount = await amountInput(page);
  await amount.fill('10');
  // 10 USDT less a 0.05 USDT fee buy 9.95 / 0.4 = 24.875 RAB at the old price.
  await expect(page.getByTestId('quote-receive')).toHaveText('24.8750 RAB');
  stale = false;
  await page.getByTestId('trade-password-input').locator('input').fill(TRADE_PASSWORD);
  await page.getByTestId('exchange-submit').click();
  await expect(page.getByText(translate('ja', 'exchange.quote_stale', { price: '0.5' }))).toBeVisible();
  await expect(page.getByTestId('exchange-price')).toHaveText(fill(ja.exchange.price, { price: '0.5' }));
  await expect(page.getByTestId('quote-receive')).toHaveText('19.9000 RAB');
  expect((await assetsOf(request, member.token)).USDT.available).toBe('100.0000');

  await page.getByTestId('exchange-submit').click();
  await expect(page.getByText(fill(ja.exchange.done, { amount: '19.9000', asset: 'RAB' }))).toBeVisible();
  const after = await assetsOf(request, member.token);
  expect([after.USDT.available, after.RAB.available]).toEqual(['90.0000', '19.9000']);
  expect(unexpected(errors)).toEqual([]);
});

test('a visitor opening the Assets tab is asked to log in', async ({ page }) => {
  await prepareStorage(page, { locale: 'en' });
  await page.goto('/#/pages/my/my');
  await expect(page.getByText(en.assets.visitorHint)).toBeVisible();
  await page.getByRole('button', { name: en.auth.login }).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/login/login');
});
