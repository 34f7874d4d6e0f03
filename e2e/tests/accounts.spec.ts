import { expect, test } from '../support/fixtures';
import th from '../../web/src/app/i18n/locales/th.json' with { type: 'json' };
import { collectErrors, hashPath, prepareStorage } from '../support/app';
import { uniqueEmail } from '../support/mail';
import { loginViaApi, registerViaApi } from '../support/members';

test('sub-accounts in Thai: create one, switch to it, and the settings show which account is in use', async ({
  page,
  request,
}) => {
  const errors = collectErrors(page);
  const email = uniqueEmail('subs');
  await registerViaApi(request, email, 'login-password');
  const token = await loginViaApi(request, email, 'login-password');
  await prepareStorage(page, { credential: token, locale: 'th' });
  await page.goto('/#/pages/setting/setting');
  await expect(page.getByTestId('current-account')).toContainText(th.accounts.main);
  await page.getByText(th.accounts.accounts, { exact: true }).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/second/second');
  await expect(page.getByTestId('account-list').locator('.adm-list-item')).toHaveCount(1);

  await page.getByRole('button', { name: th.accounts.create }).click();
  await expect(page.getByText('กรุณากรอกชื่อเล่น')).toBeVisible();
  await page.getByPlaceholder(th.accounts.nicknamePlaceholder).fill('Savings');
  await page.getByRole('button', { name: th.accounts.create }).click();
  await expect(page.getByText(th.accounts.created)).toBeVisible();
  await expect(page.getByTestId('account-list').locator('.adm-list-item')).toHaveCount(2);

  await page.getByRole('button', { name: th.accounts.switchTo }).click();
  await expect(page.getByText(th.accounts.switched.replace('{{name}}', 'Savings'))).toBeVisible();
  const info = await request.get('/api/user/info', { headers: { authorization: token } });
  expect(((await info.json()) as { data: unknown }).data).toMatchObject({ accountKind: 'sub', nickname: 'Savings' });

  await page.goBack();
  await expect(page.getByTestId('current-account')).toContainText(`Savings · ${th.accounts.sub}`);
  expect(errors).toEqual([]);
});
