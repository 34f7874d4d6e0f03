import { randomUUID } from 'node:crypto';
import type { MachineProduct } from '@custos/contract';
import ja from '../../web/src/app/i18n/locales/ja.json' with { type: 'json' };
import { collectErrors, hashPath, prepareStorage } from '../support/app';
import { expect, test, TRADE_PASSWORD } from '../support/fixtures';

test('fuel and ticket records in Japanese: from the balances on Assets, available and used movements, by asset', async ({
  page,
  request,
  members,
  fund,
}) => {
  const errors = collectErrors(page);
  const member = await members.create('fuel-tickets', { tradePassword: true });
  await fund(member.accountId, 'TICKET', '120');
  await fund(member.accountId, 'FUEL', '2.5');
  const machines = await request.get('/api/machine/list', { headers: { authorization: member.token } });
  const s1 = ((await machines.json()) as { data: MachineProduct[] }).data.find((machine) => machine.name === 'S1 Lite 10T')!;
  const bought = await request.post('/api/machine/buy', {
    headers: { authorization: member.token },
    data: { machineId: s1.id, payWith: 'TICKET', tradePassword: TRADE_PASSWORD, idempotencyKey: randomUUID() },
  });
  expect(((await bought.json()) as { code: number }).code).toBe(200);

  await prepareStorage(page, { credential: member.token, locale: 'ja' });
  await page.goto('/#/pages/my/my');
  await page.getByTestId('balance-TICKET').click();
  await expect.poll(() => hashPath(page)).toBe('/pages/withdraw_record/withdraw_record7');
  await expect(page.getByTestId('nav-header')).toContainText(ja.routes.withdrawRecord7);
  const rows = page.getByTestId('fuel-ticket-item');
  await expect(rows).toHaveCount(3);
  await expect(rows.getByTestId('fuel-ticket-amount')).toHaveText([
    `+100.0000 ${ja.assetNames.TICKET}`,
    `-100.0000 ${ja.assetNames.TICKET}`,
    `+120.0000 ${ja.assetNames.TICKET}`,
  ]);
  await expect(rows.getByTestId('fuel-ticket-purpose')).toHaveText([
    ja.fuelTicket.used,
    ja.fuelTicket.available,
    ja.fuelTicket.available,
  ]);
  await expect(rows.nth(1)).toContainText(ja.recordTypes.machine_purchase);
  await expect(rows.nth(1).getByText(ja.fuelTicket.balanceAfter.replace('{{amount}}', '20.0000'), { exact: true })).toBeVisible();

  const tab = (name: string) => page.locator('.adm-capsule-tabs-tab', { hasText: new RegExp(`^${name}$`) });
  await tab(ja.assetNames.FUEL).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId('fuel-ticket-amount')).toHaveText(`+2.5000 ${ja.assetNames.FUEL}`);
  await tab(ja.records.allAssets).click();
  await expect(rows).toHaveCount(4);
  expect(errors).toEqual([]);
});
