import type { MemberMachineFilter } from './list-member-machines';

/**
 * Every mining-machine query starts with `machineKeys.all`: a product change refreshes the products
 * and the members' machines at once; each filter and page is a key of its own (decision 030).
 */
export const machineKeys = {
  all: ['machines'] as const,
  products: ['machines', 'products'] as const,
  memberMachines: (filter: MemberMachineFilter, page: number) => ['machines', 'member-machines', filter, page] as const,
};
