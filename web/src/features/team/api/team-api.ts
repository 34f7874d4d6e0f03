import {
  shareResponse,
  teamEarningsSummaryResponse,
  teamInfoResponse,
  teamLevelConfigResponse,
  teamMembersResponse,
  type TeamScope,
} from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** My level, team performance, member counts and the next level's requirement. */
export function getTeamInfo() {
  return apiRequest({ method: 'GET', path: '/api/user/team_info', data: teamInfoResponse });
}

/** My downline, newest first: direct members or every generation, optionally by nickname. */
export function listTeamMembers(query: { page: number; pageSize: number; scope: TeamScope; query?: string }) {
  return apiRequest({ method: 'GET', path: '/api/user/team', query, data: teamMembersResponse });
}

/** getTeamLevelConfig: the level table in force today and my level. */
export function getTeamLevelConfig() {
  return apiRequest({ method: 'GET', path: '/api/user/team_level_config', data: teamLevelConfigResponse });
}

/** My invitation code and the register route a poster links to. */
export function getShare() {
  return apiRequest({ method: 'GET', path: '/api/user/share', data: shareResponse });
}

/** My team earnings per type: to arrive and arrived. */
export function getTeamEarnings() {
  return apiRequest({ method: 'GET', path: '/api/user/team_earnings', data: teamEarningsSummaryResponse });
}
