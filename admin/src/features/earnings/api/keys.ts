/** The AI dividend's pools; a set or a removal answers with the whole list, which replaces the cached one. */
export const earningsKeys = {
  all: ['earnings'] as const,
  pools: ['earnings', 'pools'] as const,
};
