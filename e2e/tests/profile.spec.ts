import { expect, test } from '../support/fixtures';
import { translate } from '@custos/contract';
import ja from '../../web/src/app/i18n/locales/ja.json' with { type: 'json' };
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
  // Visible is not loaded: the image has its size from the style before its bytes arrive.
  await expect
    .poll(() =>
      page
        .locator('.avatar-option img')
        .first()
        .evaluate((image: HTMLImageElement) => image.naturalWidth),
    )
    .toBeGreaterThan(0);

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

/** A real 4×4 PNG (orange), as a phone's gallery would hand it over. */
const PHOTO = {
  name: 'me.png',
  mimeType: 'image/png',
  buffer: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP438UARwzEcQCO4hiRECAqtwAAAABJRU5ErkJggg==',
    'base64',
  ),
};

test('profile in Japanese: upload an avatar from the device, save it, and see it again after a reload', async ({
  page,
  request,
}) => {
  const errors = collectErrors(page);
  const email = uniqueEmail('avatar');
  await registerViaApi(request, email, 'login-password');
  const token = await loginViaApi(request, email, 'login-password');
  await prepareStorage(page, { credential: token, locale: 'ja' });
  await page.goto('/#/pages/setting/setting1');
  await expect(page.getByRole('button', { name: ja.profile.upload })).toBeVisible();
  await expect(page.getByText(ja.profile.uploadHint)).toBeVisible();
  await expect(page.getByTestId('avatar-uploaded')).toHaveCount(0);

  // A text file dressed as a PNG is refused by the server, which reads the bytes.
  await page.getByTestId('avatar-file').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('hello') });
  await expect(page.getByText(translate('ja', 'upload.invalid_type'))).toBeVisible();
  await expect(page.getByTestId('avatar-uploaded')).toHaveCount(0);

  await page.getByTestId('avatar-file').setInputFiles(PHOTO);
  const uploaded = page.getByTestId('avatar-uploaded');
  await expect(uploaded).toHaveAttribute('aria-checked', 'true');
  const image = uploaded.locator('img');
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(4);
  await page.getByRole('button', { name: ja.profile.save }).click();
  await expect(page.getByText(ja.profile.saved)).toBeVisible();

  const info = await request.get('/api/user/info', { headers: { authorization: token } });
  const avatar = ((await info.json()) as { data: { avatar: string } }).data.avatar;
  expect(avatar).toMatch(/^upload:[0-9a-f-]{36}$/);
  // Served to the owner only.
  const own = await request.get(`/api/upload/image/${avatar.slice('upload:'.length)}`, { headers: { authorization: token } });
  expect(own.headers()['content-type']).toBe('image/png');
  expect(Buffer.from(await own.body()).equals(PHOTO.buffer)).toBe(true);
  const anonymous = await request.get(`/api/upload/image/${avatar.slice('upload:'.length)}`);
  expect(anonymous.status()).toBe(401);

  await page.reload();
  await expect(page.getByTestId('avatar-uploaded')).toHaveAttribute('aria-checked', 'true');
  await expect
    .poll(() =>
      page
        .getByTestId('avatar-uploaded')
        .locator('img')
        .evaluate((element: HTMLImageElement) => element.naturalWidth),
    )
    .toBe(4);
  // The accounts page shows it too.
  await page.goto('/#/pages/second/second');
  await expect
    .poll(() =>
      page
        .getByTestId('account-list')
        .locator('img')
        .first()
        .evaluate((element: HTMLImageElement) => element.naturalWidth),
    )
    .toBe(4);
  // The refused fake is the only failed request.
  expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
});
