import { adminMemberMachinesResponse, type MemberMachine } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export interface MemberMachineFilter {
  status: MemberMachine['status'] | null;
  /** A member's e-mail (exact). */
  query: string;
}

/** Members' machines, newest first: by status, or one member's by e-mail. */
export function listMemberMachines(filter: MemberMachineFilter, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (filter.status) parameters.set('status', filter.status);
  if (filter.query) parameters.set('query', filter.query);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/machines?${parameters.toString()}`,
    data: adminMemberMachinesResponse,
  });
}
