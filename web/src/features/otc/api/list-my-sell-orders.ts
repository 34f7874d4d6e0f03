import { otcMyOrdersResponse, type OtcOrderState } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/otc/my_sell_list: my orders as seller, newest first. */
export function listMySellOrders(query: { page: number; pageSize: number; state?: OtcOrderState }) {
  return apiRequest({ method: 'GET', path: '/api/otc/my_sell_list', query, data: otcMyOrdersResponse });
}
