import { expect, test } from '@playwright/test';
import { collectErrors } from '../support/app';

test('an operator logs in with the one-time password, must replace it, sees the overview and logs out', async ({ page }) => {
  const errors = collectErrors(page);
  const oneTimePassword = process.env.E2E_OPERATOR_PASSWORD;
  expect(oneTimePassword).toBeTruthy();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/');

  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('login-error')).toContainText('Wrong username or password');

  await page.getByLabel('Password').fill(oneTimePassword!);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Choose your password')).toBeVisible();

  await page.getByLabel('Current (one-time) password').fill(oneTimePassword!);
  await page.getByLabel('New password', { exact: true }).fill('correct horse battery staple');
  await page.getByLabel('Confirm new password').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Save password' }).click();

  await expect(page.getByTestId('operator-name')).toContainText('admin · super admin');
  await expect(page.getByTestId('health-status')).toHaveText('ok');
  await expect(page.getByText('Asia/Shanghai')).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('operator-name')).toBeVisible();

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  // The browser logs the refused wrong-password attempt as a failed resource; nothing else may fail.
  expect(errors.filter((error) => !/status of 401/.test(error))).toEqual([]);
});
