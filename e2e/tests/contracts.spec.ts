import type { Page } from '@playwright/test';
import { translate, type Locale } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import ja from '../../web/src/app/i18n/locales/ja.json' with { type: 'json' };
import { hashPath } from '../support/app';
import { createContractProduct, openOrderViaApi, quote } from '../support/contracts';
import { expect, test } from '../support/fixtures';
import { goWithin, openMemberApp } from '../support/otc';

/**
 * Contract orders in the member app (issue 15, decisions 034 and 035), in two languages: a member
 * opens a buy and a sell on a product of the test's own, watches both orders' floating P&L follow the
 * quotes pushed through the operator's quote call (the real tick path, streamed to the app), closes
 * the buy, sees the sell close at its take-profit, and finds both in blance_record12. Every figure is
 * worked by hand: contract size 100 000, 0.10 lots (10 000 units), leverage 100, quoted in USD.
 */
type Catalogue = typeof en;

const CASES: { locale: Locale; L: Catalogue }[] = [
  { locale: 'en', L: en },
  { locale: 'ja', L: ja },
];

const fill = (text: string, values: Record<string, string>) =>
  Object.entries(values).reduce((result, [key, value]) => result.replace(`{{${key}}}`, value), text);

/** An order's answer to the call a sheet's button sends. */
async function answerOf(
  page: Page,
  path: string,
  click: () => Promise<void>,
): Promise<{ code: number; data: { orderNo: string } }> {
  const answered = page.waitForResponse(
    (response) => new URL(response.url()).pathname === path && response.request().method() === 'POST',
  );
  await click();
  return (await (await answered).json()) as { code: number; data: { orderNo: string } };
}

