import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import type { Locale } from '@custos/contract';
import { collectErrors, hashPath, prepareStorage } from './app';
import type { TestMember } from './fixtures';

/** One member's app in a browser context of its own, opened on `path` once its live channel is registered. */
export async function openMemberApp(
  browser: Browser,
  member: TestMember,
  locale: Locale,
  path: string,
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 780 } });
  const page = await context.newPage();
  const errors = collectErrors(page);
  await prepareStorage(page, { credential: member.token, locale });
  const channel = page.waitForResponse((response) => response.url().endsWith('/api/user/events') && response.status() === 200);
  await page.goto(`/#${path}`);
  await channel;
  return { page, errors };
}

/** Moves within the app (a hash change, no reload: the live channel stays open). */
export async function goWithin(page: Page, path: string): Promise<void> {
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, path);
  await expect.poll(() => hashPath(page)).toBe(path.split('?')[0]);
}

/** Confirms the member app's confirmation dialog (antd-mobile Dialog.confirm). */
export async function confirmAppDialog(page: Page, confirmText: string): Promise<void> {
  await page.locator('.adm-dialog-button', { hasText: confirmText }).click();
}

async function call<T>(request: APIRequestContext, path: string, token: string, body?: object): Promise<T> {
  const response = body
    ? await request.post(path, { headers: { authorization: token }, data: body })
    : await request.get(path, { headers: { authorization: token } });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  expect(envelope.code, `${path}: ${envelope.message}`).toBe(200);
  return envelope.data;
}

/**
 * A sell listing posted through the API with a bank card of the seller's (the screens that do the
 * same are tested in otc.spec): quantity and per-order limits in USDT, the price in the platform's fiat.
 */
export async function postSellListingViaApi(
  request: APIRequestContext,
  seller: TestMember,
  listing: { quantity: string; price: string; minPerOrder: string; maxPerOrder: string },
): Promise<{ id: string }> {
  const card = `62220${Array.from(crypto.getRandomValues(new Uint8Array(11)), (byte) => byte % 10).join('')}`;
  const method = await call<{ id: string }>(request, '/api/withdraw/add_bank', seller.token, {
    bankName: 'Bank of Example',
    cardNumber: card,
    holderName: 'Seller Example',
    branch: 'Main branch',
  });
  return call<{ id: string }>(request, '/api/otc/post', seller.token, {
    side: 'sell',
    ...listing,
    splittable: true,
    paymentMethodIds: [method.id],
    paymentWindowMinutes: 15,
    terms: '',
    idempotencyKey: crypto.randomUUID(),
  });
}

/** Takes part of a sell listing through the API (buys USDT): the new order. */
export async function buyViaApi(
  request: APIRequestContext,
  buyer: TestMember,
  listingId: string,
  amount: string,
): Promise<{ id: string; orderNo: string }> {
  return call<{ id: string; orderNo: string }>(request, '/api/otc/buy', buyer.token, {
    listingId,
    amount,
    idempotencyKey: crypto.randomUUID(),
  });
}
