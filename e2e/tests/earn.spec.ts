import { expect, test, type APIRequestContext } from '@playwright/test';
import type { AiInfo, HostingConfig, MachineIndex, MachineProduct } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { CHAIN_FINANCE_OPERATOR, currentAccountId, financeToken, fundAccount } from '../support/funding';
import { uniqueEmail } from '../support/mail';
import { loginViaApi, registerViaApi } from '../support/members';

/**
 * Earn products end to end: a member puts USDT in custody and buys a machine in the app, the test
 * advances the server's platform day, the day is settled, and the member sees interest, mining
 * output and a claimable dividend, and claims it. Runs last (project "advancing-clock").
 */

const TRADE_PASSWORD = 'trade-secret';
const DAY_MS = 86_400_000;
test.describe.configure({ mode: 'serial', timeout: 180_000 });

function platformDate(offsetDays: number): string {
  // The platform day in Asia/Shanghai (the server's default time zone).
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() + offsetDays * DAY_MS));
}

async function get<T>(request: APIRequestContext, url: string, token: string): Promise<T> {
  const response = await request.get(url, { headers: { authorization: token } });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  expect(envelope.code, envelope.message).toBe(200);
  return envelope.data;
}

test('custody and a machine, a platform day later: interest, mining output and an AI dividend claimed (English)', async ({
  page,
  request,
}) => {
  const errors = collectErrors(page);
  const email = uniqueEmail('earn');
  await registerViaApi(request, email, 'login-password');
  const token = await loginViaApi(request, email, 'login-password');
  await request.post('/api/user/set_trade_password', {
    headers: { authorization: token },
    data: { password: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
  });
  await fundAccount(request, await currentAccountId(request, token), 'USDT', '2000');
  // Console codes follow the server's clock: log in before it moves.
  const operator = await financeToken(request, CHAIN_FINANCE_OPERATOR);
  await prepareStorage(page, { credential: token, locale: 'en' });

  // Custody: the 30-day plan, 1000 USDT; the calculator shows 1.2000 a day and 36.0000 in all.
  await page.goto('/#/pages/index/index2');
  await page.locator('[data-testid="hosting-plan"][data-period="30"]').click();
  await page.getByTestId('amount-input').locator('input').fill('1000');
  await expect(page.getByTestId('hosting-calc-daily')).toContainText('1.2000');
  await expect(page.getByTestId('hosting-calc-total')).toContainText('36.0000');
  await page.getByTestId('trade-password-input').locator('input').fill(TRADE_PASSWORD);
  await page.getByTestId('hosting-submit').click();
  await expect(page.getByTestId('hosting-custody-balance')).toContainText('1,000.0000');
  await expect(page.getByTestId('hosting-valid')).toBeVisible();

  // A machine, bought in the app with USDT: 10T, 5 RAB a day.
  await page.goto('/#/pages/index/index3');
  const products = await get<MachineProduct[]>(request, '/api/machine/list', token);
  await page.locator(`[data-testid="machine-card"][data-product-id="${products[0]!.id}"]`).click();
  await page.locator('[data-testid="machine-pay-with-option"][data-asset="USDT"]').click();
  await page.getByTestId('trade-password-input').locator('input').fill(TRADE_PASSWORD);
  await page.getByTestId('machine-buy-submit').click();
  await expect(page.getByTestId('my-machine')).toHaveCount(1);
  await expect(page.getByTestId('my-machine-status')).toHaveText(en.machines.status.running);

  // The operator funds tomorrow's AI dividend pool; then the platform day moves on and tomorrow is settled.
  const tomorrow = platformDate(1);
  const pool = await request.put(`/api/admin/dividend/pools/${tomorrow}`, {
    headers: { authorization: operator },
    data: { amount: '100' },
  });
  expect(((await pool.json()) as { code: number }).code).toBe(200);
  const moved = await request.post('/api/test/clock', { data: { advanceMs: 2 * DAY_MS } });
  expect(((await moved.json()) as { code: number }).code).toBe(200);
  for (const day of [platformDate(0), tomorrow]) {
    const run = await request.post(`/api/admin/settlement/runs/${day}/rerun`, { headers: { authorization: operator } });
    const envelope = (await run.json()) as { code: number; message: string };
    // A day already settled by the job is fine too.
    expect([200, 409], envelope.message).toContain(envelope.code);
  }

  // Interest in the app: one day, 1.2000 USDT.
  await page.goto('/#/pages/index/index2');
  const order = page.getByTestId('hosting-order').first();
  await order.scrollIntoViewIfNeeded();
  await expect(order.getByTestId('hosting-order-interest')).toContainText('1.2000');
  await expect(order.getByTestId('hosting-order-days')).toContainText('1 / 30');

  // Mining output in the app, and the income log.
  await page.goto('/#/pages/index/index3');
  await expect(page.getByTestId('my-machine-output')).toContainText('5.0000');
  const machines = await get<MachineIndex>(request, '/api/machine/index', token);
  expect(machines).toMatchObject({ outputSoFar: '5.0000', running: 1 });

  // The dividend: claimable in the app, claimed, then shown as claimed.
  const ai = await get<AiInfo>(request, '/api/ai/info', token);
  expect(Number(ai.claimable)).toBeGreaterThan(0);
  await page.goto('/#/pages/index/index4');
  await expect(page.getByTestId('dividend-validity')).toHaveAttribute('data-valid', 'true');
  await expect(page.getByTestId('dividend-claimable')).toContainText(ai.claimable.split('.')[0]!);
  await page.getByTestId('dividend-claim').click();
  await expect(page.locator('[data-testid="dividend-record"][data-status="claimed"]')).toHaveCount(1);
  expect((await get<AiInfo>(request, '/api/ai/info', token)).claimedTotal).toBe(ai.claimable);
  await page.goto('/#/pages/blance_record/blance_record5');
  await expect(page.locator('[data-testid="income-item"][data-type="static"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="income-item"][data-type="mining"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="income-item"][data-type="dividend"][data-state="arrived"]')).toHaveCount(1);
  const config = await get<HostingConfig>(request, '/api/hosting/config', token);
  expect(config.custodyBalance).toBe('1000.0000');
  expect(en.hosting.status.active).toBeTruthy();
  expect(errors.filter((error) => !/status of (400|409)/.test(error))).toEqual([]);
});
