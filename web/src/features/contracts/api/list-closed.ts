import { contractClosedListResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/contracts/closed_list: the member's closed orders (and closed parts), newest first. */
export function listClosedContractOrders(query: { page: number; pageSize: number }) {
  return apiRequest({ method: 'GET', path: '/api/contracts/closed_list', query, data: contractClosedListResponse });
}
