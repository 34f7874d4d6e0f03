import type { TeamInfo, TeamMember } from '@custos/contract';
import { displayMoney } from '../../lib/format/money';

export const TEAM_PATH = '/pages/blance_record/blance_record6';
export const TEAM_MEMBERS_PATH = '/pages/blance_record/blance_record7';
export const TEAM_LEVELS_PATH = '/pages/blance_record/blance_record8';
export const SHARE_POSTER_PATH = '/pages/share_poster/share_poster';
export const INCOME_PATH = '/pages/blance_record/blance_record5';

/**
 * The link a poster carries: this app's own address with the register route, so it opens the
 * register screen with the code filled in wherever the app is served.
 */
export function shareLinkFor(registerPath: string, location: { origin: string; pathname: string }): string {
  return `${location.origin}${location.pathname}${registerPath}`;
}

export type MissingPart =
  | { key: 'team.missingOwn'; values: { amount: string } }
  | { key: 'team.missingDirect'; values: { count: number } }
  | { key: 'team.missingPerformance'; values: { amount: string } }
  | { key: 'team.missingLegs'; values: { count: number; level: string } };

/** What the member still lacks for the next level, one line per unmet threshold. */
export function missingParts(next: NonNullable<TeamInfo['next']>): MissingPart[] {
  const parts: MissingPart[] = [];
  const { missing } = next;
  if (missing.ownCustody !== '0.0000')
    parts.push({ key: 'team.missingOwn', values: { amount: displayMoney(missing.ownCustody) } });
  if (missing.validDirect > 0) parts.push({ key: 'team.missingDirect', values: { count: missing.validDirect } });
  if (missing.teamPerformance !== '0.0000') {
    parts.push({ key: 'team.missingPerformance', values: { amount: displayMoney(missing.teamPerformance) } });
  }
  if (missing.legs > 0)
    parts.push({ key: 'team.missingLegs', values: { count: missing.legs, level: `V${missing.legsLevel ?? 0}` } });
  return parts;
}

/** Members keyed for the paged list (the list has no ids of other members to show). */
export function withMemberIds(page: { items: TeamMember[]; total: number; page: number; pageSize: number }) {
  return {
    ...page,
    items: page.items.map((item, index) => ({ ...item, id: `${page.page}:${index}:${item.joinedAt}` })),
  };
}
