import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import { createContractProduct, openOrderViaApi, quote } from '../support/contracts';
import { expect, test } from '../support/fixtures';
import { goWithin, openMemberApp } from '../support/otc';

/**
 * A stop-out on the running server (decision 034): the operator's quote call alone moves the price,
 * the watcher it wakes finds the margin level below the stop-out level and closes the order, the
 * member app hears of it live, and the server goes on answering every request. Contract size
 * 100 000, 0.20 lots (20 000 units), leverage 100, quoted in USD.
 */
test('contracts: a quote that takes the margin level below the stop-out level stops the order out, live', async ({
  browser,
  request,
  members,
  operators,
  fund,
}) => {
  test.setTimeout(120_000);
  const L = en;
  const member = await members.create('contracts-stop-out');
  await fund(member.accountId, 'USDT', '1000');
  const product = await createContractProduct(request, await operators.create('finance'), await operators.create('finance'));
  await quote(request, product, '1.10000', '1.10020');
  const order = await openOrderViaApi(request, member, { productId: product.id, side: 'buy', lots: '0.20', leverage: 100 });

  const { page, errors } = await openMemberApp(browser, member, 'en', '/pages/index/index1?segment=contracts');
  // 0.20 × 100 000 × 1.10020 ÷ 100 = 220.04 held.
  await expect(page.getByTestId('contracts-used-margin')).toHaveText('220.0400');
  await expect(page.getByTestId('contracts-free-margin')).toHaveText('779.9600 USDT');

  // Bid 1.08990: (1.08990 − 1.10020) × 20 000 = −206; equity 14.04, 6.38 % of the margin (< 50 %).
  await quote(request, product, '1.08990', '1.09000');
  await expect(page.getByText(L.contracts.live.stop_out.replace('{{no}}', order.orderNo))).toBeVisible();
  await expect(page.getByTestId('contracts-open-count')).toHaveText('0');
  // 779.96 + 220.04 − 206
  await expect(page.getByTestId('contracts-free-margin')).toHaveText('794.0000 USDT');

  // The server still answers: the member's lists through the API, and the app's closed orders.
  const headers = { authorization: member.token };
  const pending = (await (await request.get('/api/contracts/pending_list', { headers })).json()) as {
    code: number;
    data: { items: unknown[] };
  };
  expect(pending).toMatchObject({ code: 200, data: { items: [] } });
  const closed = (await (await request.get('/api/contracts/closed_list', { headers })).json()) as {
    code: number;
    data: { items: { orderNo: string; closeReason: string; pnl: string }[] };
  };
  expect(closed.code).toBe(200);
  expect(closed.data.items).toEqual([
    expect.objectContaining({ orderNo: order.orderNo, closeReason: 'stop_out', pnl: '-206.0000' }),
  ]);
  await goWithin(page, '/pages/blance_record/blance_record12?state=closed');
  const stopped = page.locator(`[data-testid="contract-closed-order"][data-order-no="${order.orderNo}"]`);
  await expect(stopped.getByTestId('contract-order-close-reason')).toHaveText(L.contracts.closeReasons.stop_out);
  await expect(stopped.getByTestId('contract-order-close-price')).toHaveText('1.08990');
  await expect(stopped.getByTestId('contract-order-pnl')).toHaveText('-206.0000');
  expect(errors).toEqual([]);
});
