import { hostingPlanSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Opens a retired plan again (audited). */
export function activateHostingPlan(id: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/hosting/plans/${encodeURIComponent(id)}/activate`,
    body: {},
    data: hostingPlanSchema,
  });
}
