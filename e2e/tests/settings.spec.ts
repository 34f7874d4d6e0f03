import { expect, test } from '../support/fixtures';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import zhHans from '../../web/src/app/i18n/locales/zh-Hans.json' with { type: 'json' };
import { collectErrors, hashPath, prepareStorage } from '../support/app';
import { uniqueEmail, waitForCode } from '../support/mail';
import { loginViaApi, registerViaApi } from '../support/members';

test('trading password in English: set from the security centre, change with the old one, reset by e-mail code', async ({
  page,
  request,
}) => {
  const errors = collectErrors(page);
  const email = uniqueEmail('trade');
  await registerViaApi(request, email, 'login-password');
  await prepareStorage(page, { credential: await loginViaApi(request, email, 'login-password'), locale: 'en' });
  await page.goto('/#/pages/index/index');
  await page.getByTestId('open-settings').click();
  await page.getByText(en.settings.security).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/setting/setting2');
  await expect(page.getByTestId('trade-password-item')).toContainText(en.security.notSet);

  await page.getByTestId('trade-password-item').click();
  await expect.poll(() => hashPath(page)).toBe('/pages/update_pwd/update_pwd3');
  await page.getByPlaceholder(en.tradePassword.passwordPlaceholder).fill('login-password');
  await page.getByPlaceholder(en.auth.confirmPasswordPlaceholder).fill('login-password');
  await page.getByRole('button', { name: en.auth.submit }).click();
  await expect(page.getByText('The trading password must differ from the login password')).toBeVisible();
  await page.getByPlaceholder(en.tradePassword.passwordPlaceholder).fill('trade-secret');
  await page.getByPlaceholder(en.auth.confirmPasswordPlaceholder).fill('trade-secret');
  await page.getByRole('button', { name: en.auth.submit }).click();
  await expect(page.getByText(en.tradePassword.setDone)).toBeVisible();
  await expect.poll(() => hashPath(page)).toBe('/pages/setting/setting2');
  await expect(page.getByTestId('trade-password-item')).toContainText(en.security.change);

  await page.getByTestId('trade-password-item').click();
  await expect.poll(() => hashPath(page)).toBe('/pages/update_pwd/update_pwd1');
  await page.getByPlaceholder(en.tradePassword.oldPlaceholder).fill('not-it');
  await page.getByPlaceholder(en.tradePassword.passwordPlaceholder).fill('trade-secret-2');
  await page.getByPlaceholder(en.auth.confirmPasswordPlaceholder).fill('trade-secret-2');
  await page.getByRole('button', { name: en.auth.submit }).click();
  await expect(page.getByText('The trading password is wrong')).toBeVisible();
  await page.getByPlaceholder(en.tradePassword.oldPlaceholder).fill('trade-secret');
  await page.getByRole('button', { name: en.auth.submit }).click();
  await expect(page.getByText(en.tradePassword.changed)).toBeVisible();

  await page.getByTestId('trade-password-item').click();
  await page.getByTestId('trade-forgot-toggle').click();
  await page.getByTestId('send-trade-code').click();
  await expect(page.getByTestId('send-trade-code')).toContainText(/Resend in \d+ s/);
  await page.getByPlaceholder(en.auth.codePlaceholder).fill(await waitForCode(email, 2));
  await page.getByPlaceholder(en.tradePassword.passwordPlaceholder).fill('trade-secret-3');
  await page.getByPlaceholder(en.auth.confirmPasswordPlaceholder).fill('trade-secret-3');
  await page.getByRole('button', { name: en.auth.submit }).click();
  await expect(page.getByText(en.tradePassword.changed)).toBeVisible();
  expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
});

test('login password change and other devices in Simplified Chinese; log-out from the about page', async ({ page, request }) => {
  const email = uniqueEmail('devices');
  await registerViaApi(request, email, 'first-password');
  const otherDevice = await loginViaApi(request, email, 'first-password');
  await prepareStorage(page, { credential: await loginViaApi(request, email, 'first-password'), locale: 'zh-Hans' });

  await page.goto('/#/pages/setting/setting2');
  await expect(page.getByTestId('sessions').locator('.adm-list-item')).toHaveCount(3);
  await page.getByRole('button', { name: zhHans.security.signOutOthers }).click();
  await expect(page.getByText(zhHans.security.signOutOthersDone.replace('{{count}}', '2'))).toBeVisible();
  await expect(page.getByTestId('sessions').locator('.adm-list-item')).toHaveCount(1);
  const ended = await request.get('/api/user/info', { headers: { authorization: otherDevice } });
  expect(((await ended.json()) as { code: number }).code).toBe(401);

  await page.getByText(zhHans.security.loginPassword).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/update_pwd/update_pwd');
  await page.getByPlaceholder(zhHans.security.oldPasswordPlaceholder).fill('wrong-password');
  await page.getByPlaceholder(zhHans.auth.newPasswordPlaceholder).fill('second-password');
  await page.getByPlaceholder(zhHans.auth.confirmPasswordPlaceholder).fill('second-password');
  await page.getByRole('button', { name: zhHans.auth.submit }).click();
  await expect(page.getByText('当前密码错误')).toBeVisible();
  await page.getByPlaceholder(zhHans.security.oldPasswordPlaceholder).fill('first-password');
  await page.getByRole('button', { name: zhHans.auth.submit }).click();
  await expect(page.getByText(zhHans.auth.passwordChanged)).toBeVisible();
  await loginViaApi(request, email, 'second-password');

  await page.goto('/#/pages/setting/setting5');
  await expect(page.getByText('1.0.19 (10019)')).toBeVisible();
  await page.getByTestId('logout').click();
  await page.getByRole('button', { name: zhHans.common.confirm }).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/login/login');
  expect(await page.evaluate(() => localStorage.getItem('Authorization'))).toBeNull();
});
