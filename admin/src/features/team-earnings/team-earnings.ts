import type { TeamEarningType } from '@custos/contract';

export const TEAM_EARNING_LABELS: Record<TeamEarningType, string> = {
  direct: 'Direct',
  indirect: 'Indirect',
  community: 'Community performance',
  management: 'Management',
  promotion: 'Promotion',
  level_dividend: 'Level dividend',
};

export const TEAM_EARNING_STATE_LABELS = { to_arrive: 'To arrive', arrived: 'Arrived' } as const;
export const TEAM_EARNING_STATE_COLOURS = { to_arrive: 'gold', arrived: 'green' } as const;

/** A calendar day typed by the operator: empty (any day) or YYYY-MM-DD. */
export function dayProblem(value: string): string | null {
  return value === '' || /^\d{4}-\d{2}-\d{2}$/.test(value) ? null : 'A day is written YYYY-MM-DD';
}
