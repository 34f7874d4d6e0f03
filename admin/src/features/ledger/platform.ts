import { ASSETS, money, type Asset, type LedgerAccount } from '@custos/contract';

/** What each platform account stands for (seeded by the server in every asset). */
export const PLATFORM_ACCOUNT_LEGEND: Readonly<Record<string, string>> = {
  treasury:
    'The platform’s own holdings: issues RAB and takes the other side of every exchange. May go below zero (what it has issued).',
  deposits:
    'Money that came in from the chains (recharges). Stands for the outside world, so it goes below zero as members deposit.',
  adjustments:
    'The other side of operators’ manual credits and debits. Below zero when more was credited to members than taken back.',
  interest: 'Custody interest paid to members: an expense, below zero by what has been paid.',
  rewards: 'Team earnings, airdrops and dividends paid to members: an expense, below zero by what has been paid.',
  fees: 'Fees the platform has collected (exchange fees, in USDT or FUEL; later withdrawal fees). Never below zero.',
  withdrawals:
    'The other side of members’ withdrawals: money leaving the platform to the chains or bank cards. Never below zero.',
  contracts_book:
    'The platform’s side of every contract order: members’ losses come in, their profits go out. May go below zero (the platform’s money at risk).',
};

export interface PlatformRow {
  code: string;
  description: string | null;
  /** Whether the server lets this account go below zero (true for accounts that stand for the outside world). */
  allowNegative: boolean;
  byAsset: Partial<Record<Asset, LedgerAccount>>;
}

/** Platform accounts grouped by code (legend order first, unknown codes after), one column per asset. */
export function groupPlatformAccounts(accounts: readonly LedgerAccount[]): PlatformRow[] {
  const rows = new Map<string, PlatformRow>();
  for (const account of accounts) {
    const code = account.platformCode ?? '(none)';
    let row = rows.get(code);
    if (!row) {
      row = { code, description: PLATFORM_ACCOUNT_LEGEND[code] ?? null, allowNegative: false, byAsset: {} };
      rows.set(code, row);
    }
    row.allowNegative ||= account.allowNegative;
    row.byAsset[account.asset] = account;
  }
  const known = Object.keys(PLATFORM_ACCOUNT_LEGEND);
  const rank = (code: string) => {
    const index = known.indexOf(code);
    return index === -1 ? known.length : index;
  };
  return [...rows.values()].sort((a, b) => rank(a.code) - rank(b.code) || a.code.localeCompare(b.code));
}

/**
 * The sum of every platform account per asset. Every entry balances to zero, so this is minus what
 * members hold in that asset.
 */
export function platformTotals(accounts: readonly LedgerAccount[]): Record<Asset, string> {
  return Object.fromEntries(
    ASSETS.map((asset) => [
      asset,
      money.formatMoney(
        money.sum(accounts.filter((account) => account.asset === asset).map((account) => money.parseMoney(account.balance))),
      ),
    ]),
  ) as Record<Asset, string>;
}
