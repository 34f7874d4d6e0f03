import type { APIRequestContext } from '@playwright/test';
import type {
  AiInfo,
  DividendPool,
  HostingConfig,
  HostingOrder,
  MachineIndex,
  MachineProduct,
  UserAssets,
} from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { expect, test, TRADE_PASSWORD } from '../support/fixtures';
import { settleDaysBefore } from '../support/settlement';
import { withPlatformLock } from '../support/locks';

/**
 * Earn products end to end: a member puts USDT in custody and buys a machine in the app, the test
 * advances the server's platform day, the day is settled, and the member sees interest, mining
 * output and a claimable dividend, and claims it. Runs last (project "advancing-clock"), holding the
 * server-clock lock, so a repeat of it on the other worker never moves the clock underneath it.
 */

const DAY_MS = 86_400_000;
test.describe.configure({ timeout: 180_000 });

/** The platform day (Asia/Shanghai, the server's default time zone) `offsetDays` after the server's `nowMs`. */
function platformDate(nowMs: number, offsetDays: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(nowMs + offsetDays * DAY_MS));
}

async function get<T>(request: APIRequestContext, url: string, token: string): Promise<T> {
  const response = await request.get(url, { headers: { authorization: token } });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  expect(envelope.code, envelope.message).toBe(200);
  return envelope.data;
}

async function post<T>(request: APIRequestContext, url: string, token: string | null, data: object): Promise<T> {
  const response = await request.post(url, { headers: { lang: 'EN', ...(token ? { authorization: token } : {}) }, data });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  expect(envelope.code, envelope.message).toBe(200);
  return envelope.data;
}

/** Four-place amounts as ten-thousandths, so sums are exact. */
const units = (amount: string): bigint => {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole!) * 10_000n + BigInt(fraction.padEnd(4, '0'));
};
const fourPlaces = (value: bigint): string => `${value / 10_000n}.${(value % 10_000n).toString().padStart(4, '0')}`;
/** How the app shows an amount: thousands separated, four places. */
const shown = (amount: string): string => {
  const [whole, fraction] = amount.split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
};

