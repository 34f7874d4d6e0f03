import type { ContractOrderState } from '@custos/contract';

/** Query keys of contract orders (decision 023, 035): every key starts with the domain, so a live event reaches them all. */
export const contractKeys = {
  all: ['contracts'] as const,
  products: () => [...contractKeys.all, 'products'] as const,
  info: () => [...contractKeys.all, 'info'] as const,
  pending: () => [...contractKeys.all, 'pending'] as const,
  orders: (state: ContractOrderState) => [...contractKeys.all, 'orders', state] as const,
};
