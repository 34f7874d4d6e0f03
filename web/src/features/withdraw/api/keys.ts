import type { WithdrawalStatus } from '@custos/contract';

/** Query keys of the member's withdrawals (decision 023). */
export const withdrawalKeys = {
  all: ['withdrawals'] as const,
  list: (status: WithdrawalStatus | undefined) => [...withdrawalKeys.all, 'list', status ?? 'all'] as const,
  detail: (id: string) => [...withdrawalKeys.all, 'detail', id] as const,
};
