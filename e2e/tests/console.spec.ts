import type { Page } from '@playwright/test';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import zhHant from '../../web/src/app/i18n/locales/zh-Hant.json' with { type: 'json' };
import { collectErrors, hashPath, prepareStorage } from '../support/app';
import { answerOf, chooseOption, confirmDialog, openConsolePage, openedDrawer } from '../support/console';
import { expect, test, type TestOperator } from '../support/fixtures';
import { uniqueEmail } from '../support/mail';
import { loginViaApi, ownAddress, registerViaApi } from '../support/members';
import { currentCode, freshCode } from '../support/totp';

// Every test has operators of its own (the first one a new super admin made for it), so none waits
// for another's authenticator step or relies on the order they run in.

// Each test works the console and a member's app side by side, hence the longer budget.
test.describe.configure({ timeout: 120_000 });

const OPERATOR_PASSWORD = 'correct horse battery staple';

async function operatorLogin(page: Page, username: string, password: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Password, then (once the console asks for it) a fresh authenticator code. */
async function operatorLoginWithCode(page: Page, username: string, password: string, secret: string): Promise<void> {
  await operatorLogin(page, username, password);
  await expect(page.getByTestId('login-notice')).toHaveText('Enter the 6-digit code from your authenticator app');
  await page.getByLabel('Authenticator code').fill(await freshCode(secret));
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('operator-name')).toBeVisible();
}

/** Audit entries of `action` made by `operator` (the log is shared by every test: filter to this one's). */
async function auditEntries(page: Page, action: string, operator: TestOperator) {
  await page.getByPlaceholder('Action, e.g. member.freeze').fill(action);
  await page.getByPlaceholder('Action, e.g. member.freeze').press('Enter');
  await expect(page.getByRole('row').nth(1).getByRole('cell', { name: action, exact: true })).toBeVisible();
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: action, exact: true }) })
    .filter({ has: page.getByRole('cell', { name: operator.username, exact: true }) });
}

/** On the binding screen: reads the key shown, checks the QR code, and binds with a code from it. */
async function bindAuthenticator(page: Page): Promise<string> {
  await expect(page.getByText('Bind an authenticator')).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByAltText('QR code of the authenticator key')).toBeVisible();
  await page.getByLabel('Code from the app').fill(await freshCode(secret));
  await page.getByRole('button', { name: 'Bind authenticator' }).click();
  await expect(page.getByTestId('operator-name')).toBeVisible();
  return secret;
}

test('an operator logs in with the one-time password, must replace it and bind an authenticator, then logs in with a code', async ({
  page,
  operators,
}) => {
  const errors = collectErrors(page);
  const { username, oneTimePassword } = await operators.createWithOneTimePassword('super_admin');
  // Log-ins count per address: this person's browser has an address of its own.
  await page.setExtraHTTPHeaders(ownAddress());

  await operatorLogin(page, username, 'wrong password');
  await expect(page.getByTestId('login-error')).toContainText('Wrong username or password');

  await page.getByLabel('Password').fill(oneTimePassword);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Choose your password')).toBeVisible();

  await page.getByLabel('Current (one-time) password').fill(oneTimePassword);
  await page.getByLabel('New password', { exact: true }).fill(OPERATOR_PASSWORD);
  await page.getByLabel('Confirm new password').fill(OPERATOR_PASSWORD);
  await page.getByRole('button', { name: 'Save password' }).click();

  // Nothing else until an authenticator is bound; a wrong code is refused.
  await expect(page.getByText('Bind an authenticator')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Bind an authenticator')).toBeVisible();
  const shown = (await page.getByTestId('totp-secret').innerText()).trim();
  const wrong = currentCode(shown) === '000000' ? '111111' : '000000';
  await page.getByLabel('Code from the app').fill(wrong);
  await page.getByRole('button', { name: 'Bind authenticator' }).click();
  await expect(page.getByTestId('totp-error')).toHaveText('The authenticator code is wrong or was already used');
  const secret = await bindAuthenticator(page);
  expect(secret).toBe(shown);

  await expect(page.getByTestId('operator-name')).toContainText(`${username} · super admin`);
  await expect(page.getByTestId('health-status')).toHaveText('ok');
  await expect(page.getByText('Asia/Shanghai')).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('operator-name')).toBeVisible();

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();

  // From now on the password alone is not enough: the console asks for the code.
  await operatorLoginWithCode(page, username, OPERATOR_PASSWORD, secret);
  await expect(page.getByTestId('operator-name')).toContainText(`${username} · super admin`);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  // The browser logs the refused attempts (wrong password, code asked for) as failed resources, and the
  // wrong binding code as a 400; nothing else may fail.
  expect(errors.filter((error) => !/status of 40[01]/.test(error))).toEqual([]);
});

