import { teamRecomputeResponse, teamRepairResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Recomputes every team figure and lists what differs from the stored ones. */
export function recomputeTeam() {
  return consoleRequest({ method: 'POST', path: '/api/admin/team/recompute', body: {}, data: teamRecomputeResponse });
}

/** Sets the stored team figures to the recomputed ones (super admin, audited). */
export function repairTeam() {
  return consoleRequest({ method: 'POST', path: '/api/admin/team/repair', body: {}, data: teamRepairResponse });
}