for (const { locale, L } of CASES) {
  test(`contracts in ${locale}: open a buy and a sell, live P&L, close one, take-profit on the other, both in blance_record12`, async ({
    browser,
    request,
    members,
    operators,
    fund,
  }) => {
    test.setTimeout(180_000);
    const member = await members.create('contracts');
    await fund(member.accountId, 'USDT', '1000');
    const product = await createContractProduct(request, await operators.create('finance'), await operators.create('finance'));
    await quote(request, product, '1.10000', '1.10020');

    const { page, errors } = await openMemberApp(browser, member, locale, '/pages/index/index1?segment=contracts');
    await expect(page.getByTestId('contracts-market')).toBeVisible();
    await expect(page.getByTestId('contracts-free-margin')).toHaveText('1,000.0000 USDT');
    const card = page.locator(`[data-testid="contract-product"][data-symbol="${product.symbol}"]`);
    await expect(card.getByTestId('contract-bid')).toHaveText('1.10000');
    await expect(card.getByTestId('contract-ask')).toHaveText('1.10020');
    await expect(card.getByTestId('contract-spread')).toHaveText('20');

    // ── A buy, with bad input first: lots off the limits, a take-profit below the price.
    await card.getByTestId('contract-buy').click();
    const sheet = page.getByTestId('contract-open-sheet');
    await expect(sheet).toHaveAttribute('data-side', 'buy');
    await expect(sheet.getByTestId('contract-open-price')).toHaveText('1.10020');
    const lots = sheet.getByTestId('contract-open-lots').locator('input');
    await lots.fill('20');
    await expect(sheet.getByText(translate(locale, 'contracts.lots_out_of_range', { min: '0.01', max: '10' }))).toBeVisible();
    await lots.fill('0.005');
    await expect(
      sheet.getByText(
        translate(locale, 'field_error', { field: translate(locale, 'field.lots'), reason: translate(locale, 'reason.lots') }),
      ),
    ).toBeVisible();
    await lots.fill('0.10');
    const takeProfit = sheet.getByTestId('contract-open-tp').locator('input');
    await takeProfit.fill('1.09000');
    await expect(sheet.getByText(translate(locale, 'contracts.take_profit_wrong_side'))).toBeVisible();
    await takeProfit.fill('');
    await expect(sheet.getByText(translate(locale, 'contracts.take_profit_wrong_side'))).toHaveCount(0);
    // 0.10 × 100 000 × 1.10020 ÷ 100 = 110.02 held; the spread 10 000 × 0.00020 = 2; 1 000 − 110.02 left.
    await expect(sheet.getByTestId('contract-open-margin')).toHaveText('110.0200 USDT');
    await expect(sheet.getByTestId('contract-open-spread-cost')).toHaveText('2.0000 USDT');
    await expect(sheet.getByTestId('contract-open-free-after')).toHaveText('889.9800 USDT');
    await quote(request, product, '1.10000', '1.10020');
    const bought = await answerOf(page, '/api/contracts/open', () => sheet.getByTestId('contract-open-submit').click());
    expect(bought.code).toBe(200);
    await expect(sheet).toBeHidden();
    const buy = page.locator(`[data-testid="contract-open-order"][data-order-no="${bought.data.orderNo}"]`);
    await expect(buy.getByTestId('contract-order-open-price')).toHaveText('1.10020');
    await expect(buy.getByTestId('contract-order-margin')).toHaveText('110.0200');
    await expect(page.getByTestId('contracts-free-margin')).toHaveText('889.9800 USDT');

    // ── A sell at the bid with a take-profit below the ask.
    await quote(request, product, '1.10000', '1.10020');
    await card.getByTestId('contract-sell').click();
    await expect(sheet).toHaveAttribute('data-side', 'sell');
    await expect(sheet.getByTestId('contract-open-price')).toHaveText('1.10000');
    await sheet.getByTestId('contract-open-lots').locator('input').fill('0.1');
    await sheet.getByTestId('contract-open-tp').locator('input').fill('1.09500');
    await expect(sheet.getByTestId('contract-open-margin')).toHaveText('110.0000 USDT');
    const sold = await answerOf(page, '/api/contracts/open', () => sheet.getByTestId('contract-open-submit').click());
    expect(sold.code).toBe(200);
    await expect(sheet).toBeHidden();
    const sell = page.locator(`[data-testid="contract-open-order"][data-order-no="${sold.data.orderNo}"]`);
    await expect(sell.getByTestId('contract-order-tp')).toHaveText('1.09500');
    await expect(page.getByTestId('contracts-used-margin')).toHaveText('220.0200');

    // ── The price moves: both P&Ls follow the streamed quote without a reload.
    // Buy closes at the bid: (1.10100 − 1.10020) × 10 000 = +8; sell at the ask: (1.10000 − 1.10120) × 10 000 = −12.
    await quote(request, product, '1.10100', '1.10120');
    await expect(card.getByTestId('contract-bid')).toHaveText('1.10100');
    await expect(buy.getByTestId('contract-order-pnl')).toHaveText('+8.0000');
    await expect(buy.getByTestId('contract-order-current-price')).toHaveText('1.10100');
    await expect(sell.getByTestId('contract-order-pnl')).toHaveText('-12.0000');
    await expect(sell.getByTestId('contract-order-current-price')).toHaveText('1.10120');
    await expect(page.getByTestId('contracts-floating-pnl')).toHaveText('-4.0000');

    // ── Close the buy at the bid: +8 realised, its margin back.
    await buy.getByTestId('contract-order-close').click();
    const closeSheet = page.getByTestId('contract-close-sheet');
    await expect(closeSheet.getByTestId('contract-close-price')).toHaveText('1.10100');
    await expect(closeSheet.getByTestId('contract-close-estimate')).toHaveText('+8.0000 USDT');
    const closed = await answerOf(page, '/api/contracts/close', () => closeSheet.getByTestId('contract-close-submit').click());
    expect(closed.code).toBe(200);
    await expect(closeSheet).toBeHidden();
    await expect(buy).toHaveCount(0);
    // 889.98 + 110.02 − 110.00 (the sell) + 8 = 898.00
    await expect(page.getByTestId('contracts-free-margin')).toHaveText('898.0000 USDT');

    // ── The ask reaches the sell's take-profit: the platform closes it (a live event), at 1.09500.
    // (1.10000 − 1.09500) × 10 000 = +50.
    await quote(request, product, '1.09480', '1.09500');
    await expect(page.getByText(fill(L.contracts.live.take_profit, { no: sold.data.orderNo }))).toBeVisible();
    await expect(sell).toHaveCount(0);
    await expect(page.getByTestId('contracts-open-count')).toHaveText('0');
    await expect(page.getByTestId('contracts-free-margin')).toHaveText('1,058.0000 USDT');

    // ── blance_record12: both, closed, with how and at what.
    await page.getByTestId('contracts-records').click();
    await expect.poll(() => hashPath(page)).toBe('/pages/blance_record/blance_record12');
    await page.getByTestId('contract-records-tab-closed').click();
    const closedBuy = page.locator(`[data-testid="contract-closed-order"][data-order-no="${bought.data.orderNo}"]`);
    const closedSell = page.locator(`[data-testid="contract-closed-order"][data-order-no="${sold.data.orderNo}"]`);
    await expect(closedBuy.getByTestId('contract-order-side')).toHaveText(L.contracts.sides.buy);
    await expect(closedBuy.getByTestId('contract-order-close-reason')).toHaveText(L.contracts.closeReasons.member);
    await expect(closedBuy.getByTestId('contract-order-open-price')).toHaveText('1.10020');
    await expect(closedBuy.getByTestId('contract-order-close-price')).toHaveText('1.10100');
    await expect(closedBuy.getByTestId('contract-order-lots')).toHaveText('0.1');
    await expect(closedBuy.getByTestId('contract-order-margin')).toHaveText('110.0200');
    await expect(closedBuy.getByTestId('contract-order-spread')).toHaveText('2.0000');
    await expect(closedBuy.getByTestId('contract-order-leverage')).toHaveText(
      fill(L.contracts.order.leverageValue, { leverage: '100' }),
    );
    await expect(closedBuy.getByTestId('contract-order-pnl')).toHaveText('+8.0000');
    await expect(closedSell.getByTestId('contract-order-side')).toHaveText(L.contracts.sides.sell);
    await expect(closedSell.getByTestId('contract-order-close-reason')).toHaveText(L.contracts.closeReasons.take_profit);
    await expect(closedSell.getByTestId('contract-order-open-price')).toHaveText('1.10000');
    await expect(closedSell.getByTestId('contract-order-close-price')).toHaveText('1.09500');
    await expect(closedSell.getByTestId('contract-order-pnl')).toHaveText('+50.0000');
    await page.getByTestId('contract-records-tab-open').click();
    await expect(page.getByTestId('contract-records-open')).toContainText(L.contracts.noOpenOrders);

    // Back on the Trade tab, the contracts segment is kept in the address.
    await goWithin(page, '/pages/index/index1?segment=contracts');
    await expect(page.getByTestId('contracts-market')).toBeVisible();
    expect(errors).toEqual([]);
  });
}

