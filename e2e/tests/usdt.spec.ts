import type { UserAssets } from '@custos/contract';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import zhHans from '../../web/src/app/i18n/locales/zh-Hans.json' with { type: 'json' };
import { collectErrors, hashPath, prepareStorage } from '../support/app';
import { confirmDialog } from '../support/console';
import { depositUsdt, mineBlocks, usdtBalanceOf } from '../support/chain';
import { expect, test, TRADE_PASSWORD } from '../support/fixtures';

/**
 * USDT end to end on the dev chain (a real EVM node started by the global setup): a member deposits
 * to the address the app shows, sees it confirm and be credited, saves a withdrawal address, asks
 * for a withdrawal, an operator approves it in the console, the hot wallet pays it on chain, and the
 * member sees it completed.
 */

test.describe.configure({ timeout: 180_000 });

/** Errors a money screen is expected to cause: the server's 400/409 refusals. */
function unexpected(errors: string[]): string[] {
  return errors.filter((error) => !/status of (400|409)/.test(error));
}

test('recharge in Chinese: the address as text and QR, the notice, a deposit confirming then credited', async ({
  page,
  members,
}) => {
  const errors = collectErrors(page);
  const member = await members.create('recharge-zh', { tradePassword: true });
  await prepareStorage(page, { credential: member.token, locale: 'zh-Hans' });
  await page.goto('/#/pages/withdraw/withdraw1');
  const address = (await page.getByTestId('recharge-address').textContent())!.trim() as Address;
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('recharge-qr')).toBeVisible();
  await expect(page.getByTestId('recharge-network-closed-TRC20')).toBeVisible();
  await expect(page.getByTestId('recharge-confirmations')).toHaveText(
    zhHans.recharge.confirmationsNotice.replace('{{confirmations}}', '3'),
  );

  // A deposit below the minimum is recorded and never credited; a proper one is credited at 3 confirmations.
  await depositUsdt(address, '0.5');
  await depositUsdt(address, '25.75');
  await page.getByTestId('recharge-records-link').click();
  await expect.poll(() => hashPath(page)).toBe('/pages/withdraw_record/withdraw_record1');
  const rows = page.getByTestId('deposit-item');
  await expect(async () => {
    await page.reload();
    await expect(rows).toHaveCount(2, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const proper = rows.filter({ hasText: '25.75' }).getByTestId('deposit-status');
  await expect(proper).toHaveAttribute('data-status', 'confirming');
  await mineBlocks(3);
  await expect(async () => {
    await page.reload();
    await expect(page.locator('[data-testid="deposit-status"][data-status="credited"]')).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.locator('[data-testid="deposit-status"][data-status="below_minimum"]')).toHaveText(
    zhHans.recharge.status.below_minimum,
  );
  await page.goto('/#/pages/my/my');
  await expect(page.getByTestId('balance-USDT').locator('.balance-main')).toHaveText('25.7500');
  expect(unexpected(errors)).toEqual([]);
});

test('deposit, withdraw to a saved address, operator approval in the console, paid on chain, completed (English)', async ({
  page,
  request,
  members,
  operators,
  openConsole,
}) => {
  const errors = collectErrors(page);
  const member = await members.create('usdt-flow', { tradePassword: true });
  await prepareStorage(page, { credential: member.token, locale: 'en' });

  // Recharge: the app's address receives 120 USDT on chain and the watcher credits it.
  await page.goto('/#/pages/withdraw/withdraw1');
  const depositAddress = (await page.getByTestId('recharge-address').textContent())!.trim() as Address;
  await depositUsdt(depositAddress, '120');
  await mineBlocks(3);
  await page.goto('/#/pages/withdraw_record/withdraw_record1');
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('deposit-status').first()).toHaveAttribute('data-status', 'credited', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId('deposit-status').first()).toHaveText(en.recharge.status.credited);

  // Add a withdrawal method: a wrong-network address is refused in the app, the right one is saved.
  const payee = privateKeyToAddress(generatePrivateKey());
  await page.goto('/#/pages/withdraw/withdraw3');
  // BEP20 is chosen already; tapping it again must not clear it.
  await page.getByTestId('withdraw-crypto-network-BEP20').click();
  await page.getByTestId('withdraw-crypto-address').locator('input').fill('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  await page.getByTestId('withdraw-crypto-submit').click();
  await expect(page.getByText(/not a valid address/)).toBeVisible();
  await page.getByTestId('withdraw-crypto-address').locator('input').fill(payee);
  await page.getByTestId('withdraw-crypto-submit').click();
  await expect.poll(() => hashPath(page)).not.toBe('/pages/withdraw/withdraw3');

  // Withdraw 100: fee 1, 99 arrives; the amount is held at once.
  await page.goto('/#/pages/withdraw/withdraw');
  await expect(page.getByTestId('withdraw-balance')).toHaveText('120.0000 USDT');
  // Tapping the only method (twice, as people do) leaves it chosen.
  await page.getByTestId('withdraw-method-option').first().click();
  await page.getByTestId('withdraw-method-option').first().click();
  await page.getByTestId('amount-input').locator('input').fill('100');
  await expect(page.getByTestId('withdraw-fee')).toHaveText('1.0000 USDT');
  await expect(page.getByTestId('withdraw-receive')).toHaveText('99.0000 USDT');
  await page.getByTestId('trade-password-input').locator('input').fill(TRADE_PASSWORD);
  await page.getByTestId('withdraw-submit').click();
  await expect.poll(() => hashPath(page), { timeout: 15_000 }).toMatch(/withdraw_record/);
  await page.goto('/#/pages/withdraw_record/withdraw_record');
  await expect(page.getByTestId('withdrawal-status').first()).toHaveAttribute('data-status', 'pending');
  await expect(page.getByTestId('withdrawal-status').first()).toHaveText(en.withdraw.status.pending);
  // 100 of the 120 are held for the withdrawal: 20 stay available.
  const held = await request.get('/api/user/assets', { headers: { authorization: member.token } });
  expect(((await held.json()) as { data: UserAssets }).data.USDT).toMatchObject({
    available: '20.0000',
    held: '100.0000',
  });
  await page.goto('/#/pages/my/my');
  await expect(page.getByTestId('balance-USDT').locator('.balance-main')).toHaveText('20.0000');
  await page.goto('/#/pages/withdraw_record/withdraw_record');

  // The operator approves in the console: the hot wallet signs and broadcasts the payout.
  const console = await openConsole(await operators.create('finance'), { viewport: { width: 1400, height: 900 } });
  await console.goto('/admin/#/chain/withdrawals');
  await console.getByTestId('withdrawal-search').locator('input').fill(member.email);
  await console.keyboard.press('Enter');
  const row = console.getByTestId('withdrawal-row').filter({ hasText: member.email });
  await expect(row).toHaveCount(1);
  // A new member's first withdrawal right after a deposit: the console says so.
  await expect(row.locator('[data-testid="withdrawal-risk"][data-risk="first_withdrawal"]')).toBeVisible();
  await expect(row.locator('[data-testid="withdrawal-risk"][data-risk="recent_deposit"]')).toBeVisible();
  await row.getByTestId('withdrawal-approve').click();
  expect(await confirmDialog(console, 'Approve withdrawal', 'Approve', '/approve')).toMatchObject({ code: 200 });
  // It leaves the pending queue; under "Processing" it waits for its confirmations.
  await expect(row).toHaveCount(0);
  await console.getByTestId('withdrawal-status-filter').getByText('Processing', { exact: true }).click();
  await expect(row.getByTestId('withdrawal-status')).toHaveAttribute('data-status', 'processing');
  await expect(row.getByTestId('withdrawal-tx')).toContainText(/0x[0-9a-f]{4}/);

  // Confirmations on chain; the tracker completes it; exactly what the record promised arrives.
  await mineBlocks(3);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('withdrawal-status').first()).toHaveAttribute('data-status', 'success', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId('withdrawal-status').first()).toHaveText(en.withdraw.status.success);
  expect(await usdtBalanceOf(payee)).toBe(99n * 10n ** 18n);
  await page.getByTestId('withdrawal-item').first().click();
  await expect(page.getByTestId('withdrawal-detail-tx')).toHaveAttribute('href', /bscscan\.com\/tx\/0x[0-9a-f]{64}/);
  await console.reload();
  await console.close();
  expect(unexpected(errors)).toEqual([]);
});
