import { adminHostingOrdersResponse, type HostingOrderStatus } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export interface HostingOrderFilter {
  status: HostingOrderStatus | null;
  /** A member's e-mail (exact). */
  query: string;
}

export function listHostingOrders(filter: HostingOrderFilter, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (filter.status) parameters.set('status', filter.status);
  if (filter.query) parameters.set('query', filter.query);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/hosting/orders?${parameters.toString()}`,
    data: adminHostingOrdersResponse,
  });
}
