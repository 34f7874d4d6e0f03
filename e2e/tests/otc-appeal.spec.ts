import ko from '../../web/src/app/i18n/locales/ko.json' with { type: 'json' };
import { collectErrors, hashPath } from '../support/app';
import { confirmDialog, openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';
import { approveRealName, PHOTO_PNG } from '../support/identity';
import { withPlatformLock } from '../support/locks';
import { buyViaApi, confirmAppDialog, goWithin, openMemberApp, postSellListingViaApi } from '../support/otc';

const L = ko;

/**
 * Issue 14: an order that goes to appeal, in Korean. The buyer marks it paid, the seller does not
 * release; once the release window has passed (the server's clock is moved past it, so this runs in
 * the "advancing-clock" project, holding the clock's lock) the buyer appeals with evidence, both
 * apps show the order frozen, an operator rules in the console (reading the evidence), and the
 * ruling reaches both apps without a reload.
 */
test('OTC appeal in Korean: the buyer appeals after the release window, the order freezes for both, the console rules, the ruling reaches both live', async ({
  browser,
  request,
  members,
  operators,
  fund,
  openConsole,
}) => {
  test.setTimeout(240_000);
  const seller = await members.create('otc-appeal-seller', { tradePassword: true });
  const buyer = await members.create('otc-appeal-buyer');
  await approveRealName(request, seller, 'Seller Example');
  await approveRealName(request, buyer, 'Buyer Example');
  await fund(seller.accountId, 'USDT', '500');
  const arbiter = await operators.create('support');

  await withPlatformLock('server-clock', async () => {
    const listing = await postSellListingViaApi(request, seller, {
      quantity: '200',
      price: '7.2',
      minPerOrder: '10',
      maxPerOrder: '200',
    });
    const order = await buyViaApi(request, buyer, listing.id, '50');
    const path = `/pages/order_detail/order_detail?id=${order.id}`;
    const buyerApp = await openMemberApp(browser, buyer, 'ko', path);
    const sellerApp = await openMemberApp(browser, seller, 'ko', path);
    const b = buyerApp.page;
    const s = sellerApp.page;

    // The buyer marks it paid; no appeal yet while the seller's release window runs.
    await b.getByTestId('otc-confirm-pay').click();
    await confirmAppDialog(b, L.common.confirm);
    await expect(b.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'paid');
    await expect(s.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'paid');
    await expect(b.getByTestId('otc-appeal-later')).toBeVisible();
    await expect(b.getByTestId('otc-appeal')).toHaveCount(0);

    // The release window passes on the server's clock; the order, read again, offers the appeal.
    const moved = await request.post('/api/test/clock', { data: { advanceMs: 16 * 60_000 } });
    expect(((await moved.json()) as { code: number }).code).toBe(200);
    await goWithin(b, '/pages/blance_record/blance_record10');
    await b.locator(`[data-testid="otc-order-item"][data-order-id="${order.id}"]`).click();
    await expect.poll(() => hashPath(b)).toBe('/pages/order_detail/order_detail');
    await b.getByTestId('otc-appeal').click();

    const sheet = b.getByTestId('otc-appeal-sheet');
    await expect(sheet.getByTestId('otc-appeal-reason')).toContainText(L.otc.appeal.reasons.paid_not_released);
    await sheet
      .getByTestId('otc-appeal-description')
      .locator('textarea:not([readonly])')
      .fill('50 USDT 대금을 송금했지만 판매자가 릴리스하지 않습니다.');
    await sheet
      .getByTestId('otc-appeal-image-input')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PHOTO_PNG });
    await expect(sheet.getByTestId('otc-appeal-picked')).toHaveCount(1);
    await sheet.getByTestId('otc-appeal-submit').click();

    // Frozen for both: the buyer's screen and, live, the seller's; the evidence is on the order.
    await expect(b.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'appeal');
    await expect(b.getByTestId('otc-frozen')).toHaveText(L.otc.order.appealFrozen);
    await expect(b.getByTestId('otc-appeal-item')).toHaveAttribute('data-status', 'open');
    await expect(b.getByTestId('otc-evidence-image').locator('img')).toBeVisible();
    await expect(s.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'appeal');
    await expect(s.getByTestId('otc-frozen')).toBeVisible();
    await expect(s.getByTestId('otc-release')).toHaveCount(0);
    await expect(s.getByTestId('otc-appeal-item')).toContainText(L.otc.appeal.reasons.paid_not_released);

    // An operator opens the appeal from the console's queue, sees the buyer's evidence, and releases to
    // the buyer; both apps, open all along, follow live.
    const consolePage = await openConsole(arbiter);
    const consoleErrors = collectErrors(consolePage);
    await openConsolePage(consolePage, 'OTC appeals', /OTC$/);
    await consolePage
      .locator(`[data-testid="otc-appeal-row"][data-order-no="${order.orderNo}"]`)
      .getByTestId('otc-appeal-open')
      .click();
    await expect(consolePage.getByTestId('otc-order-no')).toHaveText(order.orderNo);
    await expect(consolePage.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'appeal');
    const appeal = consolePage.locator('[data-testid="otc-appeal"][data-by="buyer"]');
    await expect(appeal.getByTestId('otc-appeal-description')).toHaveText(
      '50 USDT 대금을 송금했지만 판매자가 릴리스하지 않습니다.',
    );
    await expect(appeal.locator('img[data-testid="otc-evidence-image"], [data-testid="otc-evidence-image"] img')).toHaveCount(1);
    await consolePage.getByTestId('otc-ruling-release').click();
    await consolePage.getByTestId('otc-ruling-note').fill('입금 내역을 확인했습니다.');
    await consolePage.getByTestId('otc-ruling-submit').click();
    expect(
      await confirmDialog(consolePage, 'Confirm the ruling', 'Rule', `/api/admin/otc/orders/${order.id}/rule`),
    ).toMatchObject({
      code: 200,
    });
    await expect(consolePage.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'completed');
    expect(consoleErrors).toEqual([]);
    for (const page of [b, s]) {
      await expect(page.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'completed');
      await expect(page.getByTestId('otc-appeal-item')).toHaveAttribute('data-status', 'ruled');
      await expect(page.getByTestId('otc-ruling')).toContainText(L.otc.appeal.rulings.release_to_buyer);
      await expect(page.getByTestId('otc-ruling')).toContainText('입금 내역을 확인했습니다.');
    }
    await expect(b.getByTestId('otc-order-receives')).toHaveText('50.0000 USDT');

    expect(buyerApp.errors).toEqual([]);
    expect(sellerApp.errors).toEqual([]);
  });
});
