import type { WithdrawalFilter } from './list-withdrawals';

/** Every withdrawal query starts with `withdrawalKeys.all`; each filter and page is a key of its own. */
export const withdrawalKeys = {
  all: ['withdrawals'] as const,
  list: (filter: WithdrawalFilter, page: number) => [...withdrawalKeys.all, 'list', filter, page] as const,
  hotWallets: ['withdrawals', 'hot-wallets'] as const,
  holidays: ['withdrawals', 'holidays'] as const,
  settings: ['withdrawals', 'settings'] as const,
};
