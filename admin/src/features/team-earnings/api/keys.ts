import type { TeamEarningsFilter } from './team-earnings-api';

/** Every team-earnings query starts with `teamEarningsKeys.all`; each filter and page is a key of its own. */
export const teamEarningsKeys = {
  all: ['team-earnings'] as const,
  list: (filter: TeamEarningsFilter, page: number) => [...teamEarningsKeys.all, 'list', filter, page] as const,
  promotions: (email: string, page: number) => [...teamEarningsKeys.all, 'promotions', email, page] as const,
  settings: ['team-earnings', 'settings'] as const,
};