test('an operator freezes, unfreezes and resets a member; the member must then choose a new password (code 300)', async ({
  browser,
  request,
  operators,
  openConsole,
}) => {
  const email = uniqueEmail('console');
  await registerViaApi(request, email, 'member-password');
  // The member uploads an avatar, which the console shows in the member's accounts.
  const memberToken = await loginViaApi(request, email, 'member-password');
  const uploaded = await request.post('/api/upload/image', {
    headers: { authorization: memberToken },
    data: { purpose: 'avatar', contentBase64: PHOTO.buffer.toString('base64') },
  });
  const avatarId = ((await uploaded.json()) as { data: { id: string } }).data.id;
  const profile = await request.post('/api/user/update_profile', {
    headers: { authorization: memberToken },
    data: { avatar: `upload:${avatarId}` },
  });
  expect(((await profile.json()) as { code: number }).code).toBe(200);

  const page = await openConsole(await operators.create('super_admin'));
  await openConsolePage(page, 'Members');
  await page.getByPlaceholder('E-mail, nickname or invitation code').fill(email);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('cell', { name: email }).click();
  await expect(page.getByTestId('member-status')).toHaveText('active');
  await expect
    .poll(() => page.getByTestId('member-avatar-uploaded').evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBe(1);

  await page.getByRole('button', { name: 'Freeze log-in' }).click();
  await page.getByTestId('freeze-reason').fill('checking a complaint');
  expect(await confirmDialog(page, 'Freeze log-in', 'Freeze', '/freeze')).toMatchObject({ code: 200 });
  await expect(page.getByTestId('member-status')).toHaveText('frozen');
  const refused = await request.post('/api/auth/login', { data: { email, password: 'member-password' } });
  expect(((await refused.json()) as { code: number }).code).toBe(403);

  await page.getByRole('button', { name: 'Unfreeze log-in' }).click();
  await page.getByTestId('freeze-reason').fill('complaint resolved');
  expect(await confirmDialog(page, 'Unfreeze log-in', 'Unfreeze', '/unfreeze')).toMatchObject({ code: 200 });
  await expect(page.getByTestId('member-status')).toHaveText('active');

  await page.getByRole('button', { name: 'Reset login password' }).click();
  expect(await confirmDialog(page, 'Reset the login password?', 'Reset', '/reset_password')).toMatchObject({ code: 200 });
  const temporaryPassword = (await page.getByTestId('temporary-password').innerText()).trim();
  expect(temporaryPassword).toMatch(/^[A-Za-z2-9]{12}$/);

  const member = await browser.newPage({ viewport: { width: 390, height: 780 } });
  await prepareStorage(member, { locale: 'en' });
  await member.goto('/');
  await member.getByPlaceholder(en.auth.emailPlaceholder).fill(email);
  await member.getByPlaceholder(en.auth.passwordPlaceholder).fill(temporaryPassword);
  await member.getByRole('button', { name: en.auth.login, exact: true }).click();
  await expect(member.getByText('Please set a new login password')).toBeVisible();
  await expect.poll(() => hashPath(member)).toBe('/pages/update_pwd/update_pwd2');
  await member.getByPlaceholder(en.auth.newPasswordPlaceholder).fill('chosen-by-member');
  await member.getByPlaceholder(en.auth.confirmPasswordPlaceholder).fill('chosen-by-member');
  await member.getByRole('button', { name: en.auth.submit }).click();
  await expect(member.getByText(en.auth.passwordChanged)).toBeVisible();
  await expect(member.getByTestId('tab-bar')).toBeVisible();
  const relogin = await request.post('/api/auth/login', { data: { email, password: 'chosen-by-member' } });
  expect(((await relogin.json()) as { code: number }).code).toBe(200);

  await confirmDialog(page, 'Temporary password', 'OK');
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await openConsolePage(page, 'Mail outbox');
  await page.getByPlaceholder('Recipient e-mail').fill(email);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByRole('cell', { name: email }).first()).toBeVisible();
  // The registration code mail (sent without a lang header, so in the default zh-Hans), in the row of
  // this member's mail whether or not the list has been filtered yet: its code is masked, so an
  // operator who reads the outbox cannot use it.
  const memberMails = page.getByRole('row').filter({ has: page.getByRole('cell', { name: email, exact: true }) });
  await expect(memberMails.getByRole('cell', { name: '注册验证码：••••••' })).toBeVisible();
  await expect(memberMails.getByRole('cell', { name: /\d{6}/ })).toHaveCount(0);
});

