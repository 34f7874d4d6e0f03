/** Every member query starts with `memberKeys.all`: a freeze or a reset refreshes the list and the detail. */
export const memberKeys = {
  all: ['members'] as const,
  list: (query: string, page: number) => [...memberKeys.all, 'list', query, page] as const,
  detail: (memberId: string) => [...memberKeys.all, 'detail', memberId] as const,
  team: (memberId: string, page: number) => [...memberKeys.all, 'team', memberId, page] as const,
};
