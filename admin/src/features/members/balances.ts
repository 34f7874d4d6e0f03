import { ASSETS, LEDGER_PURPOSES, money, type Asset, type LedgerAccount, type LedgerPurpose } from '@custos/contract';

export interface BalanceRow {
  asset: Asset;
  /** The ledger account of each purpose, when the account has one (one appears with its first posting). */
  cells: Partial<Record<LedgerPurpose, LedgerAccount>>;
  /** Every purpose together, as a four-place string. */
  total: string;
}

/** A member account's ledger accounts as an asset × purpose table, every asset listed. */
export function balanceMatrix(ledgerAccounts: readonly LedgerAccount[]): BalanceRow[] {
  return ASSETS.map((asset) => {
    const cells: Partial<Record<LedgerPurpose, LedgerAccount>> = {};
    for (const account of ledgerAccounts) {
      if (account.asset !== asset) continue;
      const purpose = LEDGER_PURPOSES.find((known) => known === account.purpose);
      if (purpose) cells[purpose] = account;
    }
    const total = money.sum(Object.values(cells).map((account) => money.parseMoney(account.balance)));
    return { asset, cells, total: money.formatMoney(total) };
  });
}
