import { fieldLabel, translate, type ContractSettings } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import { confirmDialog, openConsolePage } from '../support/console';
import { createContractProduct, openOrderViaApi, quote } from '../support/contracts';
import { expect, test } from '../support/fixtures';
import { withPlatformLock } from '../support/locks';
import { openMemberApp } from '../support/otc';

const fill = (text: string, values: Record<string, string>) =>
  Object.entries(values).reduce((result, [key, value]) => result.replace(`{{${key}}}`, value), text);

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
  const product = await createContractProduct(request, finance, await operators.create('finance'));
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

test('an operator sets a product up for contracts and quotes it; members see it with its terms and price', async ({
  browser,
  request,
  members,
  operators,
  openConsole,
}) => {
  test.setTimeout(120_000);
  const finance = await operators.create('finance');
  const letters = Array.from(crypto.getRandomValues(new Uint8Array(5)), (byte) => 'ABCDEFGHJKLMNPQRSTUVWXYZ'[byte % 24]).join('');
  const symbol = `E2E${letters}/USD`;
  const created = await request.post('/api/admin/quotes/products', {
    headers: { authorization: `Bearer ${finance.token}` },
    data: { symbol, displayName: `E2E ${letters}`, sortOrder: 9000, enabled: true, source: 'manual' },
  });
  expect(((await created.json()) as { code: number }).code).toBe(200);

  const page = await openConsole(finance);
  await openConsolePage(page, 'Contract products', /Contracts/);
  const row = page.locator(`[data-testid="contract-product-row"][data-symbol="${symbol}"]`);
  await row.getByTestId('contract-product-edit').click();
  const form = page.getByTestId('contract-product-form');
  await form.getByTestId('contract-product-digits').fill('3');
  await form.getByTestId('contract-product-size').fill('1000');
  await form.getByTestId('contract-product-leverages').fill('100, 20');
  await form.getByTestId('contract-product-min-lots').fill('0.1');
  await form.getByTestId('contract-product-lot-step').fill('0.1');
  await form.getByTestId('contract-product-max-lots').fill('5');
  await form.getByTestId('contract-product-hours-3').fill('9 to 5');
  await form.getByTestId('contract-product-save').click();
  await expect(form.getByTestId('contract-product-problem')).toHaveText(
    translate('en', 'field_error', { field: fieldLabel('en', 'sessions'), reason: translate('en', 'reason.time_of_day') }),
  );
  await form.getByTestId('contract-product-hours-3').fill('00:00-24:00');
  await form.getByTestId('contract-product-save').click();
  await expect(page.getByTestId('contract-product-changes')).toContainText('Leverages offered: — → 20, 100');
  expect(await confirmDialog(page, `Set ${symbol} up for contracts?`, 'Save', '/api/admin/contracts/products/')).toMatchObject({
    code: 200,
  });

  // A manual quote: an ask below the bid is refused in the server's words; then a good one, rounded to
  // the product's three digits away from the member (bid down, ask up).
  await row.getByTestId('contract-product-quote-button').click();
  const dialog = page.getByRole('dialog', { name: `Quote ${symbol}` });
  await dialog.getByTestId('contract-quote-bid').fill('1.2345');
  await dialog.getByTestId('contract-quote-ask').fill('1.2340');
  await dialog.getByRole('button', { name: 'Send quote' }).click();
  await expect(dialog.getByTestId('contract-quote-problem')).toHaveText(
    translate('en', 'field_error', { field: fieldLabel('en', 'ask'), reason: translate('en', 'reason.bid_above_ask') }),
  );
  await dialog.getByTestId('contract-quote-ask').fill('1.2352');
  expect(await confirmDialog(page, `Quote ${symbol}`, 'Send quote', '/api/admin/contracts/products/')).toMatchObject({
    code: 200,
  });
  // A first price has no independent price to be measured against: it waits for a second operator
  // (decision 050), and its proposer cannot approve it.
  const proposal = page.locator(`[data-testid="quote-proposal-row"][data-symbol="${symbol}"]`);
  await expect(proposal.getByTestId('quote-proposal-quote')).toHaveText('1.2345 / 1.2352');
  await expect(proposal.getByTestId('quote-proposal-why')).toHaveText(
    'no recent feed, replay or approved price to measure it against',
  );
  await expect(proposal.getByTestId('quote-proposal-approve')).toBeDisabled();
  await expect(row.getByTestId('contract-product-quote')).toHaveText('— / —');
  const approver = await openConsole(await operators.create('finance'));
  await openConsolePage(approver, 'Contract products', /Contracts/);
  const waiting = approver.locator(`[data-testid="quote-proposal-row"][data-symbol="${symbol}"]`);
  await waiting.getByTestId('quote-proposal-note').fill('first price, checked');
  await waiting.getByTestId('quote-proposal-approve').click();
  await expect(waiting).toHaveCount(0);
  await expect(row.getByTestId('contract-product-quote')).toHaveText('1.234 / 1.236');

  const member = await members.create('contracts-product');
  const { page: app, errors } = await openMemberApp(browser, member, 'en', '/pages/index/index1?segment=contracts');
  const card = app.locator(`[data-testid="contract-product"][data-symbol="${symbol}"]`);
  await expect(card.getByTestId('contract-bid')).toHaveText('1.234');
  await expect(card.getByTestId('contract-ask')).toHaveText('1.236');
  await expect(card.getByTestId('contract-spread')).toHaveText('2');
  await expect(card).toContainText(fill(en.contracts.lotsRange, { min: '0.1', max: '5', step: '0.1' }));
  await expect(card).toContainText('20× / 100×');
  await expect(card.getByTestId('contract-hours')).toHaveText(`${en.contracts.hours}: ${en.contracts.hoursAlways}`);
  expect(errors).toEqual([]);
});