test('custody and a machine, a platform day later: interest, mining output and an AI dividend claimed (English)', async ({
  page,
  request,
  members,
  operators,
  fund,
}) => {
  const errors = collectErrors(page);
  const member = await members.create('earn', { tradePassword: true });
  const token = member.token;
  await fund(member.accountId, 'USDT', '2000');
  const operator = `Bearer ${(await operators.create('finance')).token}`;
  await prepareStorage(page, { credential: token, locale: 'en' });
  await withPlatformLock('server-clock', async () => {
    // Days are the server's: an earlier run of this test has moved its clock.
    const serverNow = Date.parse((await post<{ now: string }>(request, '/api/test/clock', null, { advanceMs: 0 })).now);

    // Custody: the 30-day plan, 1000 USDT; the calculator shows 1.2000 a day and 36.0000 in all.
    await page.goto('/#/pages/index/index2');
    await page.locator('[data-testid="hosting-plan"][data-period="30"]').click();
    await page.getByTestId('amount-input').locator('input').fill('1000');
    await expect(page.getByTestId('hosting-calc-daily')).toHaveText('1.2000 USDT');
    await expect(page.getByTestId('hosting-calc-total')).toHaveText('36.0000 USDT');
    await page.getByTestId('trade-password-input').locator('input').fill(TRADE_PASSWORD);
    await page.getByTestId('hosting-submit').click();
    await expect(page.getByTestId('hosting-custody-balance')).toHaveText('1,000.0000USDT');
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
    const today = platformDate(serverNow, 0);
    const tomorrow = platformDate(serverNow, 1);
    const pool = await request.put(`/api/admin/dividend/pools/${tomorrow}`, {
      headers: { authorization: operator },
      data: { amount: '100' },
    });
    expect(((await pool.json()) as { code: number }).code).toBe(200);
    await post(request, '/api/test/clock', null, { advanceMs: 2 * DAY_MS });
    await settleDaysBefore(request, operator, today);
    for (const day of [today, tomorrow]) {
      // Only the console settles these days: the platform's own job runs at a real 00:05 and reads no test clock.
      const run = await post<{ day: string; status: string }>(request, `/api/admin/settlement/runs/${day}/rerun`, operator, {});
      expect(run).toMatchObject({ day, status: 'completed' });
    }

    // Interest in the app: one day, 1.2000 USDT.
    await page.goto('/#/pages/index/index2');
    const order = page.getByTestId('hosting-order').first();
    await order.scrollIntoViewIfNeeded();
    await expect(order.getByTestId('hosting-order-interest')).toHaveText('1.2000 USDT');
    await expect(order.getByTestId('hosting-order-days')).toHaveText('1 / 30');

    // Mining output in the app, and the income log.
    await page.goto('/#/pages/index/index3');
    await expect(page.getByTestId('my-machine-output')).toHaveText('5.0000 RAB');
    const machines = await get<MachineIndex>(request, '/api/machine/index', token);
    expect(machines).toMatchObject({ outputSoFar: '5.0000', running: 1 });

    // The dividend: tomorrow's whole pool is this member's (the only custody of 500 or more: each run
    // of this test redeems its custody at the end), claimable in the app, claimed into cash.
    const pools = await get<DividendPool[]>(request, '/api/admin/dividend/pools', operator);
    expect(pools.find((pool) => pool.day === tomorrow)).toMatchObject({
      amount: '100.0000',
      distributed: '100.0000',
      members: 1,
    });
    expect(await get<AiInfo>(request, '/api/ai/info', token)).toMatchObject({ claimable: '100.0000', claimedTotal: '0.0000' });
    const cashBefore = (await get<UserAssets>(request, '/api/user/assets', token)).USDT.available;
    await page.goto('/#/pages/index/index4');
    await expect(page.getByTestId('dividend-validity')).toHaveAttribute('data-valid', 'true');
    await expect(page.getByTestId('dividend-claimable')).toHaveText('100.0000USDT');
    await page.getByTestId('dividend-claim').click();
    await expect(page.locator('[data-testid="dividend-record"][data-status="claimed"]')).toHaveCount(1);
    await expect(page.getByTestId('dividend-claimable')).toHaveText('0.0000USDT');
    await expect(page.getByTestId('dividend-claimed-total')).toHaveText('100.0000 USDT');
    expect(await get<AiInfo>(request, '/api/ai/info', token)).toMatchObject({ claimable: '0.0000', claimedTotal: '100.0000' });
    const cashAfter = fourPlaces(units(cashBefore) + units('100.0000'));
    expect((await get<UserAssets>(request, '/api/user/assets', token)).USDT.available).toBe(cashAfter);
    await page.goto('/#/pages/my/my');
    await expect(page.getByTestId('balance-USDT').locator('.balance-main')).toHaveText(shown(cashAfter));
    await page.goto('/#/pages/blance_record/blance_record5');
    await expect(page.locator('[data-testid="income-item"][data-type="static"]')).toHaveCount(1);
    await expect(page.locator('[data-testid="income-item"][data-type="mining"]')).toHaveCount(1);
    await expect(page.locator('[data-testid="income-item"][data-type="dividend"][data-state="arrived"]')).toHaveCount(1);
    const config = await get<HostingConfig>(request, '/api/hosting/config', token);
    expect(config.custodyBalance).toBe('1000.0000');
    await page.goto('/#/pages/index/index2');
    await expect(order.getByTestId('hosting-order-status')).toHaveText(en.hosting.status.active);

    // Redeemed early: the principal less the penalty back to cash, and no custody left for the next run's pool.
    const redeemed = await post<HostingOrder>(request, '/api/hosting/sub', token, {
      orderId: (await get<{ items: HostingOrder[] }>(request, '/api/hosting/order', token)).items[0]!.id,
      tradePassword: TRADE_PASSWORD,
    });
    expect(redeemed.status).toBe('redeemed');
    expect(units(redeemed.penalty!)).toBeGreaterThan(0n);
    expect((await get<UserAssets>(request, '/api/user/assets', token)).USDT.available).toBe(
      fourPlaces(units(cashAfter) + units('1000.0000') - units(redeemed.penalty!)),
    );
  });
  expect(errors.filter((error) => !/status of (400|409)/.test(error))).toEqual([]);
});
