import { expect, test } from '@playwright/test';
import vi from '../../web/src/app/i18n/locales/vi.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { uniqueEmail } from '../support/mail';
import { loginViaApi, registerViaApi } from '../support/members';

test('profile in Vietnamese: pick an avatar, change the nickname, see the invitation code', async ({ page, request }) => {
  const errors = collectErrors(page);
  const email = uniqueEmail('profile');
  await registerViaApi(request, email, 'login-password');
  const token = await loginViaApi(request, email, 'login-password');
  await prepareStorage(page, { credential: token, locale: 'vi' });
  await page.goto('/#/pages/setting/setting');
  await page.getByText(vi.settings.profile).click();
  await expect(page.getByTestId('my-invite-code')).toHaveText(/^[A-Z2-9]{8}$/);
  await expect(page.locator('.avatar-option img').first()).toBeVisible();
  expect(
    await page
      .locator('.avatar-option img')
      .first()
      .evaluate((image: HTMLImageElement) => image.naturalWidth),
  ).toBeGreaterThan(0);

  await page.getByTestId('avatar-avatars/a05.svg').click();
  await page.getByPlaceholder(vi.profile.nicknamePlaceholder).fill('');
  await page.getByRole('button', { name: vi.profile.save }).click();
  await expect(page.getByText('vui lòng nhập biệt danh')).toBeVisible();
  await page.getByPlaceholder(vi.profile.nicknamePlaceholder).fill('Nakamoto');
  await page.getByRole('button', { name: vi.profile.save }).click();
  await expect(page.getByText(vi.profile.saved)).toBeVisible();

  const info = await request.get('/api/user/info', { headers: { authorization: token } });
  expect(((await info.json()) as { data: unknown }).data).toMatchObject({ nickname: 'Nakamoto', avatar: 'avatars/a05.svg' });
  expect(errors).toEqual([]);
});
