import { adminTeamChildrenResponse, teamMoveResponse, type TeamMoveRequest } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** A member's direct members (by account id): one level of the downline tree. */
export function listTeamChildren(accountId: string, page: number, pageSize: number) {
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/team/nodes/${encodeURIComponent(accountId)}/children?page=${page}&pageSize=${pageSize}`,
    data: adminTeamChildrenResponse,
  });
}

/** Moves a member and their downline under another inviter (super admin, audited). */
export function moveMember(request: TeamMoveRequest) {
  return consoleRequest({ method: 'POST', path: '/api/admin/team/move', body: request, data: teamMoveResponse });
}
