/** Every identity-review query starts with `identityKeys.all`; a decision refreshes every status list. */
export const identityKeys = {
  all: ['identity'] as const,
  list: (status: string, page: number) => [...identityKeys.all, 'list', status, page] as const,
};
