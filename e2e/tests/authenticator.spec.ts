import { expect, test } from '../support/fixtures';
import { base32Decode, hotp, totpStep } from '../../server/src/lib/totp';
import ko from '../../web/src/app/i18n/locales/ko.json' with { type: 'json' };
import { hashPath, prepareStorage } from '../support/app';
import { uniqueEmail } from '../support/mail';
import { loginViaApi, registerViaApi } from '../support/members';

/** What an authenticator app holding `secret` shows right now. */
function currentCode(secret: string): string {
  return hotp(base32Decode(secret), totpStep(Date.now()));
}

test('binding Google authenticator in Korean: QR and key, a code from it; security changes then ask for a fresh code', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('totp');
  await registerViaApi(request, email, 'login-password');
  await prepareStorage(page, { credential: await loginViaApi(request, email, 'login-password'), locale: 'ko' });
  await page.goto('/#/pages/setting/setting2');
  await page.getByText(ko.security.authenticator).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/setting/setting4');
  await expect(page.getByText(ko.authenticator.bindHint)).toBeVisible();
  await expect(page.locator('.authenticator-key img')).toBeVisible();
  const secret = (await page.getByTestId('authenticator-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  const code = currentCode(secret);
  await page.getByPlaceholder(ko.authenticator.codePlaceholder).fill(code);
  await page.getByRole('button', { name: ko.authenticator.bind }).click();
  await expect(page.getByText(ko.authenticator.bound)).toBeVisible();
  const info = await request.get('/api/user/info', {
    headers: { authorization: (await page.evaluate(() => localStorage.getItem('Authorization')))! },
  });
  expect(((await info.json()) as { data: { hasAuthenticator: boolean } }).data.hasAuthenticator).toBe(true);

  await page.goto('/#/pages/update_pwd/update_pwd');
  await page.getByPlaceholder(ko.security.oldPasswordPlaceholder).fill('login-password');
  await page.getByPlaceholder(ko.auth.newPasswordPlaceholder).fill('another-password');
  await page.getByPlaceholder(ko.auth.confirmPasswordPlaceholder).fill('another-password');
  await page.getByPlaceholder(ko.authenticator.codePlaceholder).fill(code);
  await page.getByRole('button', { name: ko.auth.submit }).click();
  // The code that bound the authenticator cannot be used a second time.
  await expect(page.getByText('인증 코드가 틀렸거나 이미 사용되었습니다')).toBeVisible();
});
