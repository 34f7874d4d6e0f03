import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import type { AirdropCampaign } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import zhHans from '../../web/src/app/i18n/locales/zh-Hans.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { confirmDialog, openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';

/**
 * The operator side of the team: an airdrop of RAB to a member the test made, arriving now (the
 * arrival job pays it), which the member sees arrived with its exact amount in the income log in
 * English and Chinese; a scheduled one the member sees to arrive until the operator cancels it; and a
 * member moved to another inviter, shown in the console's downline tree.
 */

async function call<T>(request: APIRequestContext, url: string, token: string, data?: object): Promise<T> {
  const response = await request.fetch(url, {
    method: data ? 'POST' : 'GET',
    headers: { authorization: token, lang: 'EN' },
    ...(data ? { data } : {}),
  });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  expect(envelope.code, envelope.message).toBe(200);
  return envelope.data;
}

/** The campaign of that name, as the console's list answers (the test's own names are unique). */
async function campaign(request: APIRequestContext, token: string, name: string): Promise<AirdropCampaign | undefined> {
  const page = await call<{ items: AirdropCampaign[] }>(request, '/api/admin/airdrops?pageSize=100', token);
  return page.items.find((item) => item.name === name);
}

/** `datetime-local` text for an instant, in the browser's (and this process's) time zone. */
function localInput(instant: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}T${pad(instant.getHours())}:${pad(instant.getMinutes())}`;
}

async function fillAirdrop(console: Page, name: string, amount: string, email: string): Promise<void> {
  await openConsolePage(console, 'Airdrops');
  await console.getByTestId('airdrop-name').fill(name);
  await console.getByTestId('airdrop-amount').fill(amount);
  await console.getByText('A list of members', { exact: true }).click();
  await console.getByTestId('airdrop-members').fill(email);
}

test('an airdrop arriving now is paid by the arrival job and shows arrived in the member’s income log (English, Chinese)', async ({
  browser,
  request,
  members,
  operators,
  openConsole,
}) => {
  const member = await members.create('airdrop');
  const operator = await operators.create('finance');
  const console = await openConsole(operator);
  const consoleErrors = collectErrors(console);
  const name = `E2E now ${randomUUID().slice(0, 8)}`;

  await fillAirdrop(console, name, '12.3456', member.email);
  await console.getByTestId('airdrop-preview').click();
  await expect(console.getByTestId('airdrop-preview-recipients')).toHaveText('1');
  await expect(console.getByTestId('airdrop-preview-total')).toHaveText('12.3456');
  await console.getByTestId('airdrop-create').click();
  const row = console.locator(`[data-testid="airdrop-row"][data-name="${name}"]`);
  await expect(row).toHaveCount(1);

  // The arrival job (sent for "now") pays it: polled through the API, then seen in the console.
  await expect
    .poll(async () => (await campaign(request, `Bearer ${operator.token}`, name))?.status, { timeout: 30_000 })
    .toBe('arrived');
  await console.getByRole('button', { name: 'Refresh' }).click();
  await expect(row).toHaveAttribute('data-status', 'arrived');
  await expect(row.getByTestId('airdrop-row-paid')).toHaveText('1 / 1');
  expect((await call<{ RAB: { available: string } }>(request, '/api/user/assets', member.token)).RAB.available).toBe('12.3456');

  for (const [locale, texts] of [
    ['en', en],
    ['zh-Hans', zhHans],
  ] as const) {
    // A page of its own per language: the app reads its language from storage prepared before it starts.
    const page = await browser.newPage();
    await prepareStorage(page, { credential: member.token, locale });
    await page.goto('/#/pages/blance_record/blance_record5');
    const arrived = page.locator('[data-testid="income-item"][data-type="airdrop"][data-state="arrived"]');
    await expect(arrived.getByTestId('income-amount')).toHaveText('+12.3456 RAB');
    await expect(arrived.getByTestId('income-state')).toHaveText(texts.income.state.arrived);
    await expect(arrived.getByTestId('income-type')).toHaveText(texts.income.types.airdrop);
    await expect(arrived.getByTestId('income-source')).toHaveText(name);
    await page.close();
  }
  expect(consoleErrors).toEqual([]);
});

test('a scheduled airdrop shows to arrive in the member’s log until the operator cancels it', async ({
  page,
  members,
  operators,
  openConsole,
}) => {
  const member = await members.create('airdrop-later');
  const console = await openConsole(await operators.create('finance'));
  const consoleErrors = collectErrors(console);
  const name = `E2E later ${randomUUID().slice(0, 8)}`;

  await fillAirdrop(console, name, '5', member.email);
  await console.getByText('At a time', { exact: true }).click();
  await console.getByTestId('airdrop-arrive-at').fill(localInput(new Date(Date.now() + 2 * 86_400_000)));
  await console.getByTestId('airdrop-preview').click();
  await expect(console.getByTestId('airdrop-preview-total')).toHaveText('5.0000');
  await console.getByTestId('airdrop-create').click();
  const row = console.locator(`[data-testid="airdrop-row"][data-name="${name}"]`);
  await expect(row).toHaveAttribute('data-status', 'scheduled');

  await prepareStorage(page, { credential: member.token, locale: 'en' });
  await page.goto('/#/pages/blance_record/blance_record5');
  const toArrive = page.locator('[data-testid="income-item"][data-type="airdrop"][data-state="to_arrive"]');
  await expect(toArrive.getByTestId('income-amount')).toHaveText('+5.0000 RAB');
  await expect(toArrive.getByTestId('income-state')).toHaveText(en.income.state.to_arrive);

  await row.getByTestId('airdrop-cancel').click();
  const answer = await confirmDialog(console, `Cancel the airdrop "${name}"?`, 'Cancel airdrop', '/cancel');
  expect(answer.code).toBe(200);
  await expect(row).toHaveAttribute('data-status', 'cancelled');
  await page.reload();
  // The member's only income was that airdrop: the log is empty now.
  await expect(page.getByTestId('records-empty')).toBeVisible();
  await expect(page.locator('[data-testid="income-item"][data-type="airdrop"]')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test('a super admin moves a member under another inviter, and the downline tree shows it', async ({
  request,
  members,
  operators,
  openConsole,
}) => {
  const p = await members.create('move-p');
  const q = await members.create('move-q');
  const code = (await call<{ inviteCode: string }>(request, '/api/user/share', p.token)).inviteCode;
  const x = await members.create('move-x', { invitationCode: code });
  const console = await openConsole(await operators.create('super_admin'));
  const errors = collectErrors(console);

  const openTeam = async (email: string) => {
    await openConsolePage(console, 'Members');
    await console.getByPlaceholder('E-mail, nickname or invitation code').fill(email);
    await console.getByRole('button', { name: 'Search' }).click();
    await console.getByRole('cell', { name: email, exact: true }).click();
    await console.getByRole('dialog').getByRole('tab', { name: 'Team' }).click();
  };
  const treeNode = (email: string) => console.locator(`[data-testid="member-team-tree-node"][data-email="${email}"]`);

  // X's upline is P; P's tree opens to X.
  await openTeam(x.email);
  await expect(console.locator('[data-testid="member-team-upline"]')).toHaveAttribute('data-email', p.email);
  await console.getByTestId('member-team-move-inviter').fill(q.email);
  await console.getByTestId('member-team-move').click();
  const moved = await confirmDialog(
    console,
    `Move ${x.email} and 0 members below under ${q.email}?`,
    'Move',
    '/api/admin/team/move',
  );
  expect(moved.code).toBe(200);
  await expect(console.locator('[data-testid="member-team-upline"]')).toHaveAttribute('data-email', q.email);
  await console.getByRole('button', { name: 'Close', exact: true }).click();

  // Q's tree: opening Q shows X, valid or not, with its figures.
  await openTeam(q.email);
  const root = console
    .locator('.ant-tree-treenode')
    .filter({ has: console.locator(`[data-account-id]`) })
    .first();
  await root.locator('.ant-tree-switcher').click();
  await expect(treeNode(x.email)).toHaveText(`${x.email} · V0 · own 0.0000 · team 0.0000 · not valid`);
  expect(errors).toEqual([]);
});
