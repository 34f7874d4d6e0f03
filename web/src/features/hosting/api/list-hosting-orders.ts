import { hostingOrdersResponse, type HostingOrderStatus } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** The member's custody orders, newest first. */
export function listHostingOrders(query: { page: number; pageSize: number; status?: HostingOrderStatus }) {
  return apiRequest({ method: 'GET', path: '/api/hosting/order', query, data: hostingOrdersResponse });
}
