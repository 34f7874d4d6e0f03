import { translate, type Locale } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import zhHans from '../../web/src/app/i18n/locales/zh-Hans.json' with { type: 'json' };
import { collectErrors, hashPath, prepareStorage } from '../support/app';
import { expect, test, TRADE_PASSWORD } from '../support/fixtures';
import { approveRealName } from '../support/identity';
import { confirmAppDialog, goWithin as go, openMemberApp as openApp } from '../support/otc';

/** A real 1×1 PNG, as a phone camera's file would be uploaded. */
const PHOTO = {
  name: 'receipt.png',
  mimeType: 'image/png',
  buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
};

type Catalogue = typeof en;

/** The English trade is paid by Alipay (an OTC-only method), the Chinese one by bank card. */
const CASES: { locale: Locale; L: Catalogue; kind: 'alipay' | 'bank'; detail: string; chat: [string, string] }[] = [
  {
    locale: 'en',
    L: en,
    kind: 'alipay',
    detail: 'seller.otc@alipay.example',
    chat: ['Paying now from my own account', 'Thanks, I will check and release'],
  },
  { locale: 'zh-Hans', L: zhHans, kind: 'bank', detail: '招商银行', chat: ['我现在用本人账户付款', '好的，到账后马上放币'] },
];

for (const { locale, L, kind, detail, chat } of CASES) {
  test(`OTC in ${locale}: list, take, chat, mark paid, release; both members see every step live`, async ({
    browser,
    request,
    members,
    fund,
  }) => {
    test.setTimeout(240_000);
    const seller = await members.create('otc-seller', { tradePassword: true });
    const card = `62220${Array.from(crypto.getRandomValues(new Uint8Array(11)), (byte) => byte % 10).join('')}`;
    const buyer = await members.create('otc-buyer');
    await approveRealName(request, seller, 'Seller Example');
    await approveRealName(request, buyer, 'Buyer Example');
    await fund(seller.accountId, 'USDT', '1000');

    // ── The seller adds a payment method from the post screen (the form offers WeChat Pay and Alipay
    // as OTC-only details) and lists 500 USDT.
    const sellerApp = await openApp(browser, seller, locale, '/pages/otc/post?side=sell');
    const s = sellerApp.page;
    await expect(s.getByTestId('otc-post-no-methods')).toHaveText(L.otc.postForm.noMethods);
    await s.getByTestId('otc-add-method').click();
    await expect.poll(() => hashPath(s)).toBe('/pages/withdraw/withdraw4');
    await expect(s.getByTestId('withdraw-otc-note')).toHaveText(L.withdraw.methods.otcNote);
    if (kind === 'alipay') {
      await s.getByTestId('withdraw-method-kind').getByText(L.withdraw.methods.alipay).click();
      await s.getByTestId('withdraw-alipay-holderName').locator('input').fill('Seller Example');
      await s.getByTestId('withdraw-alipay-account').locator('input').fill(detail);
    } else {
      await s.getByTestId('withdraw-bank-bankName').locator('input').fill(detail);
      await s.getByTestId('withdraw-bank-cardNumber').locator('input').fill(card);
      await s.getByTestId('withdraw-bank-holderName').locator('input').fill('Seller Example');
      await s.getByTestId('withdraw-bank-branch').locator('input').fill('Main branch');
    }
    await s.getByTestId(`withdraw-${kind}-submit`).click();
    await expect.poll(() => hashPath(s)).toBe('/pages/otc/post');

    const method = s.getByTestId('otc-method-option').filter({ hasText: detail });
    await expect(method).toHaveAttribute('data-type', kind);
    await s.getByTestId('otc-post-quantity').locator('input').fill('500');
    await s.getByTestId('otc-post-price').locator('input').fill('7.1');
    await s.getByTestId('otc-post-minPerOrder').locator('input').fill('10');
    await s.getByTestId('otc-post-maxPerOrder').locator('input').fill('500');
    await method.click();
    await s.getByTestId('otc-post-terms').locator('textarea:not([readonly])').fill('Pay from an account in your own name only');
    // Quantity + 0.1 % fee + the 50 USDT deposit are held at once.
    await expect(s.getByTestId('otc-post-fee')).toHaveText('0.5000 USDT');
    await expect(s.getByTestId('otc-post-held')).toHaveText('550.5000 USDT');
    await s.getByTestId('otc-post-submit').click();
    await expect.poll(() => hashPath(s)).toBe('/pages/blance_record/blance_record9');
    const myListing = s.getByTestId('otc-my-listing').first();
    await expect(myListing).toHaveAttribute('data-state', 'matching');
    await expect(myListing.getByTestId('otc-my-listing-available')).toHaveText('500.0000 USDT');
    await expect(myListing.getByTestId('otc-my-listing-escrow')).toHaveText('500.5000 USDT');

    // ── The buyer finds it on the Trade tab (buy USDT) under the guide price and takes 100 USDT.
    const buyerApp = await openApp(browser, buyer, locale, '/pages/index/index1');
    const b = buyerApp.page;
    await expect(b.getByTestId('otc-guide-price')).toHaveText('7.2000');
    await expect(b.getByTestId('otc-real-name')).toHaveCount(0);
    await b.getByTestId('otc-filter-type').getByText(L.otc.paymentTypes[kind]).click();
    await b.getByTestId('otc-filter-amount').locator('input').fill('100');
    const listing = b.getByTestId('otc-listing').filter({ hasText: seller.nickname });
    await expect(listing.getByTestId('otc-listing-price')).toContainText('7.1000');
    await expect(listing.getByTestId('otc-listing-available')).toHaveText('500.0000 USDT');
    await expect(listing.getByTestId('otc-payment-types')).toContainText(L.otc.paymentTypes[kind]);
    await listing.getByTestId('otc-take').click();
    const sheet = b.getByTestId('otc-take-sheet');
    await sheet.getByTestId('amount-input').locator('input').fill('100');
    await expect(sheet.getByTestId('otc-take-fiat')).toHaveText('710.00 CNY');
    await expect(sheet.getByTestId('otc-take-terms')).toContainText('Pay from an account in your own name only');
    await sheet.getByTestId('otc-take-submit').click();
    await expect.poll(() => hashPath(b)).toBe('/pages/order_detail/order_detail');
    await expect(b.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'pending_payment');
    await expect(b.getByTestId('otc-order-role')).toHaveText(L.otc.roles.buyer);
    await expect(b.getByTestId('otc-countdown')).toHaveText(/^00:1[0-5]:\d\d$/);
    await expect(b.getByTestId('otc-order-fiat')).toHaveText('710.00 CNY');
    // Only the buyer of an open order sees where to pay.
    if (kind === 'alipay') {
      await expect(b.getByTestId('otc-payment-account')).toHaveText(detail);
    } else {
      await expect(b.getByTestId('otc-payment-card')).toHaveText(card);
      await expect(b.getByTestId('otc-payment-bank')).toHaveText(detail);
    }
    await expect(b.getByTestId('otc-payment-holder')).toHaveText('Seller Example');

    // The seller's listing follows without a reload; the seller opens the order from "My orders".
    await expect(myListing.getByTestId('otc-my-listing-available')).toHaveText('400.0000 USDT');
    await expect(myListing.getByTestId('otc-my-listing-in-orders')).toHaveText('100.0000 USDT');
    await go(s, '/pages/blance_record/blance_record10?role=seller');
    const sellerOrder = s.getByTestId('otc-order-item').first();
    await expect(sellerOrder).toHaveAttribute('data-state', 'pending_payment');
    await expect(sellerOrder.getByTestId('otc-order-item-fiat')).toHaveText('710.00 CNY');
    await sellerOrder.click();
    await expect.poll(() => hashPath(s)).toBe('/pages/order_detail/order_detail');
    await expect(s.getByTestId('otc-order-role')).toHaveText(L.otc.roles.seller);
    await expect(s.getByTestId('otc-status-hint')).toHaveText(L.otc.order.waitForPayment);
    await expect(s.getByTestId('otc-pay-to')).toHaveCount(0);
    // Before payment the seller may still cancel (and may release early, as the server allows).
    await expect(s.getByTestId('otc-cancel')).toBeVisible();

    // ── The order chat: each side sees the other's message arrive.
    await s.getByTestId('otc-tab-chat').click();
    await expect(s.getByTestId('otc-chat-welcome')).toHaveText(L.otc.chat.welcome);
    await b.getByTestId('otc-tab-chat').click();
    await b.getByTestId('otc-chat-input').locator('textarea:not([readonly])').fill(chat[0]);
    await b.getByTestId('otc-chat-send').click();
    const fromBuyer = s.getByTestId('otc-chat-message').filter({ hasText: chat[0] });
    await expect(fromBuyer).toHaveAttribute('data-sender', 'buyer');
    await expect(fromBuyer).toContainText(L.otc.chat.buyer);
    await s.getByTestId('otc-chat-input').locator('textarea:not([readonly])').fill(chat[1]);
    await s.getByTestId('otc-chat-send').click();
    await expect(b.getByTestId('otc-chat-message').filter({ hasText: chat[1] })).toHaveAttribute('data-sender', 'seller');
    // A payment receipt as an image.
    await b.getByTestId('otc-chat-image-input').setInputFiles(PHOTO);
    await expect(s.getByTestId('otc-chat-message').last().getByTestId('otc-chat-image').locator('img')).toBeVisible();

    // ── The buyer marks it paid: the seller's screen turns to "paid" with the release button, live.
    await s.getByTestId('otc-tab-details').click();
    await b.getByTestId('otc-tab-details').click();
    await b.getByTestId('otc-confirm-pay').click();
    await confirmAppDialog(b, L.common.confirm);
    await expect(b.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'paid');
    await expect(b.getByTestId('otc-status-hint')).toHaveText(L.otc.order.waitForRelease);
    await expect(b.getByTestId('otc-countdown')).toHaveAttribute('data-kind', 'release');
    await expect(s.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'paid');
    await expect(s.getByTestId('otc-status-hint')).toHaveText(L.otc.order.checkPayment);
    await expect(s.getByTestId('otc-cancel')).toHaveCount(0);

    // ── The seller releases with the trading password (a wrong one is refused and moves nothing).
    await s.getByTestId('otc-release').click();
    const release = s.getByTestId('otc-release-sheet');
    await release.getByTestId('trade-password-input').locator('input').fill('not-the-password');
    const refused = s.waitForResponse((response) => response.url().endsWith('/api/otc/release'));
    await release.getByTestId('otc-release-submit').click();
    // Refused for that reason, in the member's language: not merely "not 200".
    expect((await (await refused).json()) as unknown).toMatchObject({
      code: 400,
      message: translate(locale, 'auth.trade_password_wrong'),
    });
    await expect(s.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'paid');
    await release.getByTestId('trade-password-input').locator('input').fill(TRADE_PASSWORD);
    await release.getByTestId('otc-release-submit').click();
    await expect(s.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'completed');
    await expect(s.getByTestId('otc-release-sheet')).toHaveCount(0);

    // The buyer's screen completes without a reload: the USDT arrived and the payment details are gone.
    await expect(b.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'completed');
    await expect(b.getByTestId('otc-order-receives')).toHaveText('100.0000 USDT');
    await expect(b.getByTestId('otc-pay-to')).toHaveCount(0);
    await expect(b.getByTestId('otc-trail-step')).toHaveCount(3);
    await expect(b.getByTestId('otc-trail-step').last()).toHaveAttribute('data-step', 'released');
    await go(b, '/pages/index/index1');
    await expect(b.getByTestId('otc-my-available')).toHaveText(L.otc.myAvailable.replace('{{amount}}', '100.0000'));
    await go(b, '/pages/blance_record/blance_record10');
    const bought = b.getByTestId('otc-order-item').first();
    await expect(bought).toHaveAttribute('data-state', 'completed');
    await expect(bought.getByTestId('otc-order-step')).toHaveCount(3);

    // The seller's listing: 400 left on the market, 100 completed, nothing in orders.
    await go(s, '/pages/blance_record/blance_record9');
    const listed = s.getByTestId('otc-my-listing').first();
    await expect(listed.getByTestId('otc-my-listing-available')).toHaveText('400.0000 USDT');
    await expect(listed.getByTestId('otc-my-listing-completed')).toHaveText('100.0000 USDT');
    await expect(listed.getByTestId('otc-my-listing-in-orders')).toHaveText('0.0000 USDT');
    await listed.getByTestId('otc-my-listing-trail').click();
    await expect(listed.getByTestId('otc-trail-step').first()).toHaveAttribute('data-step', 'posted');

    // An Alipay account is an OTC payment detail, never a withdrawal target.
    if (kind === 'alipay') {
      await go(s, '/pages/withdraw/withdraw2');
      const saved = s.locator('[data-testid="withdraw-method-item"][data-method-type="alipay"]');
      await expect(saved.getByTestId('withdraw-method-otc-only')).toHaveText(L.withdraw.methods.otcOnly);
    }

    // The only failed call was the refused release (its HTTP status is logged by the browser).
    expect(sellerApp.errors.filter((error) => !/status of 4\d\d/.test(error))).toEqual([]);
    expect(buyerApp.errors).toEqual([]);
  });
}

test('a member without real-name verification sees the market and is led to verify before trading', async ({ page, members }) => {
  const errors = collectErrors(page);
  const member = await members.create('otc-unverified');
  await prepareStorage(page, { credential: member.token, locale: 'en' });
  await page.goto('/#/pages/index/index1');
  await expect(page.getByTestId('otc-real-name')).toContainText(en.otc.realNameRequired);
  await page.getByTestId('otc-post').click();
  await expect.poll(() => hashPath(page)).toBe('/pages/otc/post');
  await page.getByTestId('otc-post-verify').click();
  await expect.poll(() => hashPath(page)).toBe('/pages/setting/setting3');
  expect(errors).toEqual([]);
});
