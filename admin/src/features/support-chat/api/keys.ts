import type { SupportInboxFilter } from '@custos/contract';

/** The inbox's lists and the canned replies; the live channel invalidates the lists. */
export const supportKeys = {
  all: ['support'] as const,
  lists: ['support', 'list'] as const,
  list: (filter: SupportInboxFilter, page: number) => [...supportKeys.lists, filter, page] as const,
  canned: ['support', 'canned'] as const,
};
