import type { DepositFilter } from './list-deposits';

/** Every chain query starts with `chainKeys.all`; each deposit filter and page is a key of its own. */
export const chainKeys = {
  all: ['chain'] as const,
  deposits: (filter: DepositFilter, page: number) => [...chainKeys.all, 'deposits', filter, page] as const,
  watchers: ['chain', 'watchers'] as const,
};
