import { fieldLabel, translate, type ContractSettings } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import { confirmDialog, openConsolePage } from '../support/console';
import { createContractProduct, openOrderViaApi, quote } from '../support/contracts';
import { expect, test } from '../support/fixtures';
import { withPlatformLock } from '../support/locks';
import { openMemberApp } from '../support/otc';

/**
 * The operator's side of contracts (issue 15, decision 035): the book shows a member's exposure on a
 * product, and an operator closes the member's order at market with a reason, which the member finds
 * in blance_record12 with the reason and "closed by the platform". The member, the product and the
 * operators are the test's own.
 */
test('an operator closes a member’s contract order with a reason; the member sees it closed by the platform', async ({
  browser,
  request,
  members,
  operators,
  openConsole,
  fund,
}) => {
  test.setTimeout(150_000);
  const member = await members.create('contracts-console');
  await fund(member.accountId, 'USDT', '500');
  const finance = await operators.create('finance');
  const product = await createContractProduct(request, finance);
  await quote(request, product, '1.20000', '1.20010');
  const order = await openOrderViaApi(request, member, { productId: product.id, side: 'buy', lots: '0.05', leverage: 100 });

  const console = await openConsole(finance);
  // The book: the member is long 0.05 lots of the product.
  await openConsolePage(console, 'Contract book', /Contracts/);
  const exposure = console.locator(`[data-testid="contract-exposure-row"][data-symbol="${product.symbol}"]`);
  await expect(exposure.getByTestId('contract-exposure-net')).toHaveText('0.05');

  // The orders list, found by the member's e-mail; the price moved: (1.20200 − 1.20010) × 5 000 = +9.5.
  await quote(request, product, '1.20200', '1.20210');
  await openConsolePage(console, 'Contract orders', /Contracts/);
  await console.getByTestId('contract-orders-search').locator('input').fill(member.email);
  await console.getByTestId('contract-orders-search').getByRole('button', { name: 'Search' }).click();
  const row = console.locator(`[data-testid="contract-order-row"][data-order-no="${order.orderNo}"]`);
  await expect(row.getByTestId('contract-order-row-state')).toHaveText('open');
  await expect(row.getByTestId('contract-order-row-pnl')).toHaveText('+9.5000');

  // Close it with a reason: the confirmation names the order; the answer is the closed order.
  const reason = 'Account under review: positions closed by risk control';
  await row.getByTestId('contract-order-close').click();
  const dialog = console.getByRole('dialog', { name: "Close the member's order" });
  await expect(dialog).toContainText(order.orderNo);
  await dialog.getByTestId('contract-order-close-reason').fill(reason);
  const answer = await confirmDialog(console, "Close the member's order", 'Close order', `/api/admin/contracts/orders/`);
  expect(answer).toEqual({ status: 200, code: 200, message: translate('en', 'ok') });
  await expect(row.getByTestId('contract-order-row-state')).toHaveText('closed · Operator');
  await expect(row.getByTestId('contract-order-row-note')).toHaveText(reason);
  await expect(row.getByTestId('contract-order-row-pnl')).toHaveText('+9.5000');

  // The member's closed list shows it, closed by the platform, with the reason.
  const { page, errors } = await openMemberApp(browser, member, 'en', '/pages/blance_record/blance_record12?state=closed');
  const closed = page.locator(`[data-testid="contract-closed-order"][data-order-no="${order.orderNo}"]`);
  await expect(closed.getByTestId('contract-order-close-reason')).toHaveText(en.contracts.closeReasons.operator);
  await expect(closed.getByTestId('contract-order-close-note')).toHaveText(reason);
  await expect(closed.getByTestId('contract-order-close-price')).toHaveText('1.20200');
  await expect(closed.getByTestId('contract-order-pnl')).toHaveText('+9.5000');
  expect(errors).toEqual([]);
});

test('an operator changes the stop-out level: a malformed level is refused in the server’s words, a good one confirmed and saved', async ({
  request,
  operators,
  openConsole,
}) => {
  const finance = await operators.create('finance');
  const page = await openConsole(finance);
  await openConsolePage(page, 'Contract settings', /Contracts/);
  const settings = page.getByTestId('contract-settings');
  const bearer = `Bearer ${finance.token}`;
  await withPlatformLock('contracts-settings', async () => {
    const read = async () =>
      (
        (await (await request.get('/api/admin/contracts/settings', { headers: { authorization: bearer } })).json()) as {
          data: ContractSettings;
        }
      ).data;
    const before = await read();
    await page.reload();
    await expect(settings.getByTestId('contract-stop-out')).toHaveValue(before.stopOutLevelPct);

    await settings.getByTestId('contract-stop-out').fill('40.123');
    await settings.getByTestId('contract-settings-save').click();
    await expect(settings.getByTestId('contract-settings-problem')).toHaveText(
      translate('en', 'field_error', { field: fieldLabel('en', 'stopOutLevelPct'), reason: translate('en', 'reason.level_pct') }),
    );
    expect(await read()).toEqual(before);

    const lowered = before.stopOutLevelPct === '45' ? '44' : '45';
    try {
      await settings.getByTestId('contract-stop-out').fill(lowered);
      await settings.getByTestId('contract-settings-save').click();
      await expect(page.getByTestId('contract-settings-changes')).toContainText(
        `Stop-out level (%): ${before.stopOutLevelPct} → ${lowered}`,
      );
      expect(await confirmDialog(page, 'Save the contract settings?', 'Save', '/api/admin/contracts/settings')).toMatchObject({
        code: 200,
      });
      await expect.poll(async () => (await read()).stopOutLevelPct).toBe(lowered);
    } finally {
      await request.put('/api/admin/contracts/settings', { headers: { authorization: bearer }, data: before });
    }
    expect(await read()).toEqual(before);
  });
});
