/** Query keys of the RAB exchange (decision 023). */
export const exchangeKeys = {
  all: ['exchange'] as const,
  index: () => [...exchangeKeys.all, 'index'] as const,
};
