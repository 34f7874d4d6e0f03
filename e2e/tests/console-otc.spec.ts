import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { fieldLabel, money, otcFee, translate, type OperatorRole, type OtcSettings } from '@custos/contract';
import { collectErrors } from '../support/app';
import { confirmDialog, openConsolePage } from '../support/console';
import { expect, test, TRADE_PASSWORD, type TestMember, type TestOperator } from '../support/fixtures';
import { withPlatformLock } from '../support/locks';
import { approveRealName, uploadImage } from '../support/real-name';

/**
 * The operator's side of OTC (issue 14, decisions 031 and 033). Members trade through the API the way
 * the app does it (register, real name, a bank card, funds, a listing, a take, chat, "I have paid",
 * an appeal with evidence); an operator then opens the appeal in the console, reads both sides, the
 * evidence and the chat, and rules. Appeals open only once the release window has passed after
 * "I have paid", so these tests move the server's clock forward (project "advancing-clock", holding
 * the server-clock lock while they do). Every test has members and operators of its own.
 */
test.describe.configure({ timeout: 180_000 });

type Envelope<T> = { code: number; message: string; data: T };

async function call<T>(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  authorization: string,
  data?: object,
): Promise<T> {
  const response = await request.fetch(path, { method, headers: authorization ? { authorization } : {}, data });
  const envelope = (await response.json()) as Envelope<T>;
  expect(envelope.code, `${method} ${path}: ${envelope.message}`).toBe(200);
  return envelope.data;
}

const member = (trader: TestMember) => trader.token;
const bearer = (operator: TestOperator) => `Bearer ${operator.token}`;

interface Trader extends TestMember {
  /** The trader's bank card, as an OTC payment method. */
  cardId: string;
}

/** A member ready to trade OTC: trading password, real name approved, a bank card, and USDT. */
async function trader(
  request: APIRequestContext,
  members: { create: (name: string, options: { tradePassword: boolean }) => Promise<TestMember> },
  fund: (accountId: string, asset: 'USDT', amount: string) => Promise<void>,
  reviewer: TestOperator,
  name: string,
  usdt: string,
): Promise<Trader> {
  const created = await members.create(name, { tradePassword: true });
  await approveRealName(request, created, reviewer);
  const card = await call<{ id: string }>(request, 'POST', '/api/withdraw/add_bank', member(created), {
    bankName: 'Industrial and Commercial Bank of China',
    cardNumber: `6222${String(Date.now()).slice(-12)}`,
    holderName: 'E2E Trader',
    branch: 'Shanghai Pudong',
  });
  if (usdt !== '0') await fund(created.accountId, 'USDT', usdt);
  return { ...created, cardId: card.id };
}

async function usdt(request: APIRequestContext, trader: TestMember): Promise<{ available: string; held: string }> {
  return (await call<{ USDT: { available: string; held: string } }>(request, 'GET', '/api/user/assets', member(trader))).USDT;
}

/** The operator's guide price (a listing at it is always in the band) and the maker's fee rate. */
async function market(request: APIRequestContext, trader: TestMember): Promise<{ guidePrice: string; makerFeePct: string }> {
  return call<{ guidePrice: string; makerFeePct: string }>(request, 'GET', '/api/otc/info', member(trader));
}

async function chatText(request: APIRequestContext, trader: TestMember, orderId: string, text: string): Promise<void> {
  await call(request, 'POST', '/api/otc/chat_send', member(trader), { orderId, text });
}

async function chatImage(request: APIRequestContext, trader: TestMember, orderId: string): Promise<void> {
  const imageId = await uploadImage(request, trader, 'chat');
  await call(request, 'POST', '/api/otc/chat_send', member(trader), { orderId, imageId });
}

/**
 * Moves the server's clock past the order's release window (the first moment an appeal is allowed),
 * then appeals as `by`. The caller holds the server-clock lock.
 */
async function appealOnceAllowed(
  request: APIRequestContext,
  by: TestMember,
  orderId: string,
  appeal: { reason: string; description: string; imageIds: string[] },
): Promise<void> {
  const order = await call<{ appealAllowedAt: string | null }>(request, 'GET', `/api/otc/order_info?id=${orderId}`, member(by));
  expect(order.appealAllowedAt).not.toBeNull();
  const { now } = await call<{ now: string }>(request, 'POST', '/api/test/clock', '', { advanceMs: 0 });
  const advanceMs = Math.max(0, Date.parse(order.appealAllowedAt!) - Date.parse(now) + 1_000);
  await call(request, 'POST', '/api/test/clock', '', { advanceMs });
  await call(request, 'POST', '/api/otc/appeal', member(by), { orderId, ...appeal });
}

