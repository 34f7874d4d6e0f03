import type { APIRequestContext } from '@playwright/test';
import { money, type UserAssets } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import { collectErrors, hashPath, prepareStorage } from '../support/app';
import { runFaucet, startDemoServer, type DemoServer } from '../support/demo-server';
import { expect, test } from '../support/fixtures';
import { freshCode } from '../support/totp';

/**
 * `npm start -- --demo` as a newcomer meets it (decision 019): this worker's own demo server (built
 * server, --demo, no chain configured, so it runs the dev chain itself), the people its banner prints,
 * the seeded balances and records on Home, Hosting and Assets, a deposit through the demo chain and
 * the faucet command, and the console with the demo operator.
 */

// Starting the server (migrations, chain, seed) and a chain deposit are real work on a loaded machine.
test.describe.configure({ timeout: 120_000 });

let demo: DemoServer;

interface Printed {
  memberEmail: string;
  memberPassword: string;
  teamEmails: string[];
  operatorUsername: string;
  operatorPassword: string;
  operatorSecret: string;
}

/** The credentials exactly as the banner prints them. */
function printed(): Printed {
  const output = demo.output();
  const member = /Member app \(\S+\): (\S+) \/ (\S+)/.exec(output);
  const team = /team \(invited by the demo member, same passwords\): (.+)/.exec(output);
  const operator = /Console \(\S+\): (\S+) \/ (\S+)/.exec(output);
  const secret = /add the secret ([A-Z2-7]+) to an authenticator app/.exec(output);
  if (!member || !team || !operator || !secret) throw new Error(`the demo banner is incomplete:\n${output}`);
  return {
    memberEmail: member[1]!,
    memberPassword: member[2]!,
    teamEmails: team[1]!.split(', '),
    operatorUsername: operator[1]!,
    operatorPassword: operator[2]!,
    operatorSecret: secret[1]!,
  };
}

function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(values[name] ?? ''));
}

async function assetsOf(request: APIRequestContext, token: string): Promise<UserAssets> {
  const response = await request.get(`${demo.baseUrl}/api/user/assets`, { headers: { authorization: token } });
  const envelope = (await response.json()) as { code: number; data: UserAssets };
  expect(envelope.code).toBe(200);
  return envelope.data;
}

test.beforeAll(async () => {
  const info = test.info();
  info.setTimeout(240_000);
  demo = await startDemoServer();
});
test.afterAll(async () => {
  await demo?.stop();
});

test('the demo member signs in with the printed credentials and finds balances and records on Home, Hosting and Assets', async ({
  page,
}) => {
  const errors = collectErrors(page);
  const { memberEmail, memberPassword } = printed();
  expect(memberEmail).toBe('demo@custos.example');
  await prepareStorage(page, { locale: 'en' });
  await page.goto(`${demo.baseUrl}/`);
  await page.getByPlaceholder(en.auth.emailPlaceholder).fill(memberEmail);
  await page.getByPlaceholder(en.auth.passwordPlaceholder).fill(memberPassword);
  await page.getByRole('button', { name: en.auth.login, exact: true }).click();
  await expect.poll(() => hashPath(page)).toBe('/pages/index/index');

  // Home: in cash 3,900 available + 300 held for the pending withdrawal + 750 RAB at 0.5 (700 + the welcome
  // airdrop's 50); 4,500 in custody.
  await expect(page.getByTestId('total-assets')).toHaveText('9,075.0000USDT');
  await expect(page.getByTestId('cash-assets')).toHaveText('4,575.0000');
  await expect(page.getByTestId('custody-assets')).toHaveText('4,500.0000');

  // Hosting: the two custody orders, the 90-day one renewing itself.
  await page.goto(`${demo.baseUrl}/#/pages/index/index2`);
  await expect(page.getByTestId('hosting-custody-balance')).toHaveText('4,500.0000USDT');
  await expect(page.getByTestId('hosting-valid')).toBeVisible();
  const orders = page.getByTestId('hosting-order');
  await expect(orders).toHaveCount(2);
  await expect(orders.filter({ hasText: '30 days' }).getByTestId('hosting-order-amount')).toHaveText('3,000.0000 USDT');
  const renewing = orders.filter({ hasText: '90 days' });
  await expect(renewing.getByTestId('hosting-order-amount')).toHaveText('1,500.0000 USDT');
  await expect(renewing.getByTestId('hosting-order-status')).toHaveAttribute('data-status', 'active');

  // Assets: every asset's balance after the seeded machines, exchanges and transfers.
  await page.goto(`${demo.baseUrl}/#/pages/my/my`);
  await expect(page.getByTestId('balance-USDT').locator('.balance-main')).toHaveText('3,900.0000');
  await expect(page.getByTestId('balance-RAB').locator('.balance-main')).toHaveText('750.0000');
  await expect(page.getByTestId('balance-FUEL').locator('.balance-main')).toHaveText('97.0000');
  await expect(page.getByTestId('balance-TICKET').locator('.balance-main')).toHaveText('200.0000');

  // Records: the withdrawal waiting for an operator.
  await page.goto(`${demo.baseUrl}/#/pages/withdraw_record/withdraw_record`);
  await expect(page.getByTestId('withdrawal-status')).toHaveCount(1);
  await expect(page.getByTestId('withdrawal-status')).toHaveAttribute('data-status', 'pending');
  await expect(page.getByTestId('withdrawal-item').getByTestId('withdrawal-amount')).toHaveText('300.0000 USDT');
  expect(errors).toEqual([]);
});

