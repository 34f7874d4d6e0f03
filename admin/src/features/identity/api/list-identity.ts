import { adminIdentityResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function listIdentity(status: 'pending' | 'approved' | 'failed', page: number, pageSize: number) {
  const parameters = new URLSearchParams({ status, page: String(page), pageSize: String(pageSize) });
  return consoleRequest({ method: 'GET', path: `/api/admin/identity?${parameters.toString()}`, data: adminIdentityResponse });
}
