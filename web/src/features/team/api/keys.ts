import type { TeamScope } from '@custos/contract';

/** Query keys of the member's team (decision 023). */
export const teamKeys = {
  all: ['team'] as const,
  info: () => [...teamKeys.all, 'info'] as const,
  members: (scope: TeamScope, query: string) => [...teamKeys.all, 'members', scope, query] as const,
  levels: () => [...teamKeys.all, 'levels'] as const,
  /** My team earnings per type (docs/decisions/024-team-earnings.md). */
  earnings: () => [...teamKeys.all, 'earnings'] as const,
  share: () => [...teamKeys.all, 'share'] as const,
  /** The poster drawn from the share answer, per code, link and language. */
  poster: (inviteCode: string, link: string, locale: string) =>
    [...teamKeys.share(), 'poster', inviteCode, link, locale] as const,
};
