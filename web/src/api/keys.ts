/** Query keys of the member's own assets and profile (decision 023): one factory per domain. */
export const assetKeys = {
  all: ['assets'] as const,
  summary: () => [...assetKeys.all, 'summary'] as const,
};

/** The member's main account and sub-accounts (the account switch clears the whole cache). */
export const accountKeys = {
  all: ['accounts'] as const,
  list: () => [...accountKeys.all, 'list'] as const,
};

export const userKeys = {
  all: ['user'] as const,
  info: () => [...userKeys.all, 'info'] as const,
};
