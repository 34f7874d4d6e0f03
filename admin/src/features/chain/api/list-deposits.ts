import { adminDepositsResponse, type DepositStatus, type Network } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export interface DepositFilter {
  network: Network | null;
  status: DepositStatus | null;
  /** E-mail, address or transaction hash, matched exactly. */
  query: string;
}

export function listDeposits(filter: DepositFilter, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (filter.network) parameters.set('network', filter.network);
  if (filter.status) parameters.set('status', filter.status);
  if (filter.query) parameters.set('query', filter.query);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/chain/deposits?${parameters.toString()}`,
    data: adminDepositsResponse,
  });
}
