import { describe, expect, it } from 'vitest';
import { OPERATOR_ROLES, type Operator } from '@custos/contract';
import { MENU_GROUPS, menuFor, type MenuItem } from './menu';

const operator = (role: Operator['role']): Operator => ({ role }) as Operator;

function keys(items: MenuItem[]): string[] {
  return items.flatMap((item) => [item.key, ...keys(item.children ?? [])]);
}

describe('menuFor', () => {
  it('shows the ledger pages to the roles that may read the ledger, grouped under Ledger', () => {
    for (const role of ['super_admin', 'finance', 'support'] as const) {
      const ledger = menuFor(operator(role)).find((item) => item.key === 'ledger');
      expect(
        ledger?.children?.map((item) => item.label),
        role,
      ).toEqual(['Adjustments', 'Platform accounts', 'Exchange settings', 'Invariant report']);
    }
  });

  it('shows the chain pages (deposits, watchers, withdrawals) to the roles that may read the chain, grouped under Chain', () => {
    for (const role of ['super_admin', 'finance', 'support'] as const) {
      const chain = menuFor(operator(role)).find((item) => item.key === 'chain');
      expect(
        chain?.children?.map((item) => [item.key, item.label]),
        role,
      ).toEqual([
        ['/chain/deposits', 'Deposits'],
        ['/chain/watchers', 'Chain watchers'],
        ['/chain/withdrawals', 'Withdrawals'],
        ['/chain/withdraw-settings', 'Withdrawal settings'],
      ]);
    }
    expect(MENU_GROUPS).toEqual(['ledger', 'chain', 'earn', 'otc', 'contracts']);
  });

  it('shows the earn pages (custody plans, orders, settlement runs, mining machines, AI dividend) to the roles that may read the ledger, grouped under Earn', () => {
    for (const role of ['super_admin', 'finance', 'support'] as const) {
      const earn = menuFor(operator(role)).find((item) => item.key === 'earn');
      expect(
        earn?.children?.map((item) => [item.key, item.label]),
        role,
      ).toEqual([
        ['/earn/plans', 'Custody plans'],
        ['/earn/orders', 'Custody orders'],
        ['/earn/settlement', 'Settlement runs'],
        ['/earn/machines', 'Mining machines'],
        ['/earn/dividend', 'AI dividend'],
      ]);
    }
    expect(menuFor(operator('reviewer')).find((item) => item.key === 'earn')).toBeUndefined();
  });

  it('drops the whole Ledger group for a role without ledger.read', () => {
    expect(keys(menuFor(operator('reviewer')))).toEqual(['/overview', '/members', '/identity', '/team/levels', '/team/airdrops']);
  });

  it('shows the team levels to every role that may read members (only team.manage may save them)', () => {
    for (const role of OPERATOR_ROLES) expect(keys(menuFor(operator(role))), role).toContain('/team/levels');
  });

  it('gives every role the overview and hides what the role may not open', () => {
    for (const role of OPERATOR_ROLES) expect(keys(menuFor(operator(role)))[0]).toBe('/overview');
    expect(keys(menuFor(operator('finance')))).not.toContain('/audit');
    expect(keys(menuFor(operator('super_admin')))).toContain('/audit');
  });

  it('shows the customer-service inbox only to the roles with support.chat (super admin, support)', () => {
    for (const role of ['super_admin', 'support'] as const) expect(keys(menuFor(operator(role))), role).toContain('/support');
    for (const role of ['finance', 'reviewer'] as const) expect(keys(menuFor(operator(role))), role).not.toContain('/support');
  });

  it('shows the OTC pages to the roles with otc.read, grouped under OTC; a reviewer sees none of them', () => {
    for (const role of ['super_admin', 'finance', 'support'] as const) {
      const otc = menuFor(operator(role)).find((item) => item.key === 'otc');
      expect(
        otc?.children?.map((item) => item.key),
        role,
      ).toEqual(['/otc/appeals', '/otc/orders', '/otc/listings', '/otc/suspensions', '/otc/settings']);
    }
    expect(menuFor(operator('reviewer')).find((item) => item.key === 'otc')).toBeUndefined();
  });

  it('shows the contract pages to the roles with contracts.read, grouped under Contracts; a reviewer sees none of them', () => {
    for (const role of ['super_admin', 'finance', 'support'] as const) {
      const contracts = menuFor(operator(role)).find((item) => item.key === 'contracts');
      expect(
        contracts?.children?.map((item) => item.key),
        role,
      ).toEqual(['/contracts/book', '/contracts/orders', '/contracts/products', '/contracts/settings']);
    }
    expect(menuFor(operator('reviewer')).find((item) => item.key === 'contracts')).toBeUndefined();
  });
});
