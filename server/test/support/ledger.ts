import { money, type Asset } from '@custos/contract';
import type { TestApp } from './test-app.js';
import { randomUUID } from 'node:crypto';

/** Credits a member account from the platform's adjustments account, as an approved adjustment would. */
export async function fund(t: TestApp, accountId: string, asset: Asset, amount: string): Promise<void> {
  const units = money.parseMoney(amount);
  await t.services.ledger.transaction((tx) =>
    t.services.ledger.post(tx, {
      idempotencyKey: `test-fund:${randomUUID()}`,
      kind: 'adjustment',
      postings: [
        { account: { ownerAccountId: accountId, asset, purpose: 'available' }, amount: units, recordType: 'adjustment_credit' },
        { account: { platformCode: 'adjustments', asset }, amount: money.negate(units), recordType: 'adjustment_credit' },
      ],
    }),
  );
}

/** The account's available balance of an asset, as the ledger holds it. */
export async function availableOf(t: TestApp, accountId: string, asset: Asset): Promise<string> {
  const balances = await t.services.ledger.balancesOf([accountId]);
  return money.formatMoney(balances.get(`${accountId}:${asset}:available`) ?? money.ZERO);
}

/** The account id behind a member session token. */
export async function accountIdOf(t: TestApp, token: string): Promise<string> {
  const response = await t.app.inject({ method: 'GET', url: '/api/account/list', headers: { authorization: token } });
  const accounts = response.json<{ data: { id: string; current: boolean }[] }>().data;
  return accounts.find((account) => account.current)!.id;
}

export async function setTradePassword(t: TestApp, token: string, password = 'trade-pass-1'): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/set_trade_password',
    headers: { authorization: token },
    payload: { password, confirmPassword: password },
  });
  if (response.json<{ code: number }>().code !== 200) throw new Error(`set trade password: ${response.body}`);
}
