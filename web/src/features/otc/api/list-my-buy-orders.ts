import { otcMyOrdersResponse, type OtcOrderState } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/otc/my_buy_list: my orders as buyer, newest first. */
export function listMyBuyOrders(query: { page: number; pageSize: number; state?: OtcOrderState }) {
  return apiRequest({ method: 'GET', path: '/api/otc/my_buy_list', query, data: otcMyOrdersResponse });
}
