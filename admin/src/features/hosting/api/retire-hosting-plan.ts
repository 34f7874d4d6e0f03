import { hostingPlanSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Closes a plan to new deposits and renewals; its running orders run on (audited). */
export function retireHostingPlan(id: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/hosting/plans/${encodeURIComponent(id)}/retire`,
    body: {},
    data: hostingPlanSchema,
  });
}