test('contracts: not enough margin is refused before sending; targets edited; a partial close; the stop-loss closes the rest', async ({
  browser,
  request,
  members,
  operators,
  fund,
}) => {
  test.setTimeout(180_000);
  const L = en;
  const member = await members.create('contracts-partial');
  await fund(member.accountId, 'USDT', '200');
  const product = await createContractProduct(request, await operators.create('finance'), await operators.create('finance'));
  await quote(request, product, '1.10000', '1.10020');
  const order = await openOrderViaApi(request, member, { productId: product.id, side: 'buy', lots: '0.10', leverage: 100 });

  const { page, errors } = await openMemberApp(browser, member, 'en', '/pages/index/index1?segment=contracts');
  await expect(page.getByTestId('contracts-free-margin')).toHaveText('89.9800 USDT');
  const card = page.locator(`[data-testid="contract-product"][data-symbol="${product.symbol}"]`);

  // 2 lots would hold 2 × 100 000 × 1.10020 ÷ 100 = 2 200.40, more than the 89.98 free: said, and not sendable.
  await card.getByTestId('contract-buy').click();
  const sheet = page.getByTestId('contract-open-sheet');
  await sheet.getByTestId('contract-open-lots').locator('input').fill('2');
  await expect(sheet.getByTestId('contract-open-margin-problem')).toHaveText(
    translate('en', 'contracts.insufficient_margin', { required: '2,200.4000', available: '89.9800' }),
  );
  await expect(sheet.getByTestId('contract-open-submit')).toBeDisabled();
  await page.reload();
  await expect(page.getByTestId('contracts-market')).toBeVisible();

  // Targets: a take-profit below the bid is refused; then 1.11000 and a stop-loss at 1.09500.
  const open = page.locator(`[data-testid="contract-open-order"][data-order-no="${order.orderNo}"]`);
  await open.getByTestId('contract-order-edit-targets').click();
  const targets = page.getByTestId('contract-targets-sheet');
  await expect(targets.getByTestId('contract-targets-price')).toHaveText('1.10000');
  await targets.getByTestId('contract-targets-tp').locator('input').fill('1.09000');
  await expect(targets.getByText(translate('en', 'contracts.take_profit_wrong_side'))).toBeVisible();
  await targets.getByTestId('contract-targets-tp').locator('input').fill('1.11000');
  await targets.getByTestId('contract-targets-sl').locator('input').fill('1.09500');
  const saved = await answerOf(page, '/api/contracts/set_targets', () => targets.getByTestId('contract-targets-save').click());
  expect(saved.code).toBe(200);
  await expect(targets).toBeHidden();
  await expect(open.getByTestId('contract-order-tp')).toHaveText('1.11000');
  await expect(open.getByTestId('contract-order-sl')).toHaveText('1.09500');

  // Close 0.04 of the 0.10 lots at the bid: (1.10100 − 1.10020) × 4 000 = +3.20; the part takes 4/10 of the margin.
  await quote(request, product, '1.10100', '1.10120');
  await expect(open.getByTestId('contract-order-pnl')).toHaveText('+8.0000');
  await open.getByTestId('contract-order-close').click();
  const closeSheet = page.getByTestId('contract-close-sheet');
  const closeLots = closeSheet.getByTestId('contract-close-lots').locator('input');
  await closeLots.fill('0.095');
  await expect(
    closeSheet.getByText(
      translate('en', 'field_error', { field: translate('en', 'field.lots'), reason: translate('en', 'reason.lots') }),
    ),
  ).toBeVisible();
  await closeLots.fill('0.2');
  await expect(closeSheet.getByText(translate('en', 'contracts.close_lots_too_large', { lots: '0.1' }))).toBeVisible();
  await closeLots.fill('0.04');
  await expect(closeSheet.getByTestId('contract-close-estimate')).toHaveText('+3.2000 USDT');
  const partly = await answerOf(page, '/api/contracts/close', () => closeSheet.getByTestId('contract-close-submit').click());
  expect(partly.code).toBe(200);
  await expect(closeSheet).toBeHidden();
  await expect(page.getByText(fill(L.contracts.close.partly, { no: order.orderNo, lots: '0.04' }))).toBeVisible();
  await expect(open.getByTestId('contract-order-lots')).toHaveText('0.06');
  await expect(open.getByTestId('contract-order-margin')).toHaveText('66.0120');
  // 89.98 + 44.008 (the part's margin back) + 3.20
  await expect(page.getByTestId('contracts-free-margin')).toHaveText('137.1880 USDT');

  // The bid falls to the stop-loss: the rest closes at 1.09500, (1.09500 − 1.10020) × 6 000 = −31.20 (the margin
  // level stays above the stop-out level: it is the stop-loss that closes it).
  await quote(request, product, '1.09500', '1.09520');
  await expect(page.getByText(fill(L.contracts.live.stop_loss, { no: order.orderNo }))).toBeVisible();
  await expect(open).toHaveCount(0);
  // 137.188 + 66.012 − 31.20
  await expect(page.getByTestId('contracts-free-margin')).toHaveText('172.0000 USDT');

  await goWithin(page, '/pages/blance_record/blance_record12?state=closed');
  const rest = page.locator(`[data-testid="contract-closed-order"][data-order-no="${order.orderNo}"]`);
  await expect(rest.getByTestId('contract-order-close-reason')).toHaveText(L.contracts.closeReasons.stop_loss);
  await expect(rest.getByTestId('contract-order-close-price')).toHaveText('1.09500');
  await expect(rest.getByTestId('contract-order-lots')).toHaveText('0.06');
  await expect(rest.getByTestId('contract-order-pnl')).toHaveText('-31.2000');
  const part = page.locator('[data-testid="contract-closed-order"]').filter({
    has: page.getByTestId('contract-order-parent').getByText(fill(L.contracts.order.partOf, { no: order.orderNo })),
  });
  await expect(part.getByTestId('contract-order-close-reason')).toHaveText(L.contracts.closeReasons.member);
  await expect(part.getByTestId('contract-order-lots')).toHaveText('0.04');
  await expect(part.getByTestId('contract-order-margin')).toHaveText('44.0080');
  await expect(part.getByTestId('contract-order-close-price')).toHaveText('1.10100');
  await expect(part.getByTestId('contract-order-pnl')).toHaveText('+3.2000');
  expect(errors).toEqual([]);
});
