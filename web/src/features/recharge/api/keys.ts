import type { Network } from '@custos/contract';

/** Query keys of the member's deposits (decision 023). */
export const depositKeys = {
  all: ['deposits'] as const,
  list: (network: Network | undefined) => [...depositKeys.all, 'list', network ?? 'all'] as const,
};
