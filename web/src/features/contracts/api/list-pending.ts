import { contractPendingListResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/contracts/pending_list: the member's open orders, newest first, each valued at the latest quote. */
export function listPendingContractOrders() {
  return apiRequest({ method: 'GET', path: '/api/contracts/pending_list', data: contractPendingListResponse });
}