/**
 * Operators made while the server's clock stands still: the other worker's test may move it, and an
 * operator's first authenticator code is made from the server's time.
 */
function steadyOperators<const R extends readonly OperatorRole[]>(
  operators: { create: (role: OperatorRole) => Promise<TestOperator> },
  roles: R,
): Promise<{ [K in keyof R]: TestOperator }> {
  return withPlatformLock('server-clock', () => Promise.all(roles.map((role) => operators.create(role)))) as Promise<{
    [K in keyof R]: TestOperator;
  }>;
}

/** Audit entries of an action (by a super admin, who may read the log). */
async function auditEntries(
  request: APIRequestContext,
  auditor: TestOperator,
  action: string,
  targetId?: string,
): Promise<{ operator: string | null; targetId: string | null; after: unknown }[]> {
  const parameters = new URLSearchParams({ action, pageSize: '100' });
  if (targetId) parameters.set('targetId', targetId);
  return (
    await call<{ items: { operator: string | null; targetId: string | null; after: unknown }[] }>(
      request,
      'GET',
      `/api/admin/audit?${parameters.toString()}`,
      bearer(auditor),
    )
  ).items;
}

/** Opens the appeal of an order from the queue and waits for the order's page. */
async function openAppeal(page: Page, orderNo: string): Promise<void> {
  await openConsolePage(page, 'OTC appeals', /OTC$/);
  const row = page.locator(`[data-testid="otc-appeal-row"][data-order-no="${orderNo}"]`);
  await row.getByTestId('otc-appeal-open').click();
  await expect(page.getByTestId('otc-order-no')).toHaveText(orderNo);
  await expect(page.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'appeal');
}

