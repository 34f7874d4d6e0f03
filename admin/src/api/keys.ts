import type { PostingsFilter } from './list-postings';

/**
 * Money the console shows (postings, a member's balances): every key starts with `ledgerKeys.all`, so
 * an approved adjustment, a withdrawal decision or a repair refreshes every balance and posting on screen.
 */
export const ledgerKeys = {
  all: ['ledger'] as const,
  postings: (filter: PostingsFilter, page: number) => [...ledgerKeys.all, 'postings', filter, page] as const,
  memberBalances: (memberId: string) => [...ledgerKeys.all, 'member-balances', memberId] as const,
  check: ['ledger', 'check'] as const,
  platformAccounts: ['ledger', 'platform-accounts'] as const,
  adjustments: (status: string | null, page: number) => [...ledgerKeys.all, 'adjustments', status, page] as const,
};