test('the demo member’s Team tab shows level V1 and the seeded team’s figures, its list no e-mail', async ({ page, request }) => {
  const errors = collectErrors(page);
  const { memberEmail, memberPassword } = printed();
  const login = await request.post(`${demo.baseUrl}/api/auth/login`, { data: { email: memberEmail, password: memberPassword } });
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  await prepareStorage(page, { credential: token, locale: 'en' });

  // Team performance: alice, bob, carol 1,000 each, dave 2,500, erin 300, frank 4,000, grace 800 and
  // ivan 200, all opened when the demo started. Direct: alice, bob, carol and judy (the
  // member's own sub-account "Savings" is not a team member); valid (≥ 500): alice, bob, carol, dave, frank and grace.
  await page.goto(`${demo.baseUrl}/#/pages/blance_record/blance_record6`);
  await expect(page.getByTestId('team-level')).toHaveText('V1');
  await expect(page.getByTestId('team-performance-total')).toHaveText('10,800.0000USDT');
  await expect(page.getByTestId('team-performance-today')).toHaveText('10,800.0000');
  await expect(page.getByTestId('team-performance-month')).toHaveText('10,800.0000');
  await expect(page.getByTestId('team-direct')).toHaveText('4');
  await expect(page.getByTestId('team-indirect')).toHaveText('6');
  await expect(page.getByTestId('team-valid-direct')).toHaveText('3');
  await expect(page.getByTestId('team-valid')).toHaveText('6');
  await expect(page.getByTestId('team-own')).toHaveText('4,500.0000 USDT');
  await expect(page.getByTestId('team-next-badge')).toHaveText('V2');
  await expect(page.getByTestId('team-missing').locator('li')).toHaveText([
    fill(en.team.missingDirect, { count: 2 }),
    fill(en.team.missingPerformance, { amount: '39,200.0000' }),
    fill(en.team.missingLegs, { count: 2, level: 'V1' }),
  ]);

  // The members list, newest first: three generations, masked e-mails, default nicknames from no e-mail.
  await page.getByTestId('team-members-link').click();
  const rows = page.getByTestId('team-member');
  await expect(rows).toHaveCount(10);
  await expect(rows.getByTestId('team-member-email')).toHaveText([
    'j***y@custos.example',
    'i***n@custos.example',
    'h***i@custos.example',
    'g***e@custos.example',
    'f***k@custos.example',
    'e***n@custos.example',
    'd***e@custos.example',
    'c***l@custos.example',
    'b***b@custos.example',
    'a***e@custos.example',
  ]);
  await expect(rows.getByTestId('team-member-valid')).toHaveText(
    [false, false, false, true, true, false, true, true, true, true].map((valid) =>
      valid ? en.team.validTag : en.team.notValidTag,
    ),
  );
  const listed = (await page.getByTestId('team-members').textContent())!.toLowerCase();
  for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy']) {
    expect(listed).not.toContain(name);
  }
  expect(errors).toEqual([]);
});

