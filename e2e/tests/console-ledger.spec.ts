import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { collectErrors, memberToken } from '../support/app';
import { confirmDialog, openConsolePage } from '../support/console';
import { CONSOLE_FINANCE_OPERATORS, currentAccountId, financeToken } from '../support/funding';
import { freshCode } from '../support/totp';
import { uniqueEmail } from '../support/mail';
import { loginViaApi, registerViaApi } from '../support/members';

type FinanceOperator = (typeof CONSOLE_FINANCE_OPERATORS)[number];
const [PROPOSER, APPROVER] = CONSOLE_FINANCE_OPERATORS;

/** A console tab of its own (the console keeps its session per tab), logged in as a finance operator. */
async function consoleAs(browser: Browser, operator: FinanceOperator): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto('/admin/');
  await page.getByLabel('Username').fill(operator.username);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByLabel('Authenticator code').fill(await freshCode(operator.totpSecret));
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('operator-name')).toContainText(`${operator.username} · finance`);
  return page;
}

async function openLedgerPage(page: Page, name: string): Promise<void> {
  await openConsolePage(page, name, /Ledger$/);
}

async function openMemberLedger(page: Page, email: string): Promise<void> {
  await openConsolePage(page, 'Members');
  await page.getByPlaceholder('E-mail, nickname or invitation code').fill(email);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('cell', { name: email }).click();
  await page.getByRole('tab', { name: 'Balances & ledger' }).click();
}

async function closeMember(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Balances & ledger' })).toBeHidden();
}

async function proposeInConsole(page: Page, direction: 'Credit (add)' | 'Debit (take away)', amount: string, reason: string) {
  await page.getByRole('button', { name: 'Propose adjustment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Propose adjustment' });
  await expect(dialog).toBeVisible();
  await dialog.getByText(direction, { exact: true }).click();
  await dialog.getByLabel('Amount').fill(amount);
  await dialog.getByLabel('Reason').fill(reason);
  await confirmDialog(page, 'Propose adjustment', 'Propose');
  await expect(page.getByText(/^Proposed: /)).toBeVisible();
}

function adjustmentRow(page: Page, email: string, direction: 'credit' | 'debit'): Locator {
  return page.getByRole('row').filter({ hasText: email }).filter({ hasText: direction });
}

function apiToken(request: APIRequestContext, operator: FinanceOperator): Promise<string> {
  return financeToken(request, operator);
}

