import type { Locator, Page } from '@playwright/test';
import { collectErrors } from '../support/app';
import { confirmDialog, openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';
import { withPlatformLock } from '../support/locks';

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
  expect(await confirmDialog(page, 'Propose adjustment', 'Propose', '/api/admin/ledger/adjustments')).toMatchObject({
    code: 200,
  });
  // The "Proposed: …" toast goes after a few seconds, which a loaded machine can outlast: the answer
  // above is the state; the proposal's row is checked by the callers.
}

function adjustmentRow(page: Page, email: string, direction: 'credit' | 'debit'): Locator {
  return page.getByRole('row').filter({ hasText: email }).filter({ hasText: direction });
}

test('a finance operator proposes a credit, cannot approve it himself, another approves it', async ({
  request,
  members,
  operators,
  openConsole,
}) => {
  const { email, accountId } = await members.create('ledger');
  const [PROPOSER, APPROVER] = await Promise.all([operators.create('finance'), operators.create('finance')]);

  const proposer = await openConsole(PROPOSER);
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
  const proposerToken = PROPOSER.token;
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
  const approver = await openConsole(APPROVER);
  const approverErrors = collectErrors(approver);
  await openLedgerPage(approver, 'Adjustments');
  await adjustmentRow(approver, email, 'credit').getByRole('button', { name: 'Approve' }).click();
  await approver.getByTestId('decision-note').fill('checked the ticket');
  expect(await confirmDialog(approver, 'Approve adjustment', 'Approve', '/approve')).toMatchObject({ code: 200 });
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

  expect(proposerErrors).toEqual([]);
  expect(approverErrors).toEqual([]);
});

test('a debit above the balance: its approval is refused with the server’s message and stays proposed; rejected instead, the balance is untouched', async ({
  request,
  members,
  operators,
  openConsole,
  fund,
}) => {
  const { email, accountId } = await members.create('refused');
  await fund(accountId, 'USDT', '125.5');
  const [proposer, approving] = await Promise.all([operators.create('finance'), operators.create('finance')]);
  const proposed = await request.post('/api/admin/ledger/adjustments', {
    headers: { authorization: `Bearer ${proposer.token}` },
    data: { accountId, asset: 'USDT', direction: 'debit', amount: '200', reason: 'e2e debit above the balance' },
  });
  expect((await proposed.json()) as unknown).toMatchObject({ code: 200 });

  const approver = await openConsole(approving);
  const approverErrors = collectErrors(approver);
  await openLedgerPage(approver, 'Adjustments');
  await adjustmentRow(approver, email, 'debit').getByRole('button', { name: 'Approve' }).click();
  expect(await confirmDialog(approver, 'Approve adjustment', 'Approve', '/approve')).toMatchObject({
    code: 409,
    message: 'Insufficient USDT balance',
  });
  await expect(approver.getByTestId('decision-error')).toHaveText('Could not approve: Insufficient USDT balance');
  await expect(adjustmentRow(approver, email, 'debit')).toContainText('proposed');

  // Rejected instead; the balance is untouched.
  await adjustmentRow(approver, email, 'debit').getByRole('button', { name: 'Reject' }).click();
  await approver.getByTestId('decision-note').fill('no such balance');
  expect(await confirmDialog(approver, 'Reject adjustment', 'Reject', '/reject')).toMatchObject({ code: 200 });
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

  // The browser logs the refused approval as a failed resource; nothing else may fail.
  expect(approverErrors.filter((error) => !/status of 409/.test(error))).toEqual([]);
});

test('exchange settings are changed, saved and kept; members see them', async ({ request, members, operators, openConsole }) => {
  const member = await members.create('exchange-settings');
  const page = await openConsole(await operators.create('finance'));
  const errors = collectErrors(page);
  // The settings are the platform's: hold them while this test relies on its own value.
  await withPlatformLock('exchange-settings', async () => {
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
    expect(await confirmDialog(page, 'Save the exchange settings?', 'Save', '/api/admin/exchange/settings')).toMatchObject({
      code: 200,
    });

    await page.reload();
    await expect(page.getByLabel('Minimum USDT')).toHaveValue(lowered);
    // Members get the saved value with their quote.
    const index = await request.get('/api/exchange/index', { headers: { authorization: member.token } });
    expect((await index.json()) as unknown).toMatchObject({ code: 200, data: { minUsdt: lowered } });

    // Put it back.
    await page.getByLabel('Minimum USDT').fill(original);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await confirmDialog(page, 'Save the exchange settings?', 'Save', '/api/admin/exchange/settings')).toMatchObject({
      code: 200,
    });
    await page.reload();
    await expect(page.getByLabel('Minimum USDT')).toHaveValue(original);
  });
  expect(errors).toEqual([]);
});

test('the invariant report shows a clean ledger', async ({ operators, openConsole }) => {
  const page = await openConsole(await operators.create('finance'));
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
