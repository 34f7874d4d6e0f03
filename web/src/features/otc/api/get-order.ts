import { otcOrderInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/otc/order_info?id=: one of my orders with its trail, appeals, deadlines and what I may do. */
export function getOrder(id: string) {
  return apiRequest({ method: 'GET', path: '/api/otc/order_info', query: { id }, data: otcOrderInfoResponse });
}
