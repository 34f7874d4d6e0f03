import { otcPendingInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/otc/pending_info: my open orders and those waiting on me (the Trade tab's badge). */
export function getPendingInfo() {
  return apiRequest({ method: 'GET', path: '/api/otc/pending_info', data: otcPendingInfoResponse });
}
