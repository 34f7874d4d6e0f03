import { adminWithdrawalsResponse, type WithdrawalStatus } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export interface WithdrawalFilter {
  status: WithdrawalStatus | null;
  /** E-mail, address, card or transaction hash. */
  query: string;
}

export function listWithdrawals(filter: WithdrawalFilter, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (filter.status) parameters.set('status', filter.status);
  if (filter.query) parameters.set('query', filter.query);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/withdrawals?${parameters.toString()}`,
    data: adminWithdrawalsResponse,
  });
}