/** A real 1×1 PNG, as a phone camera's file would be uploaded. */
const PHOTO = {
  name: 'photo.png',
  mimeType: 'image/png',
  buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
};

test('real-name verification in Traditional Chinese, reviewed in the console: failed with a reason, resubmitted, approved', async ({
  browser,
  request,
  operators,
  openConsole,
}) => {
  const email = uniqueEmail('kyc');
  await registerViaApi(request, email, 'member-password');
  const member = await browser.newPage({ viewport: { width: 390, height: 780 } });
  await prepareStorage(member, { credential: await loginViaApi(request, email, 'member-password'), locale: 'zh-Hant' });

  const submit = async () => {
    await member.getByText(zhHant.identity.passport).click();
    await member.getByPlaceholder(zhHant.identity.realNamePlaceholder).fill('王小明');
    await member.getByPlaceholder(zhHant.identity.idNumberPlaceholder).fill('E12345678');
    for (const slot of ['front', 'back', 'selfie']) {
      await member.getByTestId(`photo-${slot}`).setInputFiles(PHOTO);
      await expect(member.locator('.photo-slot img')).toHaveCount(['front', 'back', 'selfie'].indexOf(slot) + 1);
    }
    await member.getByRole('button', { name: zhHant.identity.submit }).click();
    await expect(member.getByTestId('identity-status')).toHaveText(zhHant.identity.pending);
  };

  await member.goto('/#/pages/setting/setting3');
  await expect(member.getByTestId('identity-status')).toHaveText(zhHant.identity.unverified);
  await member.getByRole('button', { name: zhHant.identity.submit }).click();
  await expect(member.getByText('請輸入真實姓名')).toBeVisible();
  await submit();

  const admin = await operators.create('super_admin');
  const page = await openConsole(admin);
  await openConsolePage(page, 'Real-name review');
  await page.getByRole('cell', { name: email }).click();
  const firstDrawer = await openedDrawer(page, 'Real-name submission');
  await expect(firstDrawer.getByTestId('identity-image')).toHaveCount(3);
  await firstDrawer.getByRole('button', { name: 'Fail', exact: true }).click();
  await page.getByTestId('fail-reason').fill('證件照片模糊');
  expect(await confirmDialog(page, 'Fail the submission', 'Fail', '/fail')).toMatchObject({ code: 200 });
  await expect(page.getByRole('cell', { name: email })).toHaveCount(0);

  await member.reload();
  await expect(member.getByTestId('identity-status')).toHaveText(zhHant.identity.failed);
  await expect(member.getByText('原因：證件照片模糊')).toBeVisible();
  await submit();

  await page.reload();
  await page.getByRole('cell', { name: email }).click();
  const drawer = await openedDrawer(page, 'Real-name submission');
  await expect(drawer.getByTestId('identity-image')).toHaveCount(3);
  const approved = await answerOf(page, 'POST', /\/api\/admin\/identity\/[^/]+\/approve$/, () =>
    drawer.getByRole('button', { name: 'Approve' }).click(),
  );
  expect(approved).toMatchObject({ code: 200 });
  await expect(page.getByRole('cell', { name: email })).toHaveCount(0);
  await member.reload();
  await expect(member.getByTestId('identity-status')).toHaveText(zhHant.identity.approved);

  // Both decisions are in the audit log with who made them.
  await openConsolePage(page, 'Audit log');
  await expect(await auditEntries(page, 'identity.fail', admin)).toHaveCount(1);
  await expect(await auditEntries(page, 'identity.approve', admin)).toHaveCount(1);
});

