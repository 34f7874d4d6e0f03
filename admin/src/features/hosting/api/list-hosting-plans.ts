import { adminHostingPlansResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Every custody plan, open and retired, with how many orders still run on it. */
export function listHostingPlans() {
  return consoleRequest({ method: 'GET', path: '/api/admin/hosting/plans', data: adminHostingPlansResponse });
}
