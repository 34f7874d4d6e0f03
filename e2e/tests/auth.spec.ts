import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import ja from '../../web/src/app/i18n/locales/ja.json' with { type: 'json' };
import zhHans from '../../web/src/app/i18n/locales/zh-Hans.json' with { type: 'json' };
import { collectErrors, hashPath, prepareStorage } from '../support/app';
import { uniqueEmail, waitForCode } from '../support/mail';
import { invitationCode, registerViaApi } from '../support/members';

async function expectSignedInAtHome(page: Page): Promise<void> {
  await expect(page.getByTestId('tab-bar')).toBeVisible();
  expect(hashPath(page)).toBe('/pages/index/index');
  expect(await page.evaluate(() => localStorage.getItem('Authorization'))).toMatch(/^[A-Za-z0-9_-]{43}$/);
}

test('a visitor registers from a share link in English: invitation code prefilled, terms, e-mail code, password', async ({
  page,
}) => {
  const errors = collectErrors(page);
  const email = uniqueEmail('register');
  await prepareStorage(page, { locale: 'en' });
  await page.goto(`/#/pages/register/register?code=${invitationCode()}`);
  await expect(page.getByPlaceholder(en.auth.invitationCodePlaceholder)).toHaveValue(invitationCode());

  await page.getByRole('button', { name: en.auth.next }).click();
  await expect(page.getByText('please enter e-mail')).toBeVisible();
  await page.getByPlaceholder(en.auth.emailPlaceholder).fill(email);
  await page.getByRole('button', { name: en.auth.next }).click();
  await expect(page.getByText(en.auth.mustAgree)).toBeVisible();
  await page.getByTestId('agree-terms').click();
  await page.getByRole('button', { name: en.auth.next }).click();

  await expect.poll(() => hashPath(page)).toBe('/pages/register/verify_code');
  await expect(page.getByText(en.auth.codeSentTo.replace('{{email}}', email))).toBeVisible();
  await expect(page.getByTestId('resend-code')).toBeDisabled();
  await expect(page.getByTestId('resend-code')).toContainText(/Resend in \d+ s/);
  await page.getByPlaceholder(en.auth.codePlaceholder).fill('12345');
  await page.getByRole('button', { name: en.auth.next }).click();
  await expect(page.getByText('please enter the 6-digit code')).toBeVisible();
  const code = await waitForCode(email);
  await page.getByPlaceholder(en.auth.codePlaceholder).fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: en.auth.next }).click();
  await expect(page.getByText('The verification code is wrong or has expired')).toBeVisible();
  await page.getByPlaceholder(en.auth.codePlaceholder).fill(code);
  await page.getByRole('button', { name: en.auth.next }).click();

  await expect.poll(() => hashPath(page)).toBe('/pages/register/register1');
  await page.getByPlaceholder(en.auth.newPasswordPlaceholder).fill('12345');
  await page.getByPlaceholder(en.auth.confirmPasswordPlaceholder).fill('different');
  await page.getByRole('button', { name: en.auth.register }).click();
  await expect(page.getByText('at least 6 characters')).toBeVisible();
  await expect(page.getByText('the two passwords do not match')).toBeVisible();
  await page.getByPlaceholder(en.auth.newPasswordPlaceholder).fill('my-new-password');
  await page.getByPlaceholder(en.auth.confirmPasswordPlaceholder).fill('my-new-password');
  await page.getByRole('button', { name: en.auth.register }).click();

  await expectSignedInAtHome(page);
  await expect(page.getByText(en.auth.registered)).toBeVisible();
  expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
});

test('log-in with e-mail and password in English; a wrong password is refused with the server message', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('login');
  await registerViaApi(request, email, 'right-password');
  await prepareStorage(page, { locale: 'en' });
  await page.goto('/');
  // The log-in form's own checks (the contract's schema, the server's wording), tied to the field.
  const emailInput = page.getByPlaceholder(en.auth.emailPlaceholder);
  await page.getByRole('button', { name: en.auth.login, exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'please enter e-mail' })).toBeVisible();
  await expect(emailInput).toHaveAttribute('aria-invalid', 'true');
  await expect(emailInput).toBeFocused();
  await expect(page.getByRole('alert').filter({ hasText: 'please enter password' })).toBeVisible();
  await emailInput.fill('not-an-address');
  await expect(page.getByRole('alert').filter({ hasText: 'please enter a valid e-mail address' })).toBeVisible();
  await emailInput.fill(email);
  await expect(emailInput).not.toHaveAttribute('aria-invalid');
  await page.getByPlaceholder(en.auth.passwordPlaceholder).fill('wrong-password');
  await page.getByRole('button', { name: en.auth.login, exact: true }).click();
  await expect(page.getByText('Wrong e-mail or password')).toBeVisible();
  expect(hashPath(page)).toBe('/');
  expect(await page.evaluate(() => localStorage.getItem('Authorization'))).toBeNull();
  await page.getByPlaceholder(en.auth.passwordPlaceholder).fill('right-password');
  await page.getByRole('button', { name: en.auth.login, exact: true }).click();
  await expectSignedInAtHome(page);
});

test('passwordless log-in with an e-mail code in Simplified Chinese', async ({ page, request }) => {
  const email = uniqueEmail('codelogin');
  await registerViaApi(request, email, 'right-password');
  await prepareStorage(page, { locale: 'zh-Hans' });
  await page.goto('/');
  await page.getByRole('link', { name: zhHans.auth.codeLogin }).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/login/login1');
  await page.getByPlaceholder(zhHans.auth.emailPlaceholder).fill(email);
  await page.getByRole('button', { name: zhHans.auth.sendCode }).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/register/verify_code1');
  await page.getByPlaceholder(zhHans.auth.codePlaceholder).fill(await waitForCode(email, 2));
  await page.getByRole('button', { name: zhHans.auth.login }).click();
  await expectSignedInAtHome(page);
  await expect(page.getByTestId('tab-0')).toContainText(zhHans.tabs.home);
});

test('forgotten password in Japanese: e-mail, code, new password, then log in with it', async ({ page, request }) => {
  const email = uniqueEmail('forgot');
  await registerViaApi(request, email, 'old-password');
  await prepareStorage(page, { locale: 'ja' });
  await page.goto('/');
  await page.getByRole('link', { name: ja.auth.forgotPassword }).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/forget_pwd/forget_pwd');
  await page.getByPlaceholder(ja.auth.emailPlaceholder).fill(email);
  await page.getByRole('button', { name: ja.auth.sendCode }).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/forget_pwd/verify_code');
  await page.getByPlaceholder(ja.auth.codePlaceholder).fill(await waitForCode(email, 2));
  await page.getByRole('button', { name: ja.auth.next }).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/forget_pwd/forget_pwd1');
  await page.getByPlaceholder(ja.auth.newPasswordPlaceholder).fill('brand-new-password');
  await page.getByPlaceholder(ja.auth.confirmPasswordPlaceholder).fill('brand-new-password');
  await page.getByRole('button', { name: ja.auth.submit }).click();
  await expect(page.getByText(ja.auth.passwordReset)).toBeVisible();
  await expect.poll(() => hashPath(page)).toBe('/pages/login/login');

  await page.getByPlaceholder(ja.auth.emailPlaceholder).fill(email);
  await page.getByPlaceholder(ja.auth.passwordPlaceholder).fill('brand-new-password');
  await page.getByRole('button', { name: ja.auth.login, exact: true }).click();
  await expectSignedInAtHome(page);
});
