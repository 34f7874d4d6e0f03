import { hostingPlanSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';
import type { HostingPlanInput } from '../hosting';

/** A new plan, open at once (audited). */
export function createHostingPlan(body: HostingPlanInput) {
  return consoleRequest({ method: 'POST', path: '/api/admin/hosting/plans', body, data: hostingPlanSchema });
}