/** Each private image (evidence, chat) is drawn: fetched with the operator's session and decoded. */
async function expectImagesDrawn(scope: Locator, testId: string, count: number): Promise<void> {
  // antd's Image puts the test id on the <img> itself or on its wrapper, by version.
  const images = scope.locator(`img[data-testid="${testId}"], [data-testid="${testId}"] img`);
  await expect(images).toHaveCount(count);
  for (let index = 0; index < count; index += 1) {
    await expect.poll(() => images.nth(index).evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  }
}

test('an appeal by the buyer: the operator reads the evidence and the chat, releases to the buyer, and the buyer is paid', async ({
  request,
  members,
  operators,
  fund,
  openConsole,
}) => {
  // Everything up to the appeal happens while the server's clock is this test's to move.
  const { order, listingNo, seller, buyer, arbiter, auditor, makerFeePct } = await withPlatformLock('server-clock', async () => {
    const [reviewer, arbiter, auditor] = await Promise.all([
      operators.create('reviewer'),
      operators.create('support'),
      operators.create('super_admin'),
    ]);
    const seller = await trader(request, members, fund, reviewer, 'otc-seller', '200');
    const buyer = await trader(request, members, fund, reviewer, 'otc-buyer', '0');

    // The seller lists 100 USDT at the guide price; the buyer takes 40 of it.
    const { guidePrice: price, makerFeePct } = await market(request, seller);
    const listing = await call<{ id: string; listingNo: string }>(request, 'POST', '/api/otc/post', member(seller), {
      side: 'sell',
      quantity: '100',
      price,
      minPerOrder: '10',
      maxPerOrder: '100',
      splittable: true,
      paymentMethodIds: [seller.cardId],
      paymentWindowMinutes: 15,
      terms: 'Bank transfer only, in your own name.',
      idempotencyKey: randomUUID(),
    });
    const order = await call<{ id: string; orderNo: string }>(request, 'POST', '/api/otc/buy', member(buyer), {
      listingId: listing.id,
      amount: '40',
      idempotencyKey: randomUUID(),
    });
    await chatText(request, buyer, order.id, 'Transferred from my ICBC card just now, receipt attached.');
    await chatImage(request, buyer, order.id);
    await chatText(request, seller, order.id, 'Nothing has arrived on my side yet.');
    await call(request, 'POST', '/api/otc/confirm_pay', member(buyer), { orderId: order.id });
    const evidence = await uploadImage(request, buyer, 'otc');
    await appealOnceAllowed(request, buyer, order.id, {
      reason: 'paid_not_released',
      description: 'Paid in full from my own card; the seller does not release.',
      imageIds: [evidence],
    });
    // The seller answers with an appeal of their own.
    await call(request, 'POST', '/api/otc/appeal', member(seller), {
      orderId: order.id,
      reason: 'payment_not_received',
      description: 'No transfer in my statement yet.',
      imageIds: [],
    });
    return { order, listingNo: listing.listingNo, seller, buyer, arbiter, auditor, makerFeePct };
  });

  const page = await openConsole(arbiter);
  const errors = collectErrors(page);
  await openAppeal(page, order.orderNo);

  // Both parties with their reputations; the buyer's appeal with its evidence; the whole chat; the trail.
  await expect(page.getByTestId('otc-buyer-email')).toHaveText(buyer.email);
  await expect(page.getByTestId('otc-seller-email')).toHaveText(seller.email);
  await expect(page.getByTestId('otc-seller-reputation')).toContainText('completed');
  const appeal = page.locator('[data-testid="otc-appeal"][data-by="buyer"]');
  await expect(appeal.getByTestId('otc-appeal-reason')).toHaveText('Paid, but the seller did not release');
  await expect(appeal.getByTestId('otc-appeal-description')).toHaveText(
    'Paid in full from my own card; the seller does not release.',
  );
  await expectImagesDrawn(appeal, 'otc-evidence-image', 1);
  const answer = page.locator('[data-testid="otc-appeal"][data-by="seller"]');
  await expect(answer.getByTestId('otc-appeal-reason')).toHaveText('Payment not received');
  await expect(answer.getByTestId('otc-appeal-description')).toHaveText('No transfer in my statement yet.');
  const chat = page.getByTestId('otc-chat');
  await expect(chat.getByTestId('otc-chat-message')).toHaveCount(3);
  await expect(chat.getByTestId('otc-chat-message').nth(0)).toContainText('Transferred from my ICBC card just now');
  await expect(chat.getByTestId('otc-chat-message').nth(0)).toContainText(`Buyer · ${buyer.email}`);
  await expect(chat.getByTestId('otc-chat-message').nth(2)).toContainText(`Seller · ${seller.email}`);
  await expectImagesDrawn(chat, 'otc-chat-image', 1);
  await expect(page.getByTestId('otc-trail').locator('[data-step="paid"]')).toHaveCount(1);
  // Both appeals are on the trail.
  await expect(page.getByTestId('otc-trail').locator('[data-step="appealed"]')).toHaveCount(2);
  // The order holds its 40 USDT and its share of the seller-lister's fee.
  await expect(page.getByTestId('otc-order-escrow')).toHaveText(
    money.formatMoney(money.add(money.parseMoney('40'), money.parseMoney(otcFee('40.0000', makerFeePct)))),
  );

  // A ruling needs a note; then it is confirmed once.
  await page.getByTestId('otc-ruling-release').click();
  await page.getByTestId('otc-ruling-submit').click();
  await expect(page.getByTestId('otc-ruling-problem')).toHaveText(
    translate('en', 'reason.required', { field: fieldLabel('en', 'note') }),
  );
  await page.getByTestId('otc-ruling-note').fill('The bank receipt matches the order; released to the buyer.');
  await page.getByTestId('otc-ruling-submit').click();
  await expect(page.getByTestId('otc-ruling-summary')).toContainText(
    `40.0000 USDT held in escrow goes to the buyer ${buyer.email}`,
  );
  expect(await confirmDialog(page, 'Confirm the ruling', 'Rule', `/api/admin/otc/orders/${order.id}/rule`)).toMatchObject({
    code: 200,
  });

  // The order completed, its escrow went to the buyer, and the queue no longer lists it.
  await expect(page.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'completed');
  await expect(page.getByTestId('otc-order-escrow')).toHaveText('0.0000');
  await expect(page.getByTestId('otc-ruling')).toHaveCount(0);
  await expect(appeal.getByTestId('otc-appeal-ruling-note')).toHaveText(
    'The bank receipt matches the order; released to the buyer.',
  );
  await expect(page.getByTestId('otc-trail').locator('[data-step="ruled"]')).toHaveCount(1);
  expect(await usdt(request, buyer)).toEqual({ available: '40.0000', held: '0.0000' });
  expect(await auditEntries(request, auditor, 'otc.appeal_ruled', order.id)).toEqual([
    expect.objectContaining({
      operator: arbiter.username,
      after: expect.objectContaining({ ruling: 'release_to_buyer' }),
    }),
  ]);
  await openConsolePage(page, 'OTC appeals', /OTC$/);
  await expect(page.locator(`[data-testid="otc-appeal-row"][data-order-no="${order.orderNo}"]`)).toHaveCount(0);

  // The orders list shows it completed, and leads back to it.
  await openConsolePage(page, 'OTC orders', /OTC$/);
  await page.getByTestId('otc-orders-search').locator('input').fill(order.orderNo);
  await page.getByTestId('otc-orders-search').getByRole('button', { name: 'Search' }).click();
  const row = page.locator(`[data-testid="otc-order-row"][data-order-no="${order.orderNo}"]`);
  await expect(row).toHaveAttribute('data-state', 'completed');
  await row.getByTestId('otc-order-open').click();
  await expect(page.getByTestId('otc-order-no')).toHaveText(order.orderNo);

  // The listing leads to its orders, and on to this one.
  await openConsolePage(page, 'OTC listings', /OTC$/);
  await page.getByTestId('otc-listings-search').locator('input').fill(listingNo);
  await page.getByTestId('otc-listings-search').getByRole('button', { name: 'Search' }).click();
  const listingRow = page.locator(`[data-testid="otc-listing-row"][data-listing-no="${listingNo}"]`);
  await expect(listingRow).toHaveAttribute('data-state', 'matching');
  await expect(listingRow.getByTestId('otc-listing-available')).toHaveText('60.0000');
  await listingRow.getByTestId('otc-listing-orders').click();
  await page.locator(`[data-testid="otc-order-row"][data-order-no="${order.orderNo}"]`).getByTestId('otc-order-open').click();
  await expect(page.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'completed');

  // The buyer's balances in the console show the released USDT.
  await openConsolePage(page, 'Members');
  await page.getByPlaceholder('E-mail, nickname or invitation code').fill(buyer.email);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('cell', { name: buyer.email }).click();
  await page.getByRole('tab', { name: 'Balances & ledger' }).click();
  await expect(page.getByTestId(`balances-${buyer.accountId}`).getByTestId('balance-USDT-total')).toHaveText('40.0000');
  expect(errors).toEqual([]);
});

test('an appeal against a buy listing’s lister: returned to the seller, the lister’s deposit forfeited and the lister suspended', async ({
  request,
  members,
  operators,
  fund,
  openConsole,
}) => {
  const { order, seller, lister, deposit, page, errors } = await withPlatformLock('server-clock', async () => {
    const [reviewer, arbiter] = await Promise.all([operators.create('reviewer'), operators.create('support')]);
    const { listingDeposit: deposit } = await call<OtcSettings>(request, 'GET', '/api/admin/otc/settings', bearer(arbiter));
    expect(money.isPositive(money.parseMoney(deposit)), 'the seeded security deposit is on').toBe(true);
    // The lister buys USDT: only the security deposit is held from them.
    const lister = await trader(request, members, fund, reviewer, 'otc-lister', '60');
    const seller = await trader(request, members, fund, reviewer, 'otc-taker', '40');
    const { guidePrice: price } = await market(request, lister);
    const listing = await call<{ id: string }>(request, 'POST', '/api/otc/post', member(lister), {
      side: 'buy',
      quantity: '100',
      price,
      minPerOrder: '10',
      maxPerOrder: '100',
      splittable: true,
      paymentMethodIds: [lister.cardId],
      paymentWindowMinutes: 15,
      terms: '',
      idempotencyKey: randomUUID(),
    });
    const order = await call<{ id: string; orderNo: string }>(request, 'POST', '/api/otc/sell', member(seller), {
      listingId: listing.id,
      amount: '40',
      paymentMethodIds: [seller.cardId],
      tradePassword: TRADE_PASSWORD,
      idempotencyKey: randomUUID(),
    });
    await call(request, 'POST', '/api/otc/confirm_pay', member(lister), { orderId: order.id });
    await chatText(request, seller, order.id, 'No transfer has reached my card.');
    // The arbiter has the queue open, live, before the appeal is made.
    const page = await openConsole(arbiter);
    const errors = collectErrors(page);
    await openConsolePage(page, 'OTC appeals', /OTC$/);
    await expect(page.getByTestId('otc-live')).toHaveText('Live');
    await appealOnceAllowed(request, seller, order.id, {
      reason: 'payment_not_received',
      description: 'The buyer marked the order paid but nothing arrived; statement attached.',
      imageIds: [await uploadImage(request, seller, 'otc')],
    });
    return { order, seller, lister, deposit, page, errors };
  });
  expect(await usdt(request, seller)).toEqual({ available: '0.0000', held: '40.0000' });

  // The appeal reaches the open queue through the live channel (well within the 15 s fallback).
  const row = page.locator(`[data-testid="otc-appeal-row"][data-order-no="${order.orderNo}"]`);
  await expect(row).toHaveCount(1, { timeout: 5_000 });
  await row.getByTestId('otc-appeal-open').click();
  await expect(page.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'appeal');
  const appeal = page.locator('[data-testid="otc-appeal"][data-by="seller"]');
  await expect(appeal.getByTestId('otc-appeal-reason')).toHaveText('Payment not received');
  await expectImagesDrawn(appeal, 'otc-evidence-image', 1);
  await expect(page.getByTestId('otc-chat').getByTestId('otc-chat-message')).toHaveCount(1);
  await expect(page.getByTestId('otc-order-deposit')).toHaveText(`${deposit} USDT (held)`);

  // Releasing to the buyer would find for the lister: no deposit to forfeit then.
  await page.getByTestId('otc-ruling-release').click();
  const forfeit = page.getByRole('checkbox', { name: /Forfeit the lister/ });
  await expect(forfeit).toBeDisabled();
  await page.getByTestId('otc-ruling-return').click();
  await expect(forfeit).toBeEnabled();
  await forfeit.check();
  await page.getByRole('checkbox', { name: /Suspend the buyer from OTC/ }).check();
  await page.getByTestId('otc-ruling-days').fill('7');
  await page.getByTestId('otc-ruling-note').fill('No payment reached the seller; the buyer marked paid without paying.');
  await page.getByTestId('otc-ruling-submit').click();
  const summary = page.getByTestId('otc-ruling-summary');
  await expect(summary).toContainText(`40.0000 USDT held in escrow returns to the seller ${seller.email}`);
  await expect(summary).toContainText(`The lister ${lister.email} loses the listing's security deposit of ${deposit} USDT`);
  await expect(summary).toContainText(`The buyer ${lister.email} may not trade OTC for 7 day(s).`);
  expect(await confirmDialog(page, 'Confirm the ruling', 'Rule', `/api/admin/otc/orders/${order.id}/rule`)).toMatchObject({
    code: 200,
  });

  await expect(page.getByTestId('otc-order-state')).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByTestId('otc-order-deposit')).toHaveText(`${deposit} USDT (forfeited)`);
  await expect(page.getByTestId('otc-buyer-suspended')).toBeVisible();
  // The seller has the USDT back; the lister lost the deposit and nothing else.
  expect(await usdt(request, seller)).toEqual({ available: '40.0000', held: '0.0000' });
  expect(await usdt(request, lister)).toEqual({
    available: money.formatMoney(money.subtract(money.parseMoney('60'), money.parseMoney(deposit))),
    held: '0.0000',
  });

  await openConsolePage(page, 'OTC suspensions', /OTC$/);
  await expect(page.locator(`[data-testid="otc-suspension-row"][data-email="${lister.email}"]`)).toHaveCount(1);
  expect(errors).toEqual([]);
});