test('a finance operator proposes a credit, cannot approve it himself, another approves; a debit above the balance is refused', async ({
  browser,
  request,
}) => {
  const email = uniqueEmail('ledger');
  await registerViaApi(request, email, 'member-password');
  const accountId = await currentAccountId(request, await loginViaApi(request, email, 'member-password'));

  const proposer = await consoleAs(browser, PROPOSER);
  const proposerErrors = collectErrors(proposer);
  await openMemberLedger(proposer, email);
  const balances = proposer.getByTestId(`balances-${accountId}`);
  await expect(balances).toBeVisible();
  await expect(balances.getByTestId('balance-USDT-total')).toHaveText('0.0000');

  // The form refuses more than four decimal places and a missing reason before anything is sent.
  await proposer.getByRole('button', { name: 'Propose adjustment' }).click();
  const form = proposer.getByRole('dialog', { name: 'Propose adjustment' });
  await form.getByLabel('Amount').fill('1.23456');
  await form.getByRole('button', { name: 'Propose', exact: true }).click();
  await expect(form.getByText('Enter a positive amount with at most 4 decimal places')).toBeVisible();
  await expect(form.getByText(/^Enter the reason/)).toBeVisible();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toBeHidden();

  await proposeInConsole(proposer, 'Credit (add)', '125.5', 'e2e goodwill credit');
  await closeMember(proposer);

  // The proposer sees his proposal without Approve / Reject, and the server refuses his approval too.
  await openLedgerPage(proposer, 'Adjustments');
  const ownRow = adjustmentRow(proposer, email, 'credit');
  await expect(ownRow).toContainText('125.5000');
  await expect(ownRow).toContainText('proposed');
  await expect(ownRow.getByTestId('own-proposal')).toHaveText('Your proposal: another operator decides');
  await expect(ownRow.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  const proposerToken = await apiToken(request, PROPOSER);
  const listed = await request.get('/api/admin/ledger/adjustments?status=proposed&pageSize=100', {
    headers: { authorization: `Bearer ${proposerToken}` },
  });
  const proposal = ((await listed.json()) as { data: { items: { id: string; memberEmail: string }[] } }).data.items.find(
    (item) => item.memberEmail === email,
  );
  expect(proposal).toBeTruthy();
  const selfApproval = await request.post(`/api/admin/ledger/adjustments/${proposal!.id}/approve`, {
    headers: { authorization: `Bearer ${proposerToken}`, lang: 'EN' },
    data: {},
  });
  expect((await selfApproval.json()) as unknown).toMatchObject({
    code: 403,
    message: 'Another operator must approve your own proposal',
  });

  // The second finance operator approves it on the Adjustments page.
  const approver = await consoleAs(browser, APPROVER);
  const approverErrors = collectErrors(approver);
  await openLedgerPage(approver, 'Adjustments');
  await adjustmentRow(approver, email, 'credit').getByRole('button', { name: 'Approve' }).click();
  await approver.getByTestId('decision-note').fill('checked the ticket');
  await confirmDialog(approver, 'Approve adjustment', 'Approve');
  await expect(adjustmentRow(approver, email, 'credit')).toHaveCount(0);
  await approver.getByTestId('status-filter').getByText('Approved', { exact: true }).click();
  const approved = adjustmentRow(approver, email, 'credit');
  await expect(approved).toContainText('approved');
  await expect(approved).toContainText(APPROVER.username);
  await expect(approved).toContainText('checked the ticket');

  // The member's balance shows the credit, with its posting.
  await openMemberLedger(approver, email);
  const credited = approver.getByTestId(`balances-${accountId}`);
  await expect(credited.getByTestId('balance-USDT-available')).toHaveText('125.5000');
  await expect(credited.getByTestId('balance-USDT-total')).toHaveText('125.5000');
  const postings = approver.getByTestId('postings');
  await expect(postings.getByRole('row').filter({ hasText: 'adjustment_credit' })).toContainText('+125.5000');

  // A debit above the balance: proposed, its approval refused with the server's message, still proposed.
  await openMemberLedger(proposer, email);
  await proposeInConsole(proposer, 'Debit (take away)', '200', 'e2e debit above the balance');
  await closeMember(approver);
  await openLedgerPage(approver, 'Adjustments');
  await approver.getByTestId('status-filter').getByText('Proposed', { exact: true }).click();
  await adjustmentRow(approver, email, 'debit').getByRole('button', { name: 'Approve' }).click();
  await confirmDialog(approver, 'Approve adjustment', 'Approve');
  await expect(approver.getByTestId('decision-error')).toHaveText('Could not approve: Insufficient USDT balance');
  await expect(adjustmentRow(approver, email, 'debit')).toContainText('proposed');

  // Rejected instead; the balance is untouched.
  await adjustmentRow(approver, email, 'debit').getByRole('button', { name: 'Reject' }).click();
  await approver.getByTestId('decision-note').fill('no such balance');
  await confirmDialog(approver, 'Reject adjustment', 'Reject');
  await expect(adjustmentRow(approver, email, 'debit')).toHaveCount(0);
  await approver.getByTestId('status-filter').getByText('Rejected', { exact: true }).click();
  await expect(adjustmentRow(approver, email, 'debit')).toContainText('no such balance');
  await openMemberLedger(approver, email);
  await expect(approver.getByTestId(`balances-${accountId}`).getByTestId('balance-USDT-available')).toHaveText('125.5000');
  await closeMember(approver);
  await openLedgerPage(approver, 'Adjustments');
  await approver.getByTestId('status-filter').getByText('All', { exact: true }).click();
  await expect(adjustmentRow(approver, email, 'credit')).toContainText('approved');
  await expect(adjustmentRow(approver, email, 'debit')).toContainText('rejected');

  expect(proposerErrors).toEqual([]);
  // The browser logs the refused debit approval as a failed resource; nothing else may fail.
  expect(approverErrors.filter((error) => !/status of 409/.test(error))).toEqual([]);
});

test('exchange settings are changed, saved and kept; members see them', async ({ browser, request }) => {
  const page = await consoleAs(browser, PROPOSER);
  const errors = collectErrors(page);
  await openLedgerPage(page, 'Exchange settings');
  const minimumUsdt = page.getByLabel('Minimum USDT');
  await expect(minimumUsdt).not.toHaveValue('');
  const original = await minimumUsdt.inputValue();
  // Lowering the minimum cannot refuse an exchange another test makes meanwhile; it is put back at the end.
  const lowered = original === '4.5000' ? '4.2500' : '4.5000';

  // The fee rate is shown as a percentage while typing (not saved here).
  const feeRate = page.getByLabel('Fee rate');
  const fee = await feeRate.inputValue();
  await feeRate.fill('0.0125');
  await expect(page.getByTestId('fee-percent')).toHaveText('= 1.25 % of the trade’s USDT value');
  await feeRate.fill(fee);

  await minimumUsdt.fill('4.123456');
  await expect(page.getByText('Enter an amount with at most 4 decimal places')).toBeVisible();
  await minimumUsdt.fill(lowered.replace(/0+$/, ''));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Save the exchange settings?' });
  await expect(confirm).toContainText(`Minimum USDT: ${original} → ${lowered}`);
  await confirmDialog(page, 'Save the exchange settings?', 'Save');
  await expect(page.getByText('Exchange settings saved')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Minimum USDT')).toHaveValue(lowered);
  // Members get the saved value with their quote.
  const index = await request.get('/api/exchange/index', { headers: { authorization: memberToken() } });
  expect((await index.json()) as unknown).toMatchObject({ code: 200, data: { minUsdt: lowered } });

  // Put it back.
  await page.getByLabel('Minimum USDT').fill(original);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await confirmDialog(page, 'Save the exchange settings?', 'Save');
  await page.reload();
  await expect(page.getByLabel('Minimum USDT')).toHaveValue(original);
  expect(errors).toEqual([]);
});

test('the invariant report shows a clean ledger', async ({ browser }) => {
  const page = await consoleAs(browser, APPROVER);
  const errors = collectErrors(page);
  await openLedgerPage(page, 'Invariant report');
  await expect(page.getByTestId('ledger-status')).toHaveText('clean');
  await expect(page.getByRole('cell', { name: 'No problems' })).toBeVisible();
  await expect(page.getByTestId('ledger-total-USDT')).toHaveText(/^-?0(\.0+)?$/);
  await page.getByRole('button', { name: 'Run the check' }).click();
  await expect(page.getByTestId('ledger-status')).toHaveText('clean');

  await openLedgerPage(page, 'Platform accounts');
  // Credits to members come out of the adjustments account, which may therefore be negative.
  await expect(page.getByTestId('platform-adjustments-USDT')).toHaveText(/^-?\d+\.\d{4}$/);
  await expect(page.getByText('The other side of operators’ manual credits and debits.', { exact: false })).toBeVisible();
  // Finance does not read the audit log.
  await expect(page.getByRole('menuitem', { name: /Audit log$/ })).toHaveCount(0);
  expect(errors).toEqual([]);
});
