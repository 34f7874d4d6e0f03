import { hostingConfigResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** The open plans, the cash and custody balances, validity and the platform time zone. */
export function getHostingConfig() {
  return apiRequest({ method: 'GET', path: '/api/hosting/config', data: hostingConfigResponse });
}
