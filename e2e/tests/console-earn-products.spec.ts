import { randomUUID } from 'node:crypto';
import { collectErrors } from '../support/app';
import { openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';

/**
 * The console's custody plans and mining machines read through the query cache (decision 030): a
 * finance operator sees the seeded plans and machines, saves a plan's terms unchanged (so no other
 * test's plan moves) and the list is asked again, and filters the members' machines by status and
 * by an e-mail nobody has, each answer filling only its own filter's table.
 */
test('a finance operator sees the custody plans and mining machines; a plan saved is asked again; members’ machines filter', async ({
  operators,
  openConsole,
}) => {
  const console = await openConsole(await operators.create('finance'));
  const errors = collectErrors(console);

  await openConsolePage(console, 'Custody plans', /Earn$/);
  const row = console.locator('[data-testid="hosting-plan-row"][data-status="active"]').first();
  await expect(row).toBeVisible();
  const name = (await row.getByTestId('hosting-plan-row-name').textContent()) ?? '';
  expect(name).not.toBe('');
  await row.getByTestId('hosting-plan-edit').click();
  const dialog = console.getByRole('dialog', { name: `Edit plan “${name}”` });
  await expect(dialog.getByTestId('hosting-plan-name')).toHaveValue(name);
  const saved = console.waitForResponse(
    (response) =>
      response.request().method() === 'PUT' && new URL(response.url()).pathname.startsWith('/api/admin/hosting/plans/'),
  );
  const reread = saved.then(() =>
    console.waitForResponse(
      (response) => response.request().method() === 'GET' && new URL(response.url()).pathname === '/api/admin/hosting/plans',
    ),
  );
  await console.getByTestId('hosting-plan-save').click();
  expect((await (await saved).json()) as { code: number }).toMatchObject({ code: 200 });
  expect((await (await reread).json()) as { code: number }).toMatchObject({ code: 200 });
  await expect(dialog).toBeHidden();
  await expect(console.locator('[data-testid="hosting-plan-row"]').filter({ hasText: name }).first()).toBeVisible();

  await openConsolePage(console, 'Mining machines', /Earn$/);
  await expect(console.locator('[data-testid="machine-product-row"]').filter({ hasText: 'S1 Lite 10T' })).toHaveCount(1);

  const expired = console.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/admin/machines' && response.url().includes('status=expired'),
  );
  await console.getByTestId('member-machine-status-filter').getByText('Expired', { exact: true }).click();
  expect((await (await expired).json()) as { code: number }).toMatchObject({ code: 200 });
  await expect(console.locator('[data-testid="member-machine-row"]:not([data-status="expired"])')).toHaveCount(0);

  const nobody = `nobody-${randomUUID()}@example.com`;
  const searched = console.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/admin/machines' && response.url().includes(encodeURIComponent(nobody)),
  );
  await console.getByTestId('member-machine-search').locator('input').fill(nobody);
  await console.getByTestId('member-machine-search').getByRole('button', { name: 'Search' }).click();
  expect((await (await searched).json()) as { code: number; data: { total: number } }).toMatchObject({
    code: 200,
    data: { total: 0 },
  });
  await expect(console.getByTestId('member-machine-row')).toHaveCount(0);

  expect(errors).toEqual([]);
});
