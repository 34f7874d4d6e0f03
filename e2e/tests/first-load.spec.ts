import type { Page, Request } from '@playwright/test';
import { collectErrors, prepareStorage } from '../support/app';
import { expect, test } from '../support/fixtures';

/**
 * A launch on Home (decision 047): the page's launch script asks for Home's code and the early file
 * sends Home's first read while the start file is still on its way; the first screen shows the
 * total at once, and the read is not asked twice.
 */

/** Records, before any script of the app runs, what Home's first commit held. */
async function recordFirstHomeCommit(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector('.home-screen')) return;
      const total = document.querySelector('[data-testid="total-assets"]');
      (window as unknown as { firstHomeTotal: string | null }).firstHomeTotal = total ? total.textContent : null;
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

/** Holds the start file until `release` is called; answers when it was asked for. */
async function holdStartFile(page: Page): Promise<{ requested: Promise<number>; release: () => void }> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let markRequested: (atMs: number) => void = () => undefined;
  const requested = new Promise<number>((resolve) => (markRequested = resolve));
  await page.route(/\/assets\/start-[^/]+\.js$/, async (route) => {
    markRequested(Date.now());
    await released;
    await route.continue();
  });
  return { requested, release };
}

test('a launch on Home reads the total alongside the code, shows it in the first screen, and asks once', async ({
  page,
  members,
  fund,
}) => {
  const member = await members.create('first-load');
  await fund(member.accountId, 'USDT', '321.5');
  await prepareStorage(page, { credential: member.token, locale: 'en' });
  await recordFirstHomeCommit(page);
  const errors = collectErrors(page);
  const assetReads: Request[] = [];
  const codeRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/user/assets') assetReads.push(request);
    if (/\/assets\/(home|TabBarLayout)[^/]*\.js$/.test(request.url())) codeRequests.push(request.url());
  });
  const start = await holdStartFile(page);

  // Not waiting for the load event, which waits for the held file.
  await page.goto('/#/pages/index/index', { waitUntil: 'commit' });
  await start.requested;
  // While the start file is held, Home's code has been asked for and its read sent.
  await expect.poll(() => assetReads.length).toBe(1);
  await expect.poll(() => codeRequests.length).toBeGreaterThan(0);
  const early = assetReads[0]!;
  expect(early.method()).toBe('GET');
  expect(await early.headerValue('authorization')).toBe(member.token);
  expect(await early.headerValue('lang')).toBe('EN');
  start.release();

  await expect(page.getByTestId('total-assets')).toHaveText('321.5000USDT');
  expect(await page.evaluate(() => (window as unknown as { firstHomeTotal?: string | null }).firstHomeTotal)).toBe(
    '321.5000USDT',
  );
  // The rest of Home has loaded (its later reads answered): by then a second read of the total
  // would have gone out with the screen's mount.
  await expect(page.getByTestId('home-news-financial')).toBeVisible();
  expect(assetReads).toHaveLength(1);
  expect(errors).toEqual([]);
});

test('an early read made with a credential that is gone is not shown: the visitor lands on log-in', async ({ page, members }) => {
  const member = await members.create('first-load-out');
  // The member logs out elsewhere: the stored credential no longer opens a session.
  const logout = await page.request.post('/api/user/logout', { headers: { authorization: member.token }, data: {} });
  expect(logout.ok()).toBe(true);
  await prepareStorage(page, { credential: member.token, locale: 'en' });
  const assetReads: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/user/assets') assetReads.push(request);
  });

  await page.goto('/#/pages/index/index');
  await expect(page.locator('.login-title')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('Authorization'))).toBeNull();
  expect(assetReads.length).toBeGreaterThan(0);
});
