import type { HostingOrderFilter } from './list-hosting-orders';

/** Every custody query starts with `hostingKeys.all`; each filter and page is a key of its own. */
export const hostingKeys = {
  all: ['hosting'] as const,
  runs: ['hosting', 'settlement-runs'] as const,
  plans: ['hosting', 'plans'] as const,
  orders: (filter: HostingOrderFilter, page: number) => [...hostingKeys.all, 'orders', filter, page] as const,
};
