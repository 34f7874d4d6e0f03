import { hostingPlanSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';
import type { HostingPlanInput } from '../hosting';

/** New terms for a plan: new orders and renewals take them, running orders keep theirs (audited). */
export function updateHostingPlan(id: string, body: HostingPlanInput) {
  return consoleRequest({
    method: 'PUT',
    path: `/api/admin/hosting/plans/${encodeURIComponent(id)}`,
    body,
    data: hostingPlanSchema,
  });
}