test('test USDT from the demo faucet reaches a team member, credited after 3 confirmations', async ({ page, request }) => {
  const errors = collectErrors(page);
  const { teamEmails, memberPassword } = printed();
  const email = teamEmails[0]!;
  const login = await request.post(`${demo.baseUrl}/api/auth/login`, { data: { email, password: memberPassword } });
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const before = await assetsOf(request, token);

  await prepareStorage(page, { credential: token, locale: 'en' });
  await page.goto(`${demo.baseUrl}/#/pages/withdraw/withdraw1`);
  await expect(page.getByTestId('recharge-confirmations')).toHaveText(
    en.recharge.confirmationsNotice.replace('{{confirmations}}', '3'),
  );
  const address = (await page.getByTestId('recharge-address').textContent())!.trim();
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(await runFaucet(address, '250', demo.chainRpcUrl)).toContain(`minted 250 USDT to ${address}`);

  // The chain mines a block a second: the watcher credits the deposit once it has 3 confirmations.
  await page.goto(`${demo.baseUrl}/#/pages/withdraw_record/withdraw_record1`);
  const credited = page.locator('[data-testid="deposit-status"][data-status="credited"]');
  const creditedBefore = await request
    .get(`${demo.baseUrl}/api/recharge/list?page=1&pageSize=50`, { headers: { authorization: token } })
    .then(async (response) => ((await response.json()) as { data: { items: { status: string }[] } }).data.items);
  await expect(async () => {
    await page.reload();
    await expect(credited).toHaveCount(creditedBefore.filter((item) => item.status === 'credited').length + 1, {
      timeout: 1_000,
    });
  }).toPass({ timeout: 60_000 });
  const deposits = await request
    .get(`${demo.baseUrl}/api/recharge/list?page=1&pageSize=50`, { headers: { authorization: token } })
    .then(async (response) => ((await response.json()) as { data: { items: Record<string, unknown>[] } }).data.items);
  expect(deposits[0]).toMatchObject({ amount: '250.0000', status: 'credited', confirmations: 3, requiredConfirmations: 3 });
  const after = await assetsOf(request, token);
  expect(after.USDT.available).toBe(
    money.formatMoney(money.add(money.parseMoney(before.USDT.available), money.parseMoney('250'))),
  );
  expect(errors).toEqual([]);
});

test('the console signs in with the printed demo operator and shows the demo withdrawal waiting', async ({ page }) => {
  const errors = collectErrors(page);
  const { operatorUsername, operatorPassword, operatorSecret, memberEmail } = printed();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${demo.baseUrl}/admin/`);
  await page.getByLabel('Username').fill(operatorUsername);
  await page.getByLabel('Password').fill(operatorPassword);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('login-notice')).toHaveText('Enter the 6-digit code from your authenticator app');
  await page.getByLabel('Authenticator code').fill(await freshCode(operatorSecret));
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('operator-name')).toHaveText(`${operatorUsername} · super admin`);

  await page.goto(`${demo.baseUrl}/admin/#/chain/withdrawals`);
  await page.getByTestId('withdrawal-search').locator('input').fill(memberEmail);
  await page.keyboard.press('Enter');
  const row = page.getByTestId('withdrawal-row').filter({ hasText: memberEmail });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('withdrawal-status')).toHaveAttribute('data-status', 'pending');
  await expect(row.getByTestId('withdrawal-amount')).toHaveText('300.0000');
  // The one refusal: the password-only first step, answered "authenticator code required" (401).
  expect(errors).toEqual(['Failed to load resource: the server responded with a status of 401 (Unauthorized)']);
});

test('the demo’s documents open in the viewer from About, and its help centre answers a search (decision 028)', async ({
  page,
  request,
}) => {
  const errors = collectErrors(page);
  const { memberEmail, memberPassword } = printed();
  const login = await request.post(`${demo.baseUrl}/api/auth/login`, { data: { email: memberEmail, password: memberPassword } });
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  await prepareStorage(page, { credential: token, locale: 'en' });

  // About: the white paper, the terms and the privacy policy, each a real PDF; the white paper has three pages.
  await page.goto(`${demo.baseUrl}/#/pages/setting/setting5`);
  const links = page.getByTestId('document-link');
  await expect(links).toHaveCount(3);
  await expect(links.nth(0)).toHaveAttribute('data-kind', 'white_paper');
  await links.nth(0).click();
  await expect(page.getByTestId('pdf-title')).toHaveText('Custos white paper');
  await expect(page.getByTestId('pdf-page')).toHaveAttribute('data-rendered', '1');
  await expect(page.getByTestId('pdf-page')).toHaveText(fill(en.pdf.pageOf, { page: 1, count: 3 }));

  // Help centre: two categories; searching "password" finds the article on changing it.
  await page.goto(`${demo.baseUrl}/#/pages/second/second1`);
  await expect(page.getByTestId('help-category')).toHaveCount(2);
  const search = page.getByTestId('help-search').locator('input');
  await search.fill('password');
  await search.press('Enter');
  await page.getByTestId('help-item').filter({ hasText: 'How do I change my login password?' }).click();
  await expect(page.getByTestId('help-article-body')).toContainText('Security centre');
  expect(errors).toEqual([]);
});
