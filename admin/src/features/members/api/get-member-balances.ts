import { adminMemberBalancesResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function getMemberBalances(id: string) {
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/members/${encodeURIComponent(id)}/balances`,
    data: adminMemberBalancesResponse,
  });
}