test('a super admin creates an operator who then sets a password and binds an authenticator; role change, disable and reset show in the audit log', async ({
  browser,
  operators,
  openConsole,
}) => {
  const username = `e2e-new-${Date.now().toString(36)}`;
  const admin = await operators.create('super_admin');
  const page = await openConsole(admin);
  await openConsolePage(page, 'Operators');
  await expect(page.getByRole('cell', { name: admin.username, exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'New operator' }).click();
  const create = page.getByRole('dialog', { name: 'New operator' });
  await create.getByLabel('Username').fill(username);
  await chooseOption(page, create.getByLabel('Role'), 'reviewer');
  expect(await confirmDialog(page, 'New operator', 'Create', '/api/admin/operators')).toMatchObject({ code: 200 });
  await expect(page.getByRole('dialog', { name: 'One-time password' })).toBeVisible();
  const oneTimePassword = (await page.getByTestId('one-time-password').innerText()).trim();
  expect(oneTimePassword).toMatch(/^[A-Za-z2-9]{20}$/);
  await confirmDialog(page, 'One-time password', 'OK');
  const row = page.getByRole('row').filter({ hasText: username });
  await expect(row).toContainText('reviewer');
  await expect(row).toContainText('not bound');
  await expect(row).toContainText('one-time password');

  // The new operator, in a browser of their own: new password, authenticator, then the console of a reviewer.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, extraHTTPHeaders: ownAddress() });
  const newcomer = await context.newPage();
  await newcomer.goto('/admin/');
  await newcomer.getByLabel('Username').fill(username);
  await newcomer.getByLabel('Password').fill(oneTimePassword);
  await newcomer.getByRole('button', { name: 'Log in' }).click();
  await newcomer.getByLabel('Current (one-time) password').fill(oneTimePassword);
  await newcomer.getByLabel('New password', { exact: true }).fill('reviewer passphrase 2026');
  await newcomer.getByLabel('Confirm new password').fill('reviewer passphrase 2026');
  await newcomer.getByRole('button', { name: 'Save password' }).click();
  const secret = await bindAuthenticator(newcomer);
  await expect(newcomer.getByTestId('operator-name')).toContainText(`${username} · reviewer`);
  await expect(newcomer.getByRole('menuitem', { name: 'Real-name review' })).toBeVisible();
  await expect(newcomer.getByRole('menuitem', { name: 'Operators' })).toHaveCount(0);
  await newcomer.getByRole('button', { name: 'Log out' }).click();
  await operatorLoginWithCode(newcomer, username, 'reviewer passphrase 2026', secret);

  await page.reload();
  await expect(row).toContainText('bound');
  await expect(row).not.toContainText('not bound');
  await row.getByRole('button', { name: 'Change role' }).click();
  const roleDialog = page.getByRole('dialog', { name: `Role of ${username}` });
  await chooseOption(page, roleDialog.getByLabel('Role'), 'support');
  expect(await confirmDialog(page, `Role of ${username}`, 'Save role', '/role')).toMatchObject({ code: 200 });
  await expect(row).toContainText('support');

  await row.getByRole('button', { name: 'Disable' }).click();
  expect(await confirmDialog(page, `Disable ${username}?`, 'Disable', '/disable')).toMatchObject({ code: 200 });
  await expect(row).toContainText('disabled');
  // Their session has ended: the console goes back to log-in.
  await newcomer.reload();
  await expect(newcomer.getByRole('button', { name: 'Log in' })).toBeVisible();
  await row.getByRole('button', { name: 'Enable' }).click();
  expect(await confirmDialog(page, `Enable ${username}?`, 'Enable', '/enable')).toMatchObject({ code: 200 });
  await expect(row).toContainText('active');

  await row.getByRole('button', { name: 'Reset authenticator' }).click();
  expect(
    await confirmDialog(page, `Reset the authenticator of ${username}?`, 'Reset authenticator', '/reset_totp'),
  ).toMatchObject({ code: 200 });
  await expect(row).toContainText('not bound');
  await context.close();

  // No action on one's own row.
  const own = page.getByRole('row').filter({ has: page.getByRole('cell', { name: admin.username, exact: true }) });
  await expect(own.getByRole('button')).toHaveCount(0);

  await openConsolePage(page, 'Audit log');
  for (const action of [
    'operator.create',
    'operator.role_change',
    'operator.disable',
    'operator.enable',
    'operator.reset_totp',
  ]) {
    await expect(await auditEntries(page, action, admin)).toHaveCount(1);
  }
  await page.getByPlaceholder('Action, e.g. member.freeze').fill('operator.totp_bound');
  await page.getByPlaceholder('Action, e.g. member.freeze').press('Enter');
  await expect(page.getByRole('cell', { name: username, exact: true })).toBeVisible();
});
