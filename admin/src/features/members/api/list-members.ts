import { adminMembersResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function listMembers(query: string, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (query) parameters.set('query', query);
  return consoleRequest({ method: 'GET', path: `/api/admin/members?${parameters.toString()}`, data: adminMembersResponse });
}
