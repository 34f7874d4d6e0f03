import { adminMemberTeamResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** A member's level, upline chain and a page of their downline. */
export function getMemberTeam(memberId: string, page: number, pageSize: number) {
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/members/${encodeURIComponent(memberId)}/team?page=${page}&pageSize=${pageSize}`,
    data: adminMemberTeamResponse,
  });
}
