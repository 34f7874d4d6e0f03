import { randomInt } from 'node:crypto';
import { openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';

/**
 * The withdrawal settings' holiday calendar and payout wallets in the console: a finance operator adds
 * a holiday (a day far ahead, so no withdrawal window of the other tests is touched), sees it listed,
 * removes it; the payout wallets card lists the networks.
 */
test('a finance operator adds and removes a withdrawal holiday; the payout wallets are listed', async ({
  operators,
  openConsole,
}) => {
  const console = await openConsole(await operators.create('finance'));
  await openConsolePage(console, 'Withdrawal settings', /Chain$/);

  // A day of its own in 2090–2099, so repeated runs never add the same day.
  const day = new Date(Date.UTC(2090 + randomInt(10), 0, 1) + randomInt(365) * 86_400_000).toISOString().slice(0, 10);
  const holidays = console.getByTestId('withdraw-holidays');
  await holidays.getByTestId('holiday-date').fill(day);
  await holidays.getByTestId('holiday-note').fill('E2E holiday');
  const added = console.waitForResponse(
    (response) => response.url().includes('/holidays') && response.request().method() === 'POST',
  );
  await holidays.getByTestId('holiday-add').click();
  expect((await (await added).json()) as { code: number }).toMatchObject({ code: 200 });
  const row = holidays.locator(`[data-testid="holiday-row"][data-date="${day}"]`);
  await expect(row).toContainText('E2E holiday');

  await row.getByTestId('holiday-delete').click();
  const removed = console.waitForResponse(
    (response) => response.url().includes('/holidays') && response.request().method() === 'DELETE',
  );
  await console.getByRole('button', { name: 'Remove', exact: true }).last().click();
  expect((await (await removed).json()) as { code: number }).toMatchObject({ code: 200 });
  await expect(row).toHaveCount(0);

  await expect(console.getByTestId('hot-wallets').locator('[data-testid="hot-wallet-state"]').first()).toBeVisible();
});