test('the OTC settings form refuses bad input with the contract’s message and saves a good change (audited)', async ({
  request,
  operators,
  openConsole,
}) => {
  const [finance, auditor] = await steadyOperators(operators, ['finance', 'super_admin']);
  const page = await openConsole(finance);
  const errors = collectErrors(page);
  await openConsolePage(page, 'OTC settings', /OTC$/);
  const settings = page.getByTestId('otc-settings');
  await expect(settings.getByTestId('otc-guide-price')).not.toHaveValue('');

  await withPlatformLock('otc-settings', async () => {
    const before = await call<OtcSettings>(request, 'GET', '/api/admin/otc/settings', bearer(finance));
    await page.reload();
    await expect(settings.getByTestId('otc-guide-price')).toHaveValue(before.guidePrice);

    // More than four places: refused before anything is sent, in the server's own words.
    await settings.getByTestId('otc-guide-price').fill('7.12345');
    await settings.getByTestId('otc-settings-save').click();
    await expect(settings.getByTestId('otc-settings-problem')).toHaveText(
      translate('en', 'field_error', { field: fieldLabel('en', 'guidePrice'), reason: translate('en', 'reason.amount_places') }),
    );
    await settings.getByTestId('otc-guide-price').fill(before.guidePrice);
    // A smallest order above the largest.
    await settings.getByTestId('otc-order-minimum').fill('60000');
    await settings.getByTestId('otc-settings-save').click();
    await expect(settings.getByTestId('otc-settings-problem')).toHaveText(
      translate('en', 'field_error', {
        field: fieldLabel('en', 'orderMaximum'),
        reason: translate('en', 'reason.otc_limits_order'),
      }),
    );
    expect(await call<OtcSettings>(request, 'GET', '/api/admin/otc/settings', bearer(finance))).toEqual(before);
    // The server refuses the same input by itself, in the caller's language.
    const refused = await request.put('/api/admin/otc/settings', {
      headers: { authorization: bearer(finance), lang: 'JP' },
      data: { ...before, guidePrice: '7.12345' },
    });
    expect(((await refused.json()) as Envelope<null>).message).toBe(
      translate('ja', 'field_error', { field: fieldLabel('ja', 'guidePrice'), reason: translate('ja', 'reason.amount_places') }),
    );

    // A good change: the largest listing one USDT higher, confirmed, saved, and put back afterwards.
    const raised = `${(BigInt(before.listingMaximum.split('.')[0]!) + 1n).toString()}.0000`;
    try {
      await settings.getByTestId('otc-order-minimum').fill(before.orderMinimum);
      await settings.getByTestId('otc-listing-maximum').fill(raised);
      await settings.getByTestId('otc-settings-save').click();
      await expect(page.getByTestId('otc-settings-changes')).toContainText(
        `Largest listing (USDT): ${before.listingMaximum} → ${raised}`,
      );
      expect(await confirmDialog(page, 'Save the OTC settings?', 'Save', '/api/admin/otc/settings')).toMatchObject({ code: 200 });
      expect(await call<OtcSettings>(request, 'GET', '/api/admin/otc/settings', bearer(finance))).toEqual({
        ...before,
        listingMaximum: raised,
      });
      // The save is in the audit log under this operator's name.
      const saves = await auditEntries(request, auditor, 'otc.settings_updated');
      expect(saves.filter((entry) => entry.operator === finance.username)).toEqual([
        expect.objectContaining({ after: expect.objectContaining({ listingMaximum: raised }) }),
      ]);
      await page.reload();
      await expect(settings.getByTestId('otc-listing-maximum')).toHaveValue(raised);
    } finally {
      await call(request, 'PUT', '/api/admin/otc/settings', bearer(finance), before);
    }
  });
  expect(errors).toEqual([]);
});

test('an operator without OTC permissions sees no OTC menu and is refused by the server', async ({
  request,
  operators,
  openConsole,
}) => {
  const [reviewer, support] = await steadyOperators(operators, ['reviewer', 'support']);
  const page = await openConsole(reviewer);
  await expect(page.getByRole('menuitem', { name: /Real-name review$/ })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /OTC/ })).toHaveCount(0);
  // A typed address leads nowhere: the console has no OTC page for this role.
  await page.goto('/admin/#/otc/appeals');
  await expect(page).toHaveURL(/#\/overview$/);
  for (const path of ['/api/admin/otc/appeals', '/api/admin/otc/orders', '/api/admin/otc/settings']) {
    const response = await request.get(path, { headers: { authorization: bearer(reviewer) } });
    expect(response.status(), path).toBe(403);
    expect(((await response.json()) as Envelope<null>).code, path).toBe(403);
  }
  // Support reads OTC and rules, but may not change the settings.
  const refused = await request.put('/api/admin/otc/settings', {
    headers: { authorization: bearer(support) },
    data: await call<OtcSettings>(request, 'GET', '/api/admin/otc/settings', bearer(support)),
  });
  expect(((await refused.json()) as Envelope<null>).code).toBe(403);
});
