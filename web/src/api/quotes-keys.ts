/** Query keys of market quotes (decision 023, 027). */
export const quoteKeys = {
  all: ['quotes'] as const,
  home: () => [...quoteKeys.all, 'home'] as const,
};
